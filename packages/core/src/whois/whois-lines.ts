/**
 * Turns raw WHOIS text into key/value entries. WHOIS (RFC 3912) has no syntax, so this reads
 * the layouts registries use:
 * - `Key: value` (ICANN gTLD, RPSL `key:   value`), `key.....: value` (.fi, .kz, .lk, .tr),
 *   `Key:.....value` (JWhoisServer: .tg, .tn),
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
import { isSpaceCode } from './linear-text.js';

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
  'primary server hostname', // .ai (old layout): "Primary Server Hostname....: ns1.example.com"
  'secondary server hostname',
  'third server hostname',
  'fourth server hostname',
  'servidor de nombres de dominio',
  'servidores de nombre',
  'servidores de nombres',
]);

/** True for a normalised key that lists name servers. */
export function isNameServerKey(key: string): boolean {
  // A numbered key ("nserver 2") loses its number; the pattern can only remove something from
  // a key that ends with a digit (the parser asks this of every distinct key of an answer).
  const last = key.charCodeAt(key.length - 1);
  return NAME_SERVER_KEYS.has(last >= 48 && last <= 57 ? withoutNumber(key) : key);
}

/**
 * `(key) => keys.has(key) || isNameServerKey(key)` with one set lookup for a key that does not
 * end with a digit (the parser asks it of every key; two lookups of a new string were a
 * twentieth of an answer of distinct keys).
 */
export function orNameServerKey(keys: ReadonlySet<string>): (key: string) => boolean {
  const either = new Set([...keys, ...NAME_SERVER_KEYS]);
  return (key) => {
    const last = key.charCodeAt(key.length - 1);
    return last >= 48 && last <= 57 ? keys.has(key) || isNameServerKey(key) : either.has(key);
  };
}

/** `key.replace(/\s*\d+$/, '')` for a key that ends with a digit, in one backward pass. */
function withoutNumber(key: string): string {
  let end = key.length;
  for (let ch = key.charCodeAt(end - 1); ch >= 48 && ch <= 57; ch = key.charCodeAt(end - 1)) end--;
  while (end > 0 && isSpaceCode(key.charCodeAt(end - 1))) end--;
  return key.slice(0, end);
}

/** Headings without a colon that introduce one value per line. */
const BARE_HEADINGS =
  /^(name ?servers?|domain servers in listed order|name servers information|nameservers in listed order|dns servers?|domain nameservers|relevant dates|registrar|registrant|holder|status)$/i;

/** Keys that start a contact-like object whose generic `Name:` lines belong to it. */
const SECTION_KEYS = [
  'registrar',
  'registrant',
  'holder',
  'domain registrant',
  'administrative contact',
  'technical contact',
  'admin contact',
  'tech contact',
  'billing contact',
];

/**
 * Keys that open a new RPSL/FRED object (RFC 2622 class attributes as registries print them:
 * RIPE `person`/`role`/`nic-hdl`, AFNIC `nic-hdl`, registro.br `nic-hdl-br`, FRED and NIC
 * Argentina `contact`). FRED's `nsset:` and `keyset:` are left out: the domain object itself
 * names its nsset with that key (.cz, .cr, .tz).
 */
const OBJECT_KEYS = ['contact', 'nic hdl', 'nic hdl br', 'person', 'role'];

/** A key of SECTION_KEYS. */
const SECTION = 1;
/** A key of OBJECT_KEYS. */
const OBJECT = 2;
/**
 * Both lists by key, as bits: one lookup per `key: value` line where there were two (with the
 * parser's, four lookups of a new string were a tenth of an answer of distinct keys).
 */
const KEY_ROLES = new Map<string, number>([
  ...SECTION_KEYS.map((key) => [key, SECTION] as const),
  ...OBJECT_KEYS.map((key) => [key, OBJECT] as const),
]);

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
  const form = keyForm(key);
  return form === OTHER_KEY ? normaliseMarkedKey(key.toLowerCase()) : simpleKey(key, form);
}

/** How a key is written, as far as `normaliseKey` cares (see KeyValue). */
type KeyForm = 0 | 1 | 2 | 3;
/** Anything but words of ASCII letters and digits separated by single spaces. */
const OTHER_KEY = 0;
/** Such words, all lower case. */
const LOWER_WORDS = 1;
/** Such words, some letters upper case. */
const WORDS = 2;
/** Not known: `keyForm` tells. */
const UNKNOWN_FORM = 3;

/** The KeyForm of `key`, by character codes. */
function keyForm(key: string): KeyForm {
  const length = key.length;
  let upper = false;
  for (let i = 0; i < length; i++) {
    const ch = key.charCodeAt(i);
    if ((ch >= 0x61 && ch <= 0x7a) || (ch >= 0x30 && ch <= 0x39)) continue;
    if (ch >= 0x41 && ch <= 0x5a) upper = true;
    else if (ch !== 0x20 || i === 0 || i === length - 1 || key.charCodeAt(i - 1) === 0x20) {
      return OTHER_KEY;
    }
  }
  return length === 0 ? OTHER_KEY : upper ? WORDS : LOWER_WORDS;
}

