/**
 * Turns raw WHOIS text into key/value entries. WHOIS (RFC 3912) has no syntax, so this reads
 * the layouts registries use:
 * - `Key: value` (ICANN gTLD, RPSL `key:   value`), `key.....: value` (.fi, .kz, .lk, .tr),
 *   `Key<TAB>value` (.ch), `[Key]   value`, `a. [Key] value` (JPRS) and `a [Key] value` (MYNIC),
 *   `** Key: value` (.tr), bilingual `Etiqueta / Label: value` (.pt), `Clé#. . . . value` (.dz);
 * - headings followed by indented or bare lines, one value per line or `key: value` sub-entries
 *   (`Name Servers:` / `Name servers` / `Registrar:` / `[Registrar]`, .edu, .eu, .nl, .gg, .hk,
 *   .tw, .uk, .it, .kr `Primary Name Server` + `Host Name: …`), also when a dashed rule sits
 *   between the heading and its lines (`Domain Servers:\n---------------`, .es) or a blank line
 *   follows a name-server heading (.hk, .kg, .uy);
 * - sentences such as `Record created on 2005-10-27` (.tw), `Registered on …` (.gg), and the
 *   `Domain EXAMPLE.KG (ACTIVE)` title line (.kg).
 * Comment lines (`%`, `#`, `>>> … <<<`, JPRS `[ … ]` banners, `* … *` boxes, `-----` / `=====`
 * rules) are dropped.
 *
 * Entries are grouped into objects: a new object starts at a blank line, and at a key that opens
 * an RPSL/FRED object (`contact:`, `nic-hdl:`, `person:`, …) even without a blank line
 * before it (NIC Argentina, FRED registries such as .cr print them back to back), so that a
 * contact's `created:` is never taken for the domain's.
 * @module
 */

export interface WhoisEntry {
  /** Normalised key (see `normaliseKey`). */
  key: string;
  value: string;
  /** The heading this entry sits under ("" at top level), normalised like `key`. */
  section: string;
  /**
   * Index of the object the entry belongs to: blank-line-separated paragraphs, split further
   * where an RPSL/FRED object key starts a new object.
   */
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
 * Keys that open a new RPSL/FRED object (RFC 2622 class attributes as registries print them:
 * RIPE `person`/`role`/`nic-hdl`, AFNIC `nic-hdl`, registro.br `nic-hdl-br`, FRED and NIC
 * Argentina `contact`). FRED's `nsset:` and `keyset:` are left out: the domain object itself
 * names its nsset with that key (.cz, .cr, .tz).
 */
const OBJECT_KEYS = new Set(['contact', 'nic hdl', 'nic hdl br', 'person', 'role']);

const SENTENCE =
  /^(record (?:created|expires|last updated)|registered|created|expires|renewal)\s+on\s+([^:\s].*)$/i;

/** `Domain GOOGLE.KG (ACTIVE)`: the .kg title line names the domain. */
const DOMAIN_TITLE = /^domain\s+([a-z0-9-]+(?:\.[a-z0-9-]+)+)\.?(?:\s+\([^)]*\))?$/i;

/**
 * Lower case, single spaces, `_` and `-` as spaces; leading bullets (`** Domain Name`, .tr) and
 * parenthesised hints (`Creation Date (dd/mm/yyyy)` .pt, `Administrative Contact(AC)` .kr,
 * `Servidor(es)` .uy) dropped; trailing dots, colons and a final `on`/`at` (`Created on`,
 * `Expires at`) dropped, so `Expires on` and `Expires` are one key.
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

function isComment(line: string): boolean {
  const trimmed = line.trim();
  return (
    trimmed.startsWith('%') ||
    trimmed.startsWith('#') ||
    trimmed.startsWith('>>>') ||
    trimmed.startsWith('--') ||
    /^[-=_*~]{3,}$/.test(trimmed) || // rules under headings and around banners
    /^\*.*\*$/.test(trimmed) || // "* Please note … *" boxed banners (.it)
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

/** A host name followed by more text: "pdns6.example.co.uk  192.0.2.1  2001:db8::1". */
const HOST_THEN_TEXT = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+\.?\s/i;

/**
 * JWhoisServer (zero-sys.net, used by .dz): "Nom de domaine#. . . . . .example.dz", the key ends
 * at `#` and dot leaders run up to the value.
 */
