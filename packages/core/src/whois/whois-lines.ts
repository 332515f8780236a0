/**
 * Turns raw WHOIS text into key/value entries. WHOIS (RFC 3912) has no syntax, so this reads
 * the layouts registries use:
 * - `Key: value` (ICANN gTLD, RPSL), `key.....: value` (.fi, .kz, .lk, .tr), `Key:.....value`
 *   (.tg, .tn), `Key<TAB>value` (.ch), `[Key] value`, `a. [Key] value` (JPRS, MYNIC),
 *   `** Key: value` (.tr), bilingual `Etiqueta / Label: value` (.pt), `Clé#. . . . value` (.dz);
 * - headings followed by indented or bare lines, one value per line or `key: value` sub-entries
 *   (.edu, .eu, .nl, .gg, .hk, .tw, .uk, .it, .kr), also after a dashed rule (.es) or, for name
 *   servers, a blank line (.hk, .kg, .uy);
 * - sentences such as `Record created on 2005-10-27` (.tw), and `Domain EXAMPLE.KG (ACTIVE)`.
 * Comment lines (COMMENT) are dropped.
 *
 * Entries are grouped into objects, split at blank lines and at keys that open an RPSL/FRED
 * object (OBJECT_KEYS), so that a contact's `created:` is never taken for the domain's.
 * @module
 */

export interface WhoisEntry {
  /** Normalised key (see `normaliseKey`). */
  key: string;
  value: string;
  /** The heading this entry sits under ("" at top level), normalised like `key`. */
  section: string;
  /** Index of the object the entry belongs to (see the module comment). */
  object: number;
  /** True when the value came from the lines under a heading rather than `key: value`. */
  fromBlock: boolean;
}

/**
 * Name-server keys and headings, normalised, any trailing number removed (`Name Server 1`,
 * `NS 2`, .nz `ns_name_01`). Sources: ICANN RAA 2013 (`Name Server`), RPSL `nserver` (RIPE,
 * DENIC, AFNIC, FRED), .edu/.tw/.uz `Domain servers in listed order`, .kg `Name servers in the
 * listed order`, .bg `NAME SERVER INFORMATION`, .tr `** Domain Servers`, .ja.net `Servers`,
 * .kr `Host Name` / `호스트이름` under `Primary Name Server`, .uy/.ve `Servidor(es) de Nombres de
 * Dominio`, .cl `Servidores de nombre (Domain servers)`, .tm `NS 1`, .mx `DNS`.
 */
const NAME_SERVER_KEYS = new Set([
  'name server',
  'name servers',
  'nameserver',
  'nameservers',
  'nserver',
  'nservers',
  'hostname',
  'host name',
  '호스트이름',
  'dns',
  'dns servers',
  'dns server',
  'servers',
  'ns',
  'ns name',
  'domain server', // .nc "Domain server 1"
  'domain servers',
  'domain servers in listed order',
  'domain nameservers',
  'domain name servers',
  'name servers information',
  'name server information',
  'nameserver information',
  'nameservers in listed order',
  'name servers in listed order',
  'name servers in the listed order',
  'primary server',
  'secondary server',
  'primary name server',
  'secondary name server',
  // .ai (old layout): "Primary Server Hostname....: ns1.example.com"
  'primary server hostname',
  'secondary server hostname',
  'third server hostname',
  'fourth server hostname',
  'servidor de nombres de dominio',
  'servidores de nombre',
  'servidores de nombres',
]);

/** True for a normalised key that lists name servers. */
export function isNameServerKey(key: string): boolean {
  return NAME_SERVER_KEYS.has(key.replace(/\s*\d+$/, ''));
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

/**
 * Keys that open a new RPSL/FRED object even without a blank line before (RFC 2622 class
 * attributes: RIPE, AFNIC, registro.br, FRED, NIC Argentina). Not FRED's `nsset:`/`keyset:`:
 * the domain object names its nsset with that key (.cz, .cr, .tz).
 */
const OBJECT_KEYS = new Set(['contact', 'nic hdl', 'nic hdl br', 'person', 'role']);

const SENTENCE =
  /^(record (?:created|expires|last updated)|registered|created|expires|renewal)\s+on\s+([^:\s].*)$/i;

/** `Domain GOOGLE.KG (ACTIVE)`: the .kg title line names the domain. */
const DOMAIN_TITLE = /^domain\s+([a-z0-9-]+(?:\.[a-z0-9-]+)+)\.?(?:\s+\([^)]*\))?$/i;