/** `normaliseKey` of a key of words (LOWER_WORDS or WORDS). */
function simpleKey(key: string, form: KeyForm): string {
  const length = key.length;
  const lower = form === WORDS ? key.toLowerCase() : key;
  if (length >= 3 && lower.charCodeAt(length - 3) === 0x20) {
    const a = lower.charCodeAt(length - 2);
    const b = lower.charCodeAt(length - 1);
    if ((a === 0x6f && b === 0x6e) || (a === 0x61 && b === 0x74)) return lower.slice(0, -3); // on, at
  }
  return lower;
}

/**
 * The rest of `normaliseKey`, in one pass where it was a chain of five patterns (a quarter of
 * the time of an answer of thousands of distinct keys with marks; test: whois-lines.test.ts
 * holds it to that chain): `(…)` of up to 40 characters → " ", then leading whitespace, `*`,
 * `-`, `•`, `>` dropped, then runs of whitespace, `_`, `-` → " ", then trailing `.`, `:` and
 * spaces dropped, then a final " on" / " at", then `trim()`.
 *
 * The kept runs of characters are noted by position and the answer made from them at the end,
 * one slice per run: building it as the runs were found (and slicing off what the end trims)
 * made twice as many short strings (an answer of distinct keys with marks: 7–11 % less time,
 * same-process A/B beside the yardstick, bench/parsers). Working on the key as it is and
 * lower-casing only the answer was tried too: the key is a slice of its line, slower to read
 * character by character than the lower-cased copy, and it gained nothing.
 */
function normaliseMarkedKey(lower: string): string {
  // Room for every run: one per two characters at most.
  if (runStarts.length * 2 < lower.length + 1) {
    runStarts = new Int32Array(lower.length);
    runEnds = new Int32Array(lower.length);
  }
  const starts = runStarts;
  const ends = runEnds;
  let runs = 0;
  /** Where the run of characters being kept started, or -1. */
  let run = -1;
  let leading = true;
  /** A space is due before the next run. */
  let space = false;
  /** The first run came after a space (a "_" or "(…)" before it): see " on" in `joinRuns`. */
  let spaceFirst = false;
  /** The first ")" after the last "(" looked at, or -1 when none is left. */
  let close = 0;
  for (let i = 0; i < lower.length; i++) {
    const ch = lower.charCodeAt(i);
    let next = i;
    if (ch === 0x28 && close !== -1) {
      // "(" … ")" with at most 40 characters between them is one space.
      if (close <= i) close = lower.indexOf(')', i + 1);
      if (close !== -1 && close - i - 1 <= 40) next = close;
    }
    const blank = next !== i || isSpaceCode(ch);
    if (leading && (blank || ch === 0x2a || ch === 0x2d || ch === 0x2022 || ch === 0x3e)) {
      i = next;
      continue;
    }
    leading = false;
    if (blank || ch === 0x5f || ch === 0x2d) {
      if (run !== -1) {
        starts[runs] = run;
        ends[runs++] = i;
      }
      run = -1;
      space = true;
      i = next;
      continue;
    }
    if (run === -1) {
      if (runs === 0) spaceFirst = space;
      run = i;
    }
  }
  if (run !== -1) {
    starts[runs] = run;
    ends[runs++] = lower.length;
  }
  return joinRuns(lower, starts, ends, runs, spaceFirst);
}

/** Scratch for the runs of one key (see `normaliseMarkedKey`), grown for a longer key. */
let runStarts = new Int32Array(64);
let runEnds = new Int32Array(64);

/**
 * The answer from `count` runs of `lower`: trailing `.` and `:` dropped (a run left empty goes,
 * with the space before it), then a final " on" / " at" (a last run "on" or "at" after a
 * space), the runs joined by single spaces.
 */
function joinRuns(
  lower: string,
  starts: Int32Array,
  ends: Int32Array,
  count: number,
  spaceFirst: boolean,
): string {
  let runs = count;
  while (runs > 0) {
    const start = starts[runs - 1] as number;
    let end = ends[runs - 1] as number;
    for (let ch = lower.charCodeAt(end - 1); end > start && (ch === 0x2e || ch === 0x3a); ) {
      ch = lower.charCodeAt(--end - 1);
    }
    if (end > start) {
      ends[runs - 1] = end;
      break;
    }
    runs--;
  }
  if (runs > 1 || (runs === 1 && spaceFirst)) {
    const start = starts[runs - 1] as number;
    if ((ends[runs - 1] as number) - start === 2) {
      const a = lower.charCodeAt(start);
      const b = lower.charCodeAt(start + 1);
      if ((a === 0x6f && b === 0x6e) || (a === 0x61 && b === 0x74)) runs--; // on, at
    }
  }
  if (runs === 0) return '';
  // The decoder costs more than the slices up to about ten runs (same process, with the
  // lookup that follows: 5 runs 990 against 885 ns, 12 runs 947 against 1,430).
  if (runs > 10) {
    const joined = joinedRuns(lower, starts, ends, runs);
    if (joined !== undefined) return joined;
  }
  let out = lower.slice(starts[0] as number, ends[0] as number);
  for (let r = 1; r < runs; r++) out += ` ${lower.slice(starts[r] as number, ends[r] as number)}`;
  return out;
}

