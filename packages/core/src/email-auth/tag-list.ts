/**
 * The `tag=value; tag=value` syntax shared by DMARC (RFC 7489 §6.4), DKIM key records
 * (RFC 6376 §3.2), MTA-STS (RFC 8461 §3.1), TLS-RPT (RFC 8460 §3) and BIMI records.
 * @module
 */

export interface TagListEntry {
  /** Tag name as published (trimmed). */
  name: string;
  /** Value with surrounding whitespace removed. */
  value: string;
}

export interface TagList {
  entries: TagListEntry[];
  /** Segments that are not `name=value` (the raw segment). */
  malformed: string[];
}

/**
 * Splits on `;`, then on the first `=`; whitespace around names, values and separators is
 * allowed (RFC 6376 §3.2 `*WSP`/FWS); empty segments, such as after a trailing `;`, are skipped.
 */
export function parseTagList(text: string): TagList {
  const entries: TagListEntry[] = [];
  const malformed: string[] = [];
  for (const segment of text.split(';')) {
    const trimmed = segment.trim();
    if (trimmed === '') continue;
    const eq = trimmed.indexOf('=');
    const name = eq === -1 ? '' : trimmed.slice(0, eq).trim();
    if (eq === -1 || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
      malformed.push(trimmed);
      continue;
    }
    entries.push({ name, value: trimmed.slice(eq + 1).trim() });
  }
  return { entries, malformed };
}