/**
 * Lower case, single spaces, `_` and `-` as spaces; without leading bullets (.tr), hints in
 * parentheses (.pt, .kr, .uy), trailing dots and colons, or a final `on`/`at` (`Expires on`).
 */
export function normaliseKey(key: string): string {
  return key
    .toLowerCase()
    .replace(/\([^)]{0,40}\)/g, ' ')
    .replace(/^[\s*\-•>]+/, '')
    .replace(/[\s_-]+/g, ' ')
    .replace(/[.:\s]+$/, '')
    .replace(/ (?:on|at)$/, '')
    .trim();
}

/** `Nome de domínio / Domain Name` (.pt): every language's label names the same field. */
function keyAlternatives(key: string): string[] {
  return key.includes(' / ') ? key.split(/ +\/ +/).map(normaliseKey) : [normaliseKey(key)];
}

/** A comment line, trimmed: `%`, `#`, `>>>`, `--`, rules, `* … *` (.it) and `[ … ]` banners. */
const COMMENT = /^(?:%|#|>>>|--|[-=_*~]{3,}$|\*.*\*$|\[ .* \]$|\[\s*\]$)/;

/** The width of the leading spaces and tabs, a tab counting 8. */
function indentOf(line: string): number {
  const lead = (/^[ \t]*/.exec(line) as RegExpExecArray)[0];
  return lead.length + 7 * lead.replace(/ /g, '').length;
}

/** A host name followed by more text: "pdns6.example.co.uk  192.0.2.1  2001:db8::1". */
const HOST_THEN_TEXT = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+\.?\s/i;

/** `key: value` in one of the supported layouts, or undefined, for a trimmed line. */
export function splitKeyValue(content: string): { key: string; value: string } | undefined {
  const kv = layoutKeyValue(content);
  if (!kv) return undefined;
  // JWhoisServer (.tg, .tn): "Domain:.......example.tg". Two or more dots at the start of a
  // value are leaders; one is kept (".tn" in a banner's "Supported ccTLDs : .tn").
  const leaders = /^\.{2,}/.exec(kv.value);
  return leaders ? { key: kv.key, value: kv.value.slice(leaders[0].length).trim() } : kv;
}

function layoutKeyValue(content: string): { key: string; value: string } | undefined {
  // The first three layouts need one of their marks ("[", "..", "#").
  if (RARE_MARKS.test(content)) {
    const rare =
      // JPRS "[Domain Name]   EXAMPLE.JP", "a. [Domain Name]  EXAMPLE.JP"; MYNIC "a [Domain Name]"
      keyed(BRACKETED.exec(content), content, true) ??
      // .fi / .kz: "created............: 15.12.2015"
      (dotLeadersFit(content) ? keyed(DOT_LEADERS.exec(content), content, true) : undefined) ??
      // Before "Key: value": the value may hold a time ("…#. . . .10/01/2007 12:00:00").
      keyed(HASH_LEADERS.exec(content), content, false);
    if (rare) return rare;
  }
  // "Key: value" (the key must not be the start of a URL or a time, nor a host name followed
  // by addresses whose IPv6 colons would make it look like a key)
  const colon = keyed(COLON.exec(content), content, true);
  if (
    colon &&
    !NOT_A_KEY.test(colon.key) &&
    !(colon.key.includes('.') && HOST_THEN_TEXT.test(colon.key))
  ) {
    return colon;
  }
  // .ch: "Registrar<TAB>MarkMonitor"; "ns2.example.ch<TAB>192.0.2.1" is a value, not a key.
  const tabbed = keyed(TABBED.exec(content), content, false);
  return tabbed?.value && !HOST_NAME.test(tabbed.key) ? tabbed : undefined;
}

/** The key a layout's pattern read (group 1) and the value after its match. */
function keyed(m: RegExpExecArray | null, content: string, spaced: boolean) {
  const value = m ? valueAfter(content, m[0].length, spaced) : undefined;
  return m && value !== undefined ? { key: m[1] as string, value } : undefined;
}

/**
 * The value from `start` to the end of the line, trimmed, or undefined when it holds a line
 * terminator, as `\s*(.*)$` would give (ECMA-262 §22.2.2.9; `spaced`: the `\s*` may hold one).
 * Sliced rather than matched: that pattern is quadratic on spaces before a line separator.
 */
function valueAfter(content: string, start: number, spaced: boolean): string | undefined {
  const rest = content.slice(start);
  const value = spaced ? rest.trimStart() : rest;
  return LINE_TERMINATOR.test(value) ? undefined : value.trim();
}
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/** A mark one of the bracketed, dot-leader and hash-leader layouts needs. */
const RARE_MARKS = /[[#]|\.\./;
const BRACKETED = /^(?:[a-z](?:\.\s*|\s+))?\[([^\]]{1,60})\]/i;
const DOT_LEADERS = /^([^:]{1,60}?)\s*\.{2,}\s*:/;
/**
 * JWhoisServer (.dz): "Nom de domaine#. . . . . .example.dz". The key ends with a non-space
 * character, so `\s*` cannot rescan a long run of spaces once per key length.
 */
const HASH_LEADERS = /^([^#:]{0,59}?[^#:\s])\s*#[ .]{2,}/;
const SPACE = /\s/;
/**
 * False when DOT_LEADERS cannot match `content` (its leaders must start within 60 characters of
 * the first colon): otherwise the pattern rescans a long line of dots once per key length.
 */
function dotLeadersFit(content: string): boolean {
  let start = content.indexOf(':');
  if (start === -1) return false;
  while (start > 0 && SPACE.test(content[start - 1] as string)) start--;
  const dotsEnd = start;
  while (start > 0 && content[start - 1] === '.') start--;
  if (dotsEnd - start < 2) return false;
  while (start > 0 && SPACE.test(content[start - 1] as string)) start--;
  return start <= 60;
}
/** The key ends with a character that is not whitespace, as HASH_LEADERS's does. */
const COLON = /^([^:\t]{0,79}?[^:\s])\s*:(?!\/\/)/;
const TABBED = /^([^\t]{1,40}?)\t+/;
/** Before a colon, the start of a time ("12:30") or of a URL ("https://"). */
const NOT_A_KEY = /^(?:\d+|https?|ftp)$/i;
const HOST_NAME = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** What a line says on its own, wherever it stands. */
interface LineFacts {
  /** The line without its leading and trailing whitespace; "" for a blank line. */
  content: string;
  comment: boolean;
  indent: number;
  kv: { key: string; value: string } | undefined;
  /** What `SENTENCE` read on the line. */
  sentence: { key: string; value: string } | undefined;
  /** `DOMAIN_TITLE` matched on a line that is not `key: value`. */
  title: RegExpExecArray | null;
  /** A line that is not `key: value` and is one of `BARE_HEADINGS`. */
  heading: boolean;
}

function factsOf(line: string): LineFacts {
  const content = line.trim();
  const comment = content !== '' && COMMENT.test(content);
  const analysed = content !== '' && !comment;
  const kv = analysed ? splitKeyValue(content) : undefined;
  const bare = analysed && !kv;
  const sentence = analysed ? SENTENCE.exec(content) : null;
  return {
    content,
    comment,
    indent: analysed ? indentOf(line) : 0,
    kv,
    sentence: sentence
      ? { key: normaliseKey(sentence[1] as string), value: (sentence[2] as string).trim() }
      : undefined,
    title: bare ? DOMAIN_TITLE.exec(content) : null,
    heading: bare && BARE_HEADINGS.test(content),
  };
}

/** The next line that is neither blank nor a comment, if it is deeper than `indent`. */
function nextIsDeeper(lines: readonly LineFacts[], index: number, indent: number): boolean {
  for (let j = index + 1; j < lines.length && j <= index + 2; j++) {
    const next = lines[j] as LineFacts;
    if (next.content === '') return false;
    if (next.comment) continue;
    return next.indent > indent;
  }
  return false;
}

/** The lines of WHOIS text, without CR or NUL. */
export const splitLines = (text: string) =>
  text.replace(/\r\n?/g, '\n').replace(/\0/g, '').split('\n');

/** Splits WHOIS text into entries (see the module comment for the layouts). */
export function whoisEntries(text: string): WhoisEntry[] {
  return entriesOfLines(splitLines(text));
}

/** `whoisEntries` of text already split into lines (without CR or NUL). */
export function entriesOfLines(lines: readonly string[]): WhoisEntry[] {
  const entries: WhoisEntry[] = [];
  let object = 0;
  /** Entries pushed into the current object (an object key at its top opens no new one). */
  let inObject = 0;
  /** One entry per key, with the same value. */
  const push = (keys: string[], value: string, section: string, fromBlock: boolean) => {
    for (const key of keys) entries.push({ key, value, section, object, fromBlock });
    inObject += keys.length;
  };
  const facts = lines.map(factsOf);
  let block: { key: string; indent: number; count: number } | undefined;
  /** The keys of the last `key: value` line: deeper bare lines continue its value (.kz). */
  let continuedKeys: string[] | undefined;
  let continuedIndent = 0;
  let section = '';
  let sawBlank = false;

  for (let index = 0; index < facts.length; index++) {
    const line = facts[index] as LineFacts;
    const content = line.content;
    if (content === '') {
      sawBlank = true;
      // A name-server heading immediately followed by a blank line (.hk, .kg, .uy) keeps
      // waiting for its values; any other heading ends, so "Registrar:" before a disclaimer
      // stays empty.
      if (block && (block.count > 0 || !isNameServerKey(block.key))) block = undefined;
      continue;
    }
    if (sawBlank) {
      if (inObject > 0) object++;
      inObject = 0;
      sawBlank = false;
      if (!block) section = '';
    }
    if (line.comment) continue;
    const indent = line.indent;
    const kv = line.kv;
    const sentence = line.sentence;

    if (continuedKeys) {
      if (indent > continuedIndent && !kv && !sentence && !line.heading) {
        push(continuedKeys, content, section, false);
        continue;
      }
      continuedKeys = undefined;
    }

    if (block) {
      const deeper = indent > block.indent;
      if (deeper && sentence) {
        // "Relevant dates:\n    Registered on 30th April 2003" (.gg)
        push([sentence.key], sentence.value, block.key, false);
        block.count++;
        continue;
      }
      if (!kv && !sentence && (deeper || !line.heading)) {
        // Lines under the heading, or bare ones at its own indent (.ch, .hk "Name servers\nns1…").
        push([block.key], content, section, true);
        block.count++;
        continue;
      }
      if (deeper && kv && kv.value === '') {
        // A nested heading (.tw "   Domain servers in listed order:").
        block = { key: headingKey(kv.key), indent, count: 0 };
        section = block.key;
        continue;
      }
      if (deeper && kv) {
        // "Registrar:\n    Name: X" — a sub-entry of the heading.
        push(keyAlternatives(kv.key), kv.value, block.key, false);
        block.count++;
        continue;
      }
      block = undefined;
    }

    if (sentence) {
      push([sentence.key], sentence.value, section, false);
      continue;
    }
    if (line.title) {
      push(['domain'], line.title[1] as string, section, false);
      continue;
    }
    if (kv) {
      const keys = keyAlternatives(kv.key);
      const key = keys[0] as string;
      if (OBJECT_KEYS.has(key) && inObject > 0) {
        // "contact:" right after the domain object's last line: a new object starts here.
        object++;
        inObject = 0;
        section = '';
      }
      if (kv.value === '') {
        block = { key: headingKey(kv.key), indent, count: 0 };
        section = block.key;
      } else {
        // "Registrar: MARK-0292" followed by "Name: …" (.sk): the key opens a section too.
        if (SECTION_KEYS.has(key)) section = key;
        push(keys, kv.value, section, false);
        continuedKeys = keys;
        continuedIndent = indent;
      }
      continue;
    }
    // A heading without a colon: a known one, or any short line whose next line is indented
    // deeper (.it "Registrant\n  Organization: …", .kr "Primary Name Server\n   Host Name: …").
    if (line.heading || (content.length <= 60 && nextIsDeeper(facts, index, indent))) {
      const key = normaliseKey(content);
      block = { key, indent, count: 0 };
      section = key;
    }
  }
  return entries;
}

/** A bilingual heading (`Titular / Registrant`) is known by its last, usually English, label. */
function headingKey(key: string): string {
  const keys = keyAlternatives(key);
  return keys[keys.length - 1] as string;
}