/**
 * The runs joined by single spaces as one string made at once, or undefined when a run holds
 * half of a surrogate pair (the decoder would replace it). A slice and a concatenation per run
 * cost ~95 ns a run, and the many-piece string is copied again when first looked up: a key of 40
 * one-letter words took ~3.4 µs, made this way ~1.3 µs (same process, with its lookup).
 */
function joinedRuns(
  lower: string,
  starts: Int32Array,
  ends: Int32Array,
  runs: number,
): string | undefined {
  if (units.length < lower.length) units = new Uint16Array(lower.length);
  const out = units;
  let length = 0;
  let surrogates = 0;
  for (let r = 0; r < runs; r++) {
    if (r > 0) out[length++] = 0x20;
    for (let i = starts[r] as number; i < (ends[r] as number); i++) {
      const ch = lower.charCodeAt(i);
      surrogates |= (ch & 0xf800) === 0xd800 ? 1 : 0;
      out[length++] = ch;
    }
  }
  return surrogates === 0 ? UTF16.decode(out.subarray(0, length)) : undefined;
}

/** Scratch for `joinedRuns`, grown for a longer key. */
let units = new Uint16Array(128);
const UTF16 = new TextDecoder('utf-16le');

/** `Nome de domínio / Domain Name` (.pt): every language's label names the same field. */
function keyAlternatives(key: string, known: KeyForm): string[] {
  // A key of words and single spaces holds no " / ": the search for it, a call into the
  // runtime per key, was a tenth of the time of an answer of thousands of distinct keys
  // (bench/parsers). `plainKeyValue` tells the form as it reads the key.
  const form = known === UNKNOWN_FORM ? keyForm(key) : known;
  if (form !== OTHER_KEY) return [simpleKey(key, form)];
  return key.includes(' / ')
    ? key.split(/ +\/ +/).map(normaliseKey)
    : [normaliseMarkedKey(key.toLowerCase())];
}

/**
 * A comment line, trimmed: `%`, `#`, `>>>`, `--`, rules under headings and around banners,
 * "* Please note … *" boxed banners (.it), JPRS `[ … ]` banners. One pattern, one test per
 * line (the line starts with a letter most of the time).
 */
const COMMENT = /^(?:%|#|>>>|--|[-=_*~]{3,}$|\*.*\*$|\[ .* \]$|\[\s*\]$)/;
/** Classes of ASCII characters by code, as bits: a table read instead of a set lookup per line. */
const CHARS = new Uint8Array(128);
/** A character a COMMENT can start with. */
const COMMENT_START = 1;
/** A character of a rule (`[-=_*~]{3,}$`); a rule and a box (`\*.*\*$`) end with one. */
const RULE = 2;
/** A first letter (lower case) of the BARE_HEADINGS: n, d, r, h, s. */
const HEADING_START = 4;
for (const [chars, bit] of [
  ['%#>-=_*~[', COMMENT_START],
  ['-=_*~', RULE],
  ['ndrhs', HEADING_START],
] as const) {
  for (const ch of chars) {
    const code = ch.charCodeAt(0);
    CHARS[code] = (CHARS[code] as number) | bit;
  }
}
/** Whether character code `ch` (NaN past the end) is in class `bit`. */
const isA = (ch: number, bit: number) => ch < 128 && ((CHARS[ch] as number) & bit) !== 0;

/**
 * Whether COMMENT can match `content`, whose first character is `c0`: a line that starts like
 * a rule or a box but does not end like one (`** Key: value`, .tr) can only be `--…`. A filter
 * before the pattern, which scanned such lines to their end and back.
 */
function maybeComment(content: string, c0: number): boolean {
  if (!isA(c0, RULE)) return isA(c0, COMMENT_START);
  if (c0 === 0x2d && content.charCodeAt(1) === 0x2d) return true;
  return isA(content.charCodeAt(content.length - 1), RULE);
}

/** Whether a trimmed, non-empty line is a comment (COMMENT). */
export function isCommentLine(content: string): boolean {
  return maybeComment(content, content.charCodeAt(0)) && COMMENT.test(content);
}

function indentOf(line: string): number {
  let width = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === ' ') width += 1;
    else if (ch === '\t') width += 8;
    else break;
  }
  return width;
}