const HASH_LEADERS = /^([^#:]{1,60}?)\s*#[ .]{2,}(.*)$/;

/** `key: value` in one of the supported layouts, or undefined. */
export function splitKeyValue(content: string): { key: string; value: string } | undefined {
  // JPRS: "[Domain Name]   EXAMPLE.JP", "a. [Domain Name]   EXAMPLE.JP"; MYNIC "a [Domain Name]"
  let m = /^(?:[a-z](?:\.\s*|\s+))?\[([^\]]{1,60})\]\s*(.*)$/i.exec(content);
  if (m) return { key: m[1] as string, value: (m[2] as string).trim() };
  // .fi / .kz: "created............: 15.12.2015"
  m = /^([^:]{1,60}?)\s*\.{2,}\s*:\s*(.*)$/.exec(content);
  if (m) return { key: m[1] as string, value: (m[2] as string).trim() };
  // Before "Key: value": the value may hold a time ("…#. . . .10/01/2007 12:00:00").
  m = HASH_LEADERS.exec(content);
  if (m) return { key: m[1] as string, value: (m[2] as string).trim() };
  // "Key: value" (the key must not be the start of a URL or a time, nor a host name followed
  // by addresses whose IPv6 colons would make it look like a key)
  m = /^([^:\t]{1,80}?)\s*:(?!\/\/)\s*(.*)$/.exec(content);
  if (
    m &&
    !/^\d+$/.test(m[1] as string) &&
    !/^(https?|ftp)$/i.test(m[1] as string) &&
    !HOST_THEN_TEXT.test(m[1] as string)
  ) {
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
  let object = 0;
  /** Entries pushed into the current object (an object key at its top opens no new one). */
  let inObject = 0;
  let block: { key: string; indent: number; count: number } | undefined;
  /** The last `key: value` line: deeper bare lines continue its value (.kz status list). */
  let continued: { keys: string[]; indent: number } | undefined;
  let section = '';
  let sawBlank = false;

  const push = (key: string, value: string, entrySection: string, fromBlock: boolean) => {
    entries.push({ key, value, section: entrySection, object, fromBlock });
    inObject++;
  };
  /** The next line that is neither blank nor a comment, if it is deeper than `indent`. */
  const nextIsDeeper = (index: number, indent: number): boolean => {
    for (let j = index + 1; j < lines.length && j <= index + 2; j++) {
      const next = lines[j] as string;
      if (next.trim() === '') return false;
      if (isComment(next)) continue;
      return indentOf(next) > indent;
    }
    return false;
  };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.trim() === '') {
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
    if (isComment(line)) continue;
    const indent = indentOf(line);
    const content = line.trim();
    const kv = splitKeyValue(content);

    if (continued) {
      const isValue =
        indent > continued.indent && !kv && !SENTENCE.test(content) && !BARE_HEADINGS.test(content);
      if (isValue) {
        for (const key of continued.keys) push(key, content, section, false);
        continue;
      }
      continued = undefined;
    }

    if (block) {
      const deeper = indent > block.indent;
      const sentence = SENTENCE.exec(content);
      if (deeper && sentence) {
        // "Relevant dates:\n    Registered on 30th April 2003" (.gg)
        push(normaliseKey(sentence[1] as string), (sentence[2] as string).trim(), block.key, false);
        block.count++;
        continue;
      }
      if (deeper && !kv) {
        push(block.key, content, section, true);
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
        for (const key of keyAlternatives(kv.key)) push(key, kv.value, block.key, false);
        block.count++;
        continue;
      }
      if (!kv && !BARE_HEADINGS.test(content) && !SENTENCE.test(content)) {
        // Bare lines at the heading's own indent (.ch, .hk "Name servers\nns1…").
        push(block.key, content, section, true);
        block.count++;
        continue;
      }
      block = undefined;
    }

    const sentence = SENTENCE.exec(content);
    if (sentence) {
      push(normaliseKey(sentence[1] as string), (sentence[2] as string).trim(), section, false);
      continue;
    }
    const title = DOMAIN_TITLE.exec(content);
    if (title && !kv) {
      push('domain', title[1] as string, section, false);
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
        for (const alternative of keys) push(alternative, kv.value, section, false);
        continued = { keys, indent };
      }
      continue;
    }
    // A heading without a colon: a known one, or any short line whose next line is indented
    // deeper (.it "Registrant\n  Organization: …", .kr "Primary Name Server\n   Host Name: …").
    if (BARE_HEADINGS.test(content) || (content.length <= 60 && nextIsDeeper(index, indent))) {
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
