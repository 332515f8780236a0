/**
 * The `tag=value; tag=value` syntax shared by DMARC (RFC 7489 §6.4), DKIM key records
 * (RFC 6376 §3.2), MTA-STS (RFC 8461 §3.1), TLS-RPT (RFC 8460 §3) and BIMI records.
 * @module
 */
import { isWhitespaceCode } from '../whitespace.js';

export interface TagListEntry {
  /** Tag name as published (trimmed). */
  name: string;
  /** Value with surrounding whitespace removed. */
  value: string;
}

export interface TagList {
  entries: TagListEntry[];
  /** Segments that are not `name=value` (the raw segment, trimmed): the first `keepMalformed`. */
  malformed: string[];
  /** How many segments are not `name=value`, kept in `malformed` or not. */
  malformedCount: number;
}

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * Splits on `;`, then on the first `=`; whitespace around names, values and separators is
 * allowed (RFC 6376 §3.2 `*WSP`/FWS); empty segments, such as after a trailing `;`, are skipped.
 * Past `keepMalformed` malformed segments the rest are only counted. Read in place, segment by
 * segment: a split and a trimmed copy of each of 32,000 `x;` segments of a 64 KiB record were
 * most of its parse (bench/parsers).
 */
export function parseTagList(text: string, keepMalformed = Number.POSITIVE_INFINITY): TagList {
  const entries: TagListEntry[] = [];
  const malformed: string[] = [];
  let malformedCount = 0;
  for (let from = 0; from <= text.length; ) {
    let end = text.indexOf(';', from);
    if (end === -1) end = text.length;
    let start = from;
    from = end + 1;
    while (start < end && isWhitespaceCode(text.charCodeAt(start))) start++;
    while (end > start && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
    if (start === end) continue;
    // The first "=" of this segment only: `indexOf` would search the rest of the text for each
    // segment that has none (quadratic on thousands of them).
    let eq = start;
    while (eq < end && text.charCodeAt(eq) !== 0x3d) eq++;
    const name = eq === end ? undefined : text.slice(start, eq).trim();
    if (name === undefined || !NAME.test(name)) {
      if (malformedCount++ < keepMalformed) malformed.push(text.slice(start, end));
      continue;
    }
    entries.push({ name, value: text.slice(eq + 1, end).trim() });
  }
  return { entries, malformed, malformedCount };
}