/** A host name followed by more text: "pdns6.example.co.uk  192.0.2.1  2001:db8::1". */
const HOST_THEN_TEXT = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+\.?\s/i;
/** `[a-z0-9-]` with /i, by character code. */
const isHostChar = (ch: number) =>
  ((ch | 0x20) >= 0x61 && (ch | 0x20) <= 0x7a) || (ch >= 0x30 && ch <= 0x39) || ch === 0x2d;

/**
 * JWhoisServer (zero-sys.net, used by .dz): "Nom de domaine#. . . . . .example.dz", the key ends
 * at `#` and dot leaders run up to the value.
 */
const HASH_LEADERS = /^([^#:]{1,60}?)\s*#[ .]{2,}(.*)$/;

/** ":" (Key: value, dot leaders), "[" (JPRS), "#" (hash leaders), tab (tabbed). */
const KEY_MARKS = /[:[#\t]/;

/** A `key: value` line's two parts. */
export interface KeyValue {
  key: string;
  value: string;
  /** The key's KeyForm when the reader saw it (it reads every character), else UNKNOWN_FORM. */
  form: KeyForm;
}

/** `key: value` in one of the supported layouts, or undefined. */
export function splitKeyValue(content: string): KeyValue | undefined {
  const plain = plainKeyValue(content);
  const kv = plain === undefined ? patternKeyValue(content) : (plain ?? undefined);
  return kv === undefined ? undefined : withoutValueLeaders(kv);
}

/**
 * JWhoisServer (.tg, .tn): "Domain:.............example.tg", dot leaders after the colon up to
 * the value's column. Two or more dots at the start of a value are leaders (no value starts so);
 * one dot is kept (".tn" in a banner's "Supported ccTLDs : .tn").
 */
function withoutValueLeaders(kv: KeyValue): KeyValue {
  const value = kv.value;
  if (value.charCodeAt(0) !== 0x2e || value.charCodeAt(1) !== 0x2e) return kv;
  let start = 2;
  while (value.charCodeAt(start) === 0x2e) start++;
  return { ...kv, value: value.slice(start).trim() };
}

/**
 * The usual line, `Key words: value`, in one pass over the key: what `splitKeyValue` finds for
 * a line whose text before its first colon holds no control character (a tab) or `..`, nor a
 * `[` or `#` where the bracketed or hash-leader layout could read it,
 * or undefined to leave the line to the patterns. Such a key holds none of the marks of the
 * bracketed, dot-leader and hash-leader layouts, so COLON's answer is the answer: the key up
 * to the colon without the spaces before it, when it is 1–80 characters, not a time or URL
 * scheme and not a host name followed by more text, the colon not followed by `//`, and no line
 * terminator in the value (COLON's `.`); null for a line that holds none of the marks any
 * layout needs. The patterns took ~40 % of the time of an answer of thousands of distinct lines.
 */
export function plainKeyValue(content: string): KeyValue | null | undefined {
  let keyEnd = 0;
  let colon = 0;
  let digits = true;
  let dot = false;
  /** Words of ASCII letters and digits, single spaces between them (KeyForm), so far. */
  let words = true;
  /** A "#" was seen. */
  let hash = false;
  let upper = false;
  for (; colon < content.length; colon++) {
    const ch = content.charCodeAt(colon);
    if (ch === 0x3a) break; // ":"
    if (ch === 0x20) continue;
    if (ch > 0x7e) {
      // Any other character is part of the key, and non-ASCII whitespace is as a space (COLON's
      // `[^:\t]` and `\s*`). These keys went to the patterns, 8 times as slow per MiB as V8's
      // `JSON.parse` on keys of Cyrillic words with marks (bench/parsers).
      words = false;
      if (isSpaceCode(ch)) continue;
      digits = false;
      keyEnd = colon + 1;
      continue;
    }
    // Other whitespace and controls (a tab: TABBED): patterns.
    if (ch < 0x21) return undefined;
    // "[" and "#", the marks of the bracketed and hash-leader layouts: patterns where these
    // can match, else part of the key (a key with a "[" inside went through every pattern,
    // 6 times as slow per MiB as V8's `JSON.parse`, bench/parsers). BRACKETED needs the "["
    // at the start (`bracketCanStart`); HASH_LEADERS needs its first "#" followed by two of
    // " " and ".".
    if (ch === 0x5b && bracketCanStart(content)) return undefined;
    if (ch === 0x23 && !hash) {
      hash = true;
      if (isLeader(content.charCodeAt(colon + 1)) && isLeader(content.charCodeAt(colon + 2))) {
        return undefined;
      }
    }
    if (ch === 0x2e) {
      // ".." may be dot leaders
      if (colon > 0 && content.charCodeAt(colon - 1) === 0x2e) return undefined;
      dot = true;
    }
    // (keyEnd < colon: a space since the last character of the key)
    if (ch < 0x30 || ch > 0x39 || keyEnd < colon) digits = false;
    if (ch >= 0x41 && ch <= 0x5a) upper = true;
    else if (!((ch >= 0x61 && ch <= 0x7a) || (ch >= 0x30 && ch <= 0x39))) words = false;
    if (colon - keyEnd > 1) words = false; // two spaces
    keyEnd = colon + 1;
  }
  // No colon, tab, "[" or "#" at all: no layout can read a key (KEY_MARKS), as for most bare
  // lines (null rather than undefined: the patterns need not look).
  if (colon === content.length) return null;
  if (keyEnd === 0 || keyEnd > 80) return undefined;
  if (content.charCodeAt(colon + 1) === 0x2f && content.charCodeAt(colon + 2) === 0x2f) {
    return undefined; // "https://…"
  }
  const key = content.slice(0, keyEnd);
  // NOT_A_KEY: a time's hours (only digits), or a URL scheme.
  if (digits || (keyEnd <= 5 && NOT_A_KEY.test(key))) return undefined;
  // (HOST_THEN_TEXT starts with a host-name character: a key that does not skips the pattern.)
  if (dot && isHostChar(key.charCodeAt(0)) && HOST_THEN_TEXT.test(key)) return undefined;
  // The value, trimmed, in one slice; none with a line terminator (what COLON's `.` does not
  // match, ECMA-262 §22.2.2.9): one pass over it for both.
  let start = colon + 1;
  let end = content.length;
  for (let i = start; i < end; i++) {
    const ch = content.charCodeAt(i);
    if (ch === 0x0a || ch === 0x0d || ch === 0x2028 || ch === 0x2029) return undefined;
  }
  while (start < end && isSpaceCode(content.charCodeAt(start))) start++;
  while (end > start && isSpaceCode(content.charCodeAt(end - 1))) end--;
  const form = words ? (upper ? WORDS : LOWER_WORDS) : OTHER_KEY;
  return { key, value: content.slice(start, end), form };
}

/** `splitKeyValue` for the lines `plainKeyValue` leaves. */
export function patternKeyValue(content: string): KeyValue | undefined {
  // Every layout below needs one of these marks: most bare lines (headings, name servers under
  // a heading, banners) have none and leave after one scan.
  if (!KEY_MARKS.test(content)) return undefined;
  let m: RegExpExecArray | null;
  // The first three layouts are tried only when one of their marks ("[", "..", "#") is in the
  // line, and the other two when theirs is: most lines are "Key: value", and trying every
  // pattern on every line was a large part of the time of a long answer.
  if (RARE_MARKS.test(content)) {
    // JPRS: "[Domain Name]   EXAMPLE.JP", "a. [Domain Name]   EXAMPLE.JP"; MYNIC "a [Domain Name]"
    m = bracketCanStart(content) ? BRACKETED.exec(content) : null;
    if (m) return { key: m[1] as string, value: (m[2] as string).trim(), form: UNKNOWN_FORM };
    // .fi / .kz: "created............: 15.12.2015"
    m = dotLeadersFit(content) ? DOT_LEADERS.exec(content) : null;
    if (m) return { key: m[1] as string, value: (m[2] as string).trim(), form: UNKNOWN_FORM };
    // Before "Key: value": the value may hold a time ("…#. . . .10/01/2007 12:00:00").
    m = content.includes('#') ? HASH_LEADERS.exec(content) : null;
    if (m) return { key: m[1] as string, value: (m[2] as string).trim(), form: UNKNOWN_FORM };
  }
  // "Key: value" (the key must not be the start of a URL or a time, nor a host name followed
  // by addresses whose IPv6 colons would make it look like a key)
  m = COLON.exec(content);
  if (
    m &&
    !NOT_A_KEY.test(m[1] as string) &&
    !((m[1] as string).includes('.') && HOST_THEN_TEXT.test(m[1] as string))
  ) {
    return { key: m[1] as string, value: (m[2] as string).trim(), form: UNKNOWN_FORM };
  }
  // .ch: "Registrar<TAB>MarkMonitor"
  m = content.includes('\t') ? TABBED.exec(content) : null;
  // …but "ns2.example.ch<TAB>192.0.2.1" under a heading is a value, not a key.
  if (m && !HOST_NAME.test(m[1] as string))
    return { key: m[1] as string, value: (m[2] as string).trim(), form: UNKNOWN_FORM };
  return undefined;
}

/** `[ .]`, what HASH_LEADERS's leaders are made of. */
const isLeader = (ch: number) => ch === 0x20 || ch === 0x2e;

/**
 * Whether BRACKETED can match at the start of `content`: a `[`, or a letter then `.` or
 * whitespace (`[a-z]` with /i and without /u is the ASCII letters). With the test for `#` before
 * HASH_LEADERS, the patterns no longer run over a long key that holds a `[` elsewhere (5.6 times
 * the yardstick per MiB, bench/parsers).
 */
function bracketCanStart(content: string): boolean {
  const c0 = content.charCodeAt(0);
  if (c0 === 0x5b) return true;
  const c1 = content.charCodeAt(1);
  return (c0 | 0x20) >= 0x61 && (c0 | 0x20) <= 0x7a && (c1 === 0x2e || isSpaceCode(c1));
}

/** A mark one of the bracketed, dot-leader and hash-leader layouts needs. */
const RARE_MARKS = /[[#]|\.\./;
const BRACKETED = /^(?:[a-z](?:\.\s*|\s+))?\[([^\]]{1,60})\]\s*(.*)$/i;
const DOT_LEADERS = /^([^:]{1,60}?)\s*\.{2,}\s*:\s*(.*)$/;
const SPACE = /\s/;

/**
 * False when DOT_LEADERS cannot match `content`: the colon it reaches is the first one (no key
 * or leader holds one), and the whitespace, two or more dots and whitespace before it must
 * start within the key's 60 characters. Without this test the pattern ran its leaders for each
 * of the 60 key lengths over a long line of dots (150 ms/MiB); the test itself is one pass.
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
const COLON = /^([^:\t]{1,80}?)\s*:(?!\/\/)\s*(.*)$/;
const TABBED = /^([^\t]{1,40}?)\t+(.+)$/;
/** Before a colon, the start of a time ("12:30") or of a URL ("https://"). */
const NOT_A_KEY = /^(?:\d+|https?|ftp)$/i;
const HOST_NAME = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** The entries read so far, and the object the next one goes into. */
interface Collector {
  entries: WhoisEntry[];
  /** Whether an entry with this key is kept (see `entriesOfLines`). */
  keep: (key: string) => boolean;
  object: number;
  /** Entries pushed into the current object (an object key at its top opens no new one). */
  inObject: number;
  /** `keyAlternatives` of each key seen (see `keysOf`), while `keyHits` says they repeat. */
  keys: Map<string, string[]> | undefined;
  keyHits: number;
  /** The facts of each line seen (see `factsOf`), while `lineHits` says they repeat. */
  lines: Map<string, LineFacts> | undefined;
  lineHits: number;
  /** The facts of the last lines read by index, one slot per parity (see `factsAt`). */
  recent: LineFacts[];
  recentIndex: number[];
}

/** What a line says on its own, wherever it stands. */
interface LineFacts {
  /** The line without its leading and trailing whitespace; "" for a blank line. */
  content: string;
  comment: boolean;
  indent: number;
  kv: KeyValue | undefined;
  /** `SENTENCE` matched on the line. */
  sentence: RegExpExecArray | null;
  /** `DOMAIN_TITLE` matched on a line that is not `key: value`. */
  title: RegExpExecArray | null;
  /** A line that is not `key: value` and is one of `BARE_HEADINGS`. */
  heading: boolean;
}

/**
 * The facts of `line`, worked out once per distinct line of an answer (up to `CACHED` of
 * them): rules, banners and fields recur, and an answer of thousands of copies of a few lines
 * spent most of its time here before the code is optimised (halved; test/adversarial times
 * such a cold run against a warm one).
 */
function factsOf(c: Collector, line: string): LineFacts {
  let facts = c.lines?.get(line);
  if (facts === undefined) {
    const content = line.trim();
    // Each pattern below is tried only when the line's first character can start a match
    // (they are anchored; /i without /u folds no other character onto these ASCII letters):
    // on answers of thousands of distinct lines they ran on every one of them.
    const c0 = content.charCodeAt(0);
    const letter = c0 | 0x20;
    const comment = content !== '' && isCommentLine(content);
    const analysed = content !== '' && !comment;
    const kv = analysed ? splitKeyValue(content) : undefined;
    const bare = analysed && !kv;
    facts = {
      content,
      comment,
      indent: analysed ? indentOf(line) : 0,
      kv,
      sentence:
        analysed && (letter === 0x72 || letter === 0x63 || letter === 0x65) // r c e
          ? SENTENCE.exec(content)
          : null,
      title: bare && letter === 0x64 ? DOMAIN_TITLE.exec(content) : null, // d
      heading: bare && isA(letter, HEADING_START) && BARE_HEADINGS.test(content),
    };
    if (c.lines) c.lines = remember(c.lines, line, facts, c.lineHits);
  } else {
    c.lineHits++;
  }
  return facts;
}

/**
 * Lines (and keys) remembered per answer: enough for the repeats of a real answer; past it, an
 * answer of thousands of distinct lines is not slowed down by the bookkeeping.
 */
const CACHED = 2048;

/**
 * `cache` with `value` added while it has room; once it is full, undefined (no more lookups)
 * when fewer than one in eight lookups so far found something: on an answer of thousands of
 * distinct lines or keys the lookups were a quarter of the time and never found anything.
 */
function remember<T>(
  cache: Map<string, T>,
  key: string,
  value: T,
  hits: number,
): Map<string, T> | undefined {
  if (cache.size < CACHED) cache.set(key, value);
  else if (hits < CACHED / 8) return undefined;
  return cache;
}

// A function of the module rather than a closure per answer, as is `nextIsDeeper`: optimised
// code checks which closure it calls, and each new answer brought new ones (a deoptimisation
// in the middle of the next long answer).
function push(c: Collector, key: string, value: string, section: string, fromBlock: boolean) {
  if (c.keep(key)) c.entries.push({ key, value, section, object: c.object, fromBlock });
  c.inObject++;
}

/**
 * `keyAlternatives(key)`, worked out once per distinct key of an answer: keys repeat (name
 * servers, statuses, the same fields in every contact block), and the shared strings are also
 * quicker to look up in the sets and maps of whois-parser.ts. This halved the time of an
 * answer of thousands of lines once optimised (bench/parsers).
 */
function keysOf(c: Collector, key: string, form: KeyForm): string[] {
  let keys = c.keys?.get(key);
  if (keys === undefined) {
    keys = keyAlternatives(key, form);
    if (c.keys) c.keys = remember(c.keys, key, keys, c.keyHits);
  } else {
    c.keyHits++;
  }
  return keys;
}

/** One entry per key, with the same value. */
function pushAll(c: Collector, keys: string[], value: string, section: string, fromBlock: boolean) {
  // An index loop: `for…of` allocates an iterator result per key until the code is optimised.
  for (let i = 0; i < keys.length; i++) push(c, keys[i] as string, value, section, fromBlock);
}

/**
 * The lines of a text (split at "\n"), cut out one at a time when asked for: where
 * `text.split('\n')` made every line at once and kept them all alive through the parse, an
 * answer of tens of thousands of short lines had the garbage collector copy them from scan to
 * scan (a fifth of its time, with the split itself another fifth; bench/parsers).
 */
export class Lines {
  /** Where each line starts, and one more: the end of the text + 1. */
  private readonly starts: number[];
  readonly length: number;

  constructor(readonly text: string) {
    this.starts = lineStarts(text);
    this.length = this.starts.length - 1;
  }

  /** Line `index` (0 ≤ index < length), without its "\n". */
  at(index: number): string {
    return this.text.slice(this.starts[index] as number, (this.starts[index + 1] as number) - 1);
  }

  /** Where line `index` starts in `text`. */
  start(index: number): number {
    return this.starts[index] as number;
  }

  /** Where line `index` ends in `text` (its "\n", or the end). */
  end(index: number): number {
    return (this.starts[index + 1] as number) - 1;
  }
}

/**
 * Where each line of `text` starts, and one more: the end of the text + 1. A function of its
 * own, not the constructor's loop: V8 compiled that loop on the stack while it ran (on-stack
 * replacement), and the code after it, which had never run with type feedback, sent it back to
 * the interpreter on every answer (`--trace-deopt`: once per parse).
 */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    starts.push(at + 1);
  }
  starts.push(text.length + 1);
  return starts;
}

/**
 * `factsOf(lines[index])`, kept for the next two indices: a short line is a possible heading,
 * and looking at the two lines after it worked their facts out again when they were past the
 * cache (three times per line on an answer of distinct short lines).
 */
function factsAt(c: Collector, lines: Lines, index: number): LineFacts {
  const slot = index & 1;
  if (c.recentIndex[slot] === index) return c.recent[slot] as LineFacts;
  const facts = factsOf(c, lines.at(index));
  c.recentIndex[slot] = index;
  c.recent[slot] = facts;
  return facts;
}

/** The next line that is neither blank nor a comment, if it is deeper than `indent`. */
function nextIsDeeper(c: Collector, lines: Lines, index: number, indent: number): boolean {
  for (let j = index + 1; j < lines.length && j <= index + 2; j++) {
    const next = factsAt(c, lines, j);
    if (next.content === '') return false;
    if (next.comment) continue;
    return next.indent > indent;
  }
  return false;
}

/** Splits WHOIS text into entries (see the module comment for the layouts). */
export function whoisEntries(text: string): WhoisEntry[] {
  return entriesOfLines(new Lines(text.replace(/\r\n?/g, '\n').replace(/\0/g, '')));
}

/**
 * `whoisEntries` of the lines of a text without CR or NUL, keeping only the entries
 * whose key `keep` accepts. The lines of the others still count where objects start and end.
 * The parser keeps the ~200 keys it reads: an answer of thousands of distinct keys made an
 * entry per line and an index of all of them (a quarter of its time, with the garbage).
 */
export function entriesOfLines(
  lines: Lines,
  keep: (key: string) => boolean = keepAll,
): WhoisEntry[] {
  // An array that has held an object: a new `[]` is typed for small integers until its first
  // push, where the optimised loop of the previous answer stopped (a deoptimisation).
  const entries: WhoisEntry[] = [PLACEHOLDER];
  entries.length = 0;
  const c: Collector = {
    entries,
    keep,
    object: 0,
    inObject: 0,
    keys: new Map(),
    keyHits: 0,
    lines: new Map(),
    lineHits: 0,
    recent: [NO_FACTS, NO_FACTS],
    recentIndex: [-1, -1],
  };
  collect(lines, c);
  return entries;
}

const keepAll = () => true;
const PLACEHOLDER: WhoisEntry = { key: '', value: '', section: '', object: 0, fromBlock: false };
const NO_FACTS: LineFacts = {
  content: '',
  comment: false,
  indent: 0,
  kv: undefined,
  sentence: null,
  title: null,
  heading: false,
};

// The loop is a function of its own, with nothing before or after it that reads a property or
// builds an object. The optimiser compiles it while it runs on the first long answer, when the
// code around the loop has not run with type feedback yet; such code then cost a
// deoptimisation, and ~80 ms of compiling again, on the next answer.
function collect(lines: Lines, c: Collector): void {
  let block: { key: string; indent: number; count: number } | undefined;
  /** The keys of the last `key: value` line: deeper bare lines continue its value (.kz). */
  let continuedKeys: string[] | undefined;
  let continuedIndent = 0;
  let section = '';
  let sawBlank = false;

  for (let index = 0; index < lines.length; index++) {
    const facts = factsAt(c, lines, index);
    const content = facts.content;
    if (content === '') {
      sawBlank = true;
      // A name-server heading immediately followed by a blank line (.hk, .kg, .uy) keeps
      // waiting for its values; any other heading ends, so "Registrar:" before a disclaimer
      // stays empty. (`block.count` as a truth value, not `> 0`: the blank line may be the last
      // line of a long answer, and a comparison that had never run until then sent the
      // optimised code of this function back to the start, at ~80 ms to compile again.)
      if (block && (block.count || !isNameServerKey(block.key))) block = undefined;
      continue;
    }
    if (sawBlank) {
      if (c.inObject > 0) c.object++;
      c.inObject = 0;
      sawBlank = false;
      if (!block) section = '';
    }
    if (facts.comment) continue;
    const indent = facts.indent;
    const kv = facts.kv;

    if (continuedKeys) {
      const isValue = indent > continuedIndent && !kv && !facts.sentence && !facts.heading;
      if (isValue) {
        pushAll(c, continuedKeys, content, section, false);
        continue;
      }
      continuedKeys = undefined;
    }

    if (block) {
      const deeper = indent > block.indent;
      const sentence = facts.sentence;
      if (deeper && sentence) {
        // "Relevant dates:\n    Registered on 30th April 2003" (.gg)
        push(
          c,
          normaliseKey(sentence[1] as string),
          (sentence[2] as string).trim(),
          block.key,
          false,
        );
        block.count++;
        continue;
      }
      if (deeper && !kv) {
        push(c, block.key, content, section, true);
        block.count++;
        continue;
      }
      if (deeper && kv && kv.value === '') {
        // A nested heading (.tw "   Domain servers in listed order:").
        block = { key: headingKey(c, kv), indent, count: 0 };
        section = block.key;
        continue;
      }
      if (deeper && kv) {
        // "Registrar:\n    Name: X" — a sub-entry of the heading.
        pushAll(c, keysOf(c, kv.key, kv.form), kv.value, block.key, false);
        block.count++;
        continue;
      }
      if (!kv && !facts.heading && !facts.sentence) {
        // Bare lines at the heading's own indent (.ch, .hk "Name servers\nns1…").
        push(c, block.key, content, section, true);
        block.count++;
        continue;
      }
      block = undefined;
    }

    const sentence = facts.sentence;
    if (sentence) {
      push(c, normaliseKey(sentence[1] as string), (sentence[2] as string).trim(), section, false);
      continue;
    }
    const title = facts.title;
    if (title) {
      push(c, 'domain', title[1] as string, section, false);
      continue;
    }
    if (kv) {
      const keys = keysOf(c, kv.key, kv.form);
      const key = keys[0] as string;
      const role = KEY_ROLES.get(key);
      if (role === OBJECT && c.inObject > 0) {
        // "contact:" right after the domain object's last line: a new object starts here.
        c.object++;
        c.inObject = 0;
        section = '';
      }
      if (kv.value === '') {
        block = { key: headingKey(c, kv), indent, count: 0 };
        section = block.key;
      } else {
        // "Registrar: MARK-0292" followed by "Name: …" (.sk): the key opens a section too.
        if (role === SECTION) section = key;
        pushAll(c, keys, kv.value, section, false);
        continuedKeys = keys;
        continuedIndent = indent;
      }
      continue;
    }
    // A heading without a colon: a known one, or any short line whose next line is indented
    // deeper (.it "Registrant\n  Organization: …", .kr "Primary Name Server\n   Host Name: …").
    if (facts.heading || (content.length <= 60 && nextIsDeeper(c, lines, index, indent))) {
      const key = normaliseKey(content);
      block = { key, indent, count: 0 };
      section = key;
    }
  }
}

/** A bilingual heading (`Titular / Registrant`) is known by its last, usually English, label. */
function headingKey(c: Collector, kv: KeyValue): string {
  const keys = keysOf(c, kv.key, kv.form);
  return keys[keys.length - 1] as string;
}
