/**
 * The `tag=value; tag=value` syntax shared by DMARC (RFC 7489 §6.4), DKIM key records
 * (RFC 6376 §3.2), MTA-STS (RFC 8461 §3.1), TLS-RPT (RFC 8460 §3) and BIMI records.
 * @module
 */

export interface TagList {
  /** Names as published and values, both trimmed. */
  entries: { name: string; value: string }[];
  /** Segments that are not `name=value` (the raw segment, trimmed): the first `keepMalformed`. */
  malformed: string[];
  /** How many segments are not `name=value`, kept in `malformed` or not. */
  malformedCount: number;
  /** Whether segments past `maxSegments` were left unread. */
  truncated: boolean;
}

const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * Splits on `;`, then on the first `=`, around whitespace (RFC 6376 §3.2); empty segments are
 * skipped. Malformed ones past `keepMalformed` are only counted; past `maxSegments`, not read.
 */
export function parseTagList(
  text: string,
  keepMalformed = Number.POSITIVE_INFINITY,
  maxSegments = Number.POSITIVE_INFINITY,
): TagList {
  const list: TagList = { entries: [], malformed: [], malformedCount: 0, truncated: false };
  // Segment by segment rather than `split(';')`: the array of every segment of a 64 KiB record
  // stays alive through the loop, and the parse grew faster than the record (test/adversarial).
  for (let from = 0; from <= text.length; ) {
    let end = text.indexOf(';', from);
    if (end === -1) end = text.length;
    const trimmed = text.slice(from, end).trim();
    from = end + 1;
    if (trimmed === '') continue;
    if (list.entries.length + list.malformedCount === maxSegments) {
      list.truncated = true;
      break;
    }
    const eq = trimmed.indexOf('=');
    const name = eq === -1 ? '' : trimmed.slice(0, eq).trimEnd();
    if (!TAG_NAME.test(name)) {
      if (list.malformedCount++ < keepMalformed) list.malformed.push(trimmed);
      continue;
    }
    list.entries.push({ name, value: trimmed.slice(eq + 1).trimStart() });
  }
  return list;
}
