/**
 * Turns raw WHOIS text into key/value entries. WHOIS (RFC 3912) has no syntax, so this reads
 * the layouts registries use:
 * - `Key: value` (ICANN gTLD, RPSL `key:   value`), `key.....: value` (.fi, .kz),
 *   `Key<TAB>value` (.ch), `[Key]   value` and `a. [Key] value` (JPRS);
 * - headings followed by indented or bare lines (`Name Servers:` / `Name servers` / `Registrar:`
 *   then one value per line, .edu, .eu, .nl, .gg, .hk, .tw);
 * - sentences such as `Record created on 2005-10-27` (.tw) or `Registered on …` (.gg).
 * Comment lines (`%`, `#`, `>>> … <<<`, JPRS `[ … ]` banners) are dropped.
 * @module
 */

export interface WhoisEntry {
  /** Normalised key: lower case, single spaces, no trailing dots or colon. */
  key: string;
  value: string;
  /** The heading this entry sits under ("" at top level), normalised like `key`. */
  section: string;
  /** Index of the blank-line-separated paragraph (RPSL objects are paragraphs). */
  paragraph: number;
  /** True when the value came from the lines under a heading rather than `key: value`. */
  fromBlock: boolean;
}

/** Headings without a colon that introduce one value per line. */
const BARE_HEADINGS =
  /^(name ?servers?|domain servers in listed order|name servers information|nameservers in listed order|dns servers?|domain nameservers|relevant dates|registrar|registrant|holder|status)$/i;

/** Keys that start a contact-like object whose generic `Name:` lines belong to it. */
const SECTION_KEYS = new Set([
  'registrar',
  'registrant',
  'holder',
  'domain registrant',
  'administrative contact',
  'technical contact',
  'admin contact',
  'tech contact',
  'billing contact',
]);

const SENTENCE =
  /^(record (?:created|expires|last updated)|registered|created|expires|renewal)\s+on\s+(.+)$/i;

export function normaliseKey(key: string): string {
  return key
    .toLowerCase()
    .replace(/[\s_]+/g, ' ')
    .replace(/[.:\s]+$/, '')
    .trim();
}

function isComment(line: string): boolean {
  const trimmed = line.trim();
  return (
    trimmed.startsWith('%') ||
    trimmed.startsWith('#') ||
    trimmed.startsWith('>>>') ||
    trimmed.startsWith('--') ||
    /^\[ .* \]$/.test(trimmed) ||
    /^\[\s*\]$/.test(trimmed)
  );
}

function indentOf(line: string): number {
  const match = /^[ \t]*/.exec(line)?.[0] ?? '';
  let width = 0;
  for (const ch of match) width += ch === '\t' ? 8 : 1;
  return width;
}

/** `key: value` in one of the supported layouts, or undefined. */
export function splitKeyValue(content: string): { key: string; value: string } | undefined {
  // JPRS: "[Domain Name]   EXAMPLE.JP" or "a. [Domain Name]   EXAMPLE.JP"
  let m = /^(?:[a-z]\.\s*)?\[([^\]]{1,60})\]\s*(.*)$/i.exec(content);
  if (m) return { key: m[1] as string, value: (m[2] as string).trim() };
  // .fi / .kz: "created............: 15.12.2015"
  m = /^([^:]{1,60}?)\s*\.{2,}\s*:\s*(.*)$/.exec(content);
  if (m) return { key: m[1] as string, value: (m[2] as string).trim() };
  // "Key: value" (the key must not be the start of a URL or a time)
  m = /^([^:\t]{1,80}?)\s*:(?!\/\/)\s*(.*)$/.exec(content);
  if (m && !/^\d+$/.test(m[1] as string) && !/^(https?|ftp)$/i.test(m[1] as string)) {
    return { key: m[1] as string, value: (m[2] as string).trim() };
  }
  // .ch: "Registrar<TAB>MarkMonitor"
  m = /^([^\t]{1,40}?)\t+(.+)$/.exec(content);
  // …but "ns2.example.ch<TAB>192.0.2.1" under a heading is a value, not a key.
  if (m && !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(m[1] as string))
    return { key: m[1] as string, value: (m[2] as string).trim() };
  return undefined;
}

