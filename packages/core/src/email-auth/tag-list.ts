/**
 * The `tag=value; tag=value` syntax shared by DMARC (RFC 7489 §6.4), DKIM key records
 * (RFC 6376 §3.2), MTA-STS (RFC 8461 §3.1), TLS-RPT (RFC 8460 §3) and BIMI records.
 * @module
 */
import { isAsciiLetter } from '../ascii.js';
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
  /** Whether segments past `maxSegments` were left unread. */
  truncated: boolean;
}

/**
 * Splits on `;`, then on the first `=`; whitespace around names, values and separators is
 * allowed (RFC 6376 §3.2 `*WSP`/FWS); empty segments, such as after a trailing `;`, are skipped.
 * Past `keepMalformed` malformed segments the rest are only counted; past `maxSegments`
 * segments the rest is not read (`truncated`). Read in place, segment by
 * segment: a split and a trimmed copy of each of 32,000 `x;` segments of a 64 KiB record were
 * most of its parse (bench/parsers). Each segment is read once, its first "=" and its end found
 * in the same pass, its name checked by character codes (`^[A-Za-z][A-Za-z0-9_]*$`) and
 * trimmed by position: a search for ";", a trimmed copy of the name and a pattern test per
 * segment made a record of thousands of `fo=` tags 6.8 times as slow per MiB as V8's
 * `JSON.parse` (found by bench/parsers/search.bench.ts).
 */
export function parseTagList(
  text: string,
  keepMalformed = Number.POSITIVE_INFINITY,
  maxSegments = Number.POSITIVE_INFINITY,
): TagList {
  const entries: TagListEntry[] = [];
  const malformed: string[] = [];
  let malformedCount = 0;
  const length = text.length;
  for (let from = 0; from <= length; ) {
    if (entries.length + malformedCount === maxSegments) {
      // Only whitespace and ";" may follow for the list to be whole.
      for (let i = from; i < length; i++) {
        const ch = text.charCodeAt(i);
        if (ch !== 0x3b && !isWhitespaceCode(ch)) {
          return { entries, malformed, malformedCount, truncated: true };
        }
      }
      break;
    }
    // The segment's end (";" or the end) and its first "=", in one pass.
    let end = from;
    let eq = -1;
    for (; end < length; end++) {
      const ch = text.charCodeAt(end);
      if (ch === 0x3b) break;
      if (ch === 0x3d && eq === -1) eq = end;
    }
    let start = from;
    from = end + 1;
    while (start < end && isWhitespaceCode(text.charCodeAt(start))) start++;
    while (end > start && isWhitespaceCode(text.charCodeAt(end - 1))) end--;
    if (start === end) continue;
    // The name: from the start to the "=", less the whitespace before it.
    let nameEnd = eq;
    while (nameEnd > start && isWhitespaceCode(text.charCodeAt(nameEnd - 1))) nameEnd--;
    if (eq === -1 || eq >= end || !isName(text, start, nameEnd)) {
      if (malformedCount++ < keepMalformed) malformed.push(text.slice(start, end));
      continue;
    }
    let valueStart = eq + 1;
    while (valueStart < end && isWhitespaceCode(text.charCodeAt(valueStart))) valueStart++;
    entries.push({ name: text.slice(start, nameEnd), value: text.slice(valueStart, end) });
  }
  return { entries, malformed, malformedCount, truncated: false };
}

/** Whether `text[start, end)` is `[A-Za-z][A-Za-z0-9_]*`. */
function isName(text: string, start: number, end: number): boolean {
  if (end === start || !isAsciiLetter(text.charCodeAt(start))) return false;
  for (let i = start + 1; i < end; i++) {
    const ch = text.charCodeAt(i);
    if (!isAsciiLetter(ch) && !(ch >= 0x30 && ch <= 0x39) && ch !== 0x5f) return false;
  }
  return true;
}