/** Splits WHOIS text into entries (see the module comment for the layouts). */
export function whoisEntries(text: string): WhoisEntry[] {
  const lines = text.replace(/\r\n?/g, '\n').replace(/\0/g, '').split('\n');
  const entries: WhoisEntry[] = [];
  let paragraph = 0;
  let block: { key: string; indent: number; count: number } | undefined;
  /** The last `key: value` line: deeper bare lines continue its value (.kz status list). */
  let continued: { key: string; indent: number } | undefined;
  let section = '';
  let sawBlank = false;

  for (const line of lines) {
    if (line.trim() === '') {
      sawBlank = true;
      // A name-server heading immediately followed by a blank line (.hk) keeps waiting for
      // its values; any other heading ends, so "Registrar:" before a disclaimer stays empty.
      if (block && (block.count > 0 || !/server|dns/.test(block.key))) block = undefined;
      continue;
    }
    if (sawBlank) {
      paragraph++;
      sawBlank = false;
      if (!block) section = '';
    }
    if (isComment(line)) continue;
    const indent = indentOf(line);
    const content = line.trim();
    const kv = splitKeyValue(content);

    if (continued) {
      const isValue =
        indent > continued.indent && !kv && !SENTENCE.test(content) && !BARE_HEADINGS.test(content);
      if (isValue) {
        entries.push({ key: continued.key, value: content, section, paragraph, fromBlock: false });
        continue;
      }
      continued = undefined;
    }

    if (block) {
      const deeper = indent > block.indent;
      const sentence = SENTENCE.exec(content);
      if (deeper && sentence) {
        // "Relevant dates:\n    Registered on 30th April 2003" (.gg)
        entries.push({
          key: normaliseKey(sentence[1] as string),
          value: (sentence[2] as string).trim(),
          section: block.key,
          paragraph,
          fromBlock: false,
        });
        block.count++;
        continue;
      }
      if (deeper && !kv) {
        entries.push({ key: block.key, value: content, section, paragraph, fromBlock: true });
        block.count++;
        continue;
      }
      if (deeper && kv && kv.value === '') {
        // A nested heading (.tw "   Domain servers in listed order:").
        block = { key: normaliseKey(kv.key), indent, count: 0 };
        section = block.key;
        continue;
      }
      if (deeper && kv) {
        // "Registrar:\n    Name: X" — a sub-entry of the heading.
        entries.push({
          key: normaliseKey(kv.key),
          value: kv.value,
          section: block.key,
          paragraph,
          fromBlock: false,
        });
        block.count++;
        continue;
      }
      if (!kv && !BARE_HEADINGS.test(content) && !SENTENCE.test(content)) {
        // Bare lines at the heading's own indent (.ch, .hk "Name servers\nns1…").
        entries.push({ key: block.key, value: content, section, paragraph, fromBlock: true });
        block.count++;
        continue;
      }
      block = undefined;
    }

    const sentence = SENTENCE.exec(content);
    if (sentence) {
      entries.push({
        key: normaliseKey(sentence[1] as string),
        value: (sentence[2] as string).trim(),
        section,
        paragraph,
        fromBlock: false,
      });
      continue;
    }
    if (kv) {
      const key = normaliseKey(kv.key);
      if (kv.value === '') {
        block = { key, indent, count: 0 };
        section = key;
      } else {
        // "Registrar: MARK-0292" followed by "Name: …" (.sk): the key opens a section too.
        if (SECTION_KEYS.has(key)) section = key;
        entries.push({ key, value: kv.value, section, paragraph, fromBlock: false });
        continued = { key, indent };
      }
      continue;
    }
    if (BARE_HEADINGS.test(content)) {
      const key = normaliseKey(content);
      block = { key, indent, count: 0 };
      section = key;
    }
  }
  return entries;
}
