/**
 * Raw WHOIS text → the fields of the SPEC 2.9 record, the same way for every registry:
 * registrar, dates (→ ISO 8601 UTC), name servers (lower case, no trailing dot), status codes
 * (→ RDAP names), plus the referrals needed to walk the chain (`refer:` from IANA,
 * `Registrar WHOIS Server:` from thin registries). Also recognises "not found" and
 * "limit exceeded" answers.
 *
 * The key tables (whois-keys.ts) come from likexian/whois-parser's test data (144 answers, 60 TLD
 * groups), weppos/whois-parser's and richardpenman/whois's (test/fixtures/whois-external) and
 * io-developer/php-whois's (test/fixtures/whois-extra); figures in docs/whois.md.
 * @module
 */
import { toIsoDate } from './dates.js';
import { cutDashTail, replaceUpTo, stripTrailing } from './linear-text.js';
import { normaliseHostName, uniqueNonEmpty } from './rdap-normalise.js';
import { toRdapStatus } from './status.js';
import type { WhoisResult } from './types.js';
import { ADDRESS_KEYS, KEYS, LIMIT_EXCEEDED, NOT_FOUND } from './whois-keys.js';
import { entriesOfLines, isNameServerKey, splitLines, type WhoisEntry } from './whois-lines.js';

/**
 * `refused`: the registry answered that it will not answer this query (a numeric query status
 * such as .nz's "440 Request Denied"): no word about the domain, so neither found nor not found.
 */
export type WhoisOutcome = 'found' | 'not_found' | 'limit_exceeded' | 'refused';

/**
 * The record's fields as one WHOIS answer gives them (`rdap_link` aside), plus what only the
 * referral walk needs: an intermediate shape, not an answer, so it extends the schema's type.
 * Here `domain` is the domain the answer names ("" when absent), and `status` keeps
 * registry-specific words as printed besides the RDAP names (see status.ts).
 */
export interface ParsedWhois extends Omit<WhoisResult, 'rdap_link'> {
  outcome: WhoisOutcome;
  /** `refer:` of an IANA answer: the next server to ask. */
  referral_server: string;
  /** `Registrar WHOIS Server:` of a registry answer. */
  registrar_whois_server: string;
  /** The registry's status line when `outcome` is `refused` ("440 Request Denied"), else "". */
  refusal: string;
}

const LIMIT_EXCEEDED_LINE = new RegExp(
  LIMIT_EXCEEDED.map((re) => `(?:${re.source})`).join('|'),
  'i',
);

/** True for a line that means "no such domain" (NOT_FOUND), comment marks and spaces aside. */
function notFound(line: string): boolean {
  const text = line.replace(/^[\s%#>*]+/, '').trimEnd();
  return NOT_FOUND.some((re) => re.test(text));
}

/** Entries by key, each list in answer order. */
type EntryIndex = Map<string, WhoisEntry[]>;

function indexEntries(entries: readonly WhoisEntry[]): EntryIndex {
  const index: EntryIndex = new Map();
  for (const entry of entries) {
    const list = index.get(entry.key);
    if (list) list.push(entry);
    else index.set(entry.key, [entry]);
  }
  return index;
}

/** The entries with `key`, in answer order. */
const withKey = (index: EntryIndex, key: string): readonly WhoisEntry[] => index.get(key) ?? [];

/** True for an entry of `object`, or of any object when it is not given. */
const inObject = (entry: WhoisEntry, object: number | undefined) =>
  object === undefined || entry.object === object;

/** The lines of an answer that are read: real answers hold 10–150, a hostile one may not. */
export const WHOIS_MAX_LINES = 2048;

/** Parses one WHOIS answer (its first WHOIS_MAX_LINES lines). Never throws. */
export function parseWhoisText(text: string): ParsedWhois {
  const lines = splitLines(text).slice(0, WHOIS_MAX_LINES);
  const entries = entriesOfLines(lines);
  const all = indexEntries(entries);
  const domainEntry = findDomain(all);
  const domain = (domainEntry?.value ?? '').toLowerCase().replace(/\.$/, '');
  // The object naming the domain wins for single-valued fields: RPSL/FRED contact, nsset and
  // registrar objects (.br, .cz, .cr, .fr, .ar) repeat `created:`/`registrar:` with their own.
  const domainObject = domainEntry?.object ?? -1;
  const parsed: ParsedWhois = {
    outcome: 'found',
    domain: /^[\w.-]+$/.test(domain) ? domain : '',
    registrar: readRegistrar(all, domainObject),
    registrar_iana_id: readIanaId(all),
    creation_date: readDate(all, domainObject, KEYS.created),
    expiration_date: readDate(all, domainObject, KEYS.expires),
    last_updated: readDate(all, domainObject, KEYS.updated),
    name_servers: [],
    status: readStatus(entries, all),
    referral_server: serverName(firstValue(all, KEYS.refer)),
    registrar_whois_server: serverName(firstValue(all, KEYS.registrarWhois)),
    refusal: '',
  };
  parsed.name_servers = readNameServers(entries, all, parsed.domain);
  const error = queryError(all);
  parsed.outcome = classify(lines, parsed, error);
  if (parsed.outcome === 'refused') parsed.refusal = error;
  return parsed;
}

/**
 * The entry naming the domain: the first domain key in priority order, or a `name:` line under a
 * `Domain:` heading (.ee: "Domain:\nname: example.ee").
 */
function findDomain(index: EntryIndex): WhoisEntry | undefined {
  const entry = findFirst(index, KEYS.domain, (e) => DOMAIN_VALUE.test(e.value));
  if (entry) return { ...entry, value: firstWord(entry.value) };
  return withKey(index, 'name').find((e) => e.section === 'domain' && e.value !== '');
}

/**
 * A domain name (IANA's `domain: COM` too), or a dotted name followed by more fields on the same
 * line ("example.com.fj<TAB>Status: Active", .fj).
 */
const DOMAIN_VALUE = /^(?:[\w.-]+$|[\w-]+(?:\.[\w-]+)+\.?\s)/;
const firstWord = (value: string) => value.split(/\s/, 1)[0] as string;

function classify(lines: readonly string[], parsed: ParsedWhois, error: string): WhoisOutcome {
  for (let i = 0; i < lines.length; i++) {
    if (notFound(lines[i] as string) && !aboutLinkedObject(lines, i)) return 'not_found';
  }
  // A query status of 4xx/5xx: "not managed by this register" is the domain's absence, any
  // other ("440 Request Denied", "500 Invalid characters in query string") a refusal.
  if (error !== '') return NOT_HERE.test(error) ? 'not_found' : 'refused';
  const hasData =
    parsed.registrar !== '' ||
    parsed.creation_date !== '' ||
    parsed.expiration_date !== '' ||
    parsed.last_updated !== '' ||
    parsed.name_servers.length > 0 ||
    parsed.status.length > 0;
  if (!hasData && lines.some((line) => LIMIT_EXCEEDED_LINE.test(line))) {
    return 'limit_exceeded';
  }
  // An answer that names no registrar, date, server or status describes nothing.
  return hasData || parsed.referral_server !== '' ? 'found' : 'not_found';
}

/**
 * JWhoisServer (.gf, .gp, .mq, .tg, .tn) follows "NO OBJECT FOUND!" with the object it did not
 * find ("type: nameserver"): only "type: domain" says the domain is not there.
 */
function aboutLinkedObject(lines: readonly string[], index: number): boolean {
  if (!/^no object found/i.test((lines[index] as string).replace(/^[\s%#>*]+/, ''))) return false;
  for (let j = index + 1; j < lines.length && j <= index + 2; j++) {
    const type = /^\s*type:[\s.]*(\S+)/i.exec(lines[j] as string);
    if (type) return (type[1] as string).toLowerCase() !== 'domain';
  }
  return false;
}

/**
 * The first status value that is a query result code of 4xx or 5xx (.nz: "440 Request Denied",
 * "510 Domain is not managed by this register"; its 2xx codes are the domain's state), or "".
 */
function queryError(index: EntryIndex): string {
  return findFirst(index, KEYS.status, (e) => QUERY_ERROR.test(e.value))?.value.slice(0, 120) ?? '';
}
const QUERY_ERROR = /^[45]\d\d\s+[a-z]/i;
/** A query error that says the domain is not there, rather than that the query was refused. */
const NOT_HERE = /not managed|no match|not found|not registered|no such domain/i;

/** The first entry, in the priority order of `keys`, that passes `test`. */
function findFirst(index: EntryIndex, keys: readonly string[], test: (e: WhoisEntry) => boolean) {
  for (const key of keys) {
    const entry = withKey(index, key).find(test);
    if (entry) return entry;
  }
  return undefined;
}

function firstValue(index: EntryIndex, keys: readonly string[], object?: number): string {
  return findFirst(index, keys, (e) => e.value !== '' && inObject(e, object))?.value ?? '';
}

/**
 * Values of every key of the list found in the object where the highest-priority key first
 * appears (RPSL contact objects repeat keys such as `status`, and an address line `State: CA`
 * elsewhere must not count), plus the lines under its heading.
 */
function listValues(
  entries: WhoisEntry[],
  index: EntryIndex,
  keys: readonly string[],
  skip: (entry: WhoisEntry) => boolean,
): string[] {
  const listed = new Set(keys);
  const first = findFirst(index, keys, (e) => e.value !== '' && !skip(e));
  if (!first) return [];
  return entries
    .filter(
      (e) =>
        listed.has(e.key) &&
        e.value !== '' &&
        !skip(e) &&
        (e.object === first.object || (e.fromBlock && e.key === first.key)),
    )
    .map((e) => e.value);
}

function readRegistrar(index: EntryIndex, domainObject: number): string {
  // A registrar section: "Registrar:\n  Name: X" (.eu, .ee, .be), "[Registrar]\nName: X" (.lv),
  // "Registrar\n  Organization: X\n  Name: HANDLE" (.it), "Registrar: HANDLE\nName: X" (.sk).
  // After "Registrar: value" only `Name:` overrides: the `org:` there is the registrant's (.by)
  // or the same registrar's (.ua, where the handle is kept).
  const opened = withKey(index, 'registrar').some((e) => e.section === 'registrar');
  const sectionKeys = opened ? ['name'] : ['organization', 'organisation', 'org', 'name'];
  const named = findFirst(index, sectionKeys, (e) => e.section === 'registrar' && e.value !== '');
  const value =
    named?.value ||
    firstValue(index, KEYS.registrar, domainObject) ||
    firstValue(index, KEYS.registrar);
  return cleanRegistrar(value);
}

/**
 * "MarkMonitor Inc. (http://www.markmonitor.com)" → "MarkMonitor Inc."; Nominet's registrar tag
 * "Example Ltd [Tag = EXAMPLE]" → "Example Ltd".
 */
function cleanRegistrar(value: string): string {
  // Only up to the last bracket: both patterns are quadratic on a long line (linear-text.ts).
  const text = replaceUpTo(value, ')', URL_IN_PARENTHESES, '');
  return replaceUpTo(text, ']', REGISTRAR_TAG, '').replace(/\s+/g, ' ').trim();
}

/**
 * `\s*` as `(?:(?<!\s)\s+)?`: the same matches, but a start inside a run of spaces fails at
 * once instead of scanning the run (quadratic on a long line of spaces).
 */
const SPACES_BEFORE = String.raw`(?:(?<!\s)\s+)?`;
const URL_IN_PARENTHESES = /\(\s*(?:https?:\/\/|www\.)[^)]*\)/gi;
const REGISTRAR_TAG = new RegExp(String.raw`${SPACES_BEFORE}\[tag\s*=[^\]]*\]`, 'gi');
const STATUS_URL = new RegExp(String.raw`${SPACES_BEFORE}https?:\/\/\S+`, 'gi');
const STATUS_NOTE = new RegExp(String.raw`${SPACES_BEFORE}\([^)]*\)\s*`, 'g');

function readIanaId(index: EntryIndex): number | null {
  const value = firstValue(index, KEYS.ianaId);
  return /^\d+$/.test(value) ? Number(value) : null;
}

/** The first parseable date of the keys, looked up in the domain's object first. */
function readDate(index: EntryIndex, domainObject: number, keys: readonly string[]) {
  return firstDate(index, keys, domainObject) || firstDate(index, keys);
}

function firstDate(index: EntryIndex, keys: readonly string[], object?: number): string {
  for (const key of keys) {
    let tried = 0;
    for (const entry of withKey(index, key)) {
      if (entry.value === '' || !inObject(entry, object)) continue;
      const value = MONTH_FIRST_KEYS.has(key) ? monthFirst(entry.value) : entry.value;
      const date = toIsoDate(value);
      if (date) return date;
      if (++tried === DATES_TRIED) break;
    }
  }
  return '';
}

/** Keys whose numeric dates put the month first (Freenom: "Record will expire on: 03/02/2012"). */
const MONTH_FIRST_KEYS = new Set(['domain registered', 'record will expire']);

/** "03/02/2012" (month, day, year) → "2012-03-02"; any other text, or a first number past 12, as it is. */
const monthFirst = (value: string) =>
  value.replace(
    /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/,
    (date, month: string, day: string, year: string) =>
      Number(month) <= 12 ? `${year}-${month}-${day}` : date,
  );

/** Values of one key tried as a date: a real answer prints a key's date once per object. */
const DATES_TRIED = 32;

function readNameServers(entries: WhoisEntry[], index: EntryIndex, domain: string): string[] {
  // Every matching entry counts: servers are sometimes split over paragraphs (.kz).
  const keys = new Set([...index.keys()].filter(isNameServerKey));
  const values = new Set(
    entries.filter((e) => e.value !== '' && keys.has(e.key)).map((e) => e.value),
  );
  const hosts = [...values].map((value) => {
    const text = value.replace(/^[-*•]\s+/, ''); // "- ns1.example.com" (.uy, .ve)
    // "example.pt NS ns1.example.net." (.pt prints zone-file records)
    const record = /^\S+\s+(?:IN\s+)?NS\s+(\S+)/i.exec(text);
    // "ns1.example.com 192.0.2.1", "ns1.example.com [OK]", "ns1.example.com - 192.0.2.1"
    const first = record ? (record[1] as string) : (text.split(/[\s,]+/)[0] ?? '');
    return normaliseHostName(first);
  });
  return uniqueNonEmpty(hosts.filter((h) => isNameServerHost(h) && h !== domain));
}

/**
 * A host name (RFC 1123 §2.1: LDH labels of up to 63 characters, a top label not all digits)
 * that is not a placeholder for an empty slot: "not.defined" (.uz), "no.nameserver".
 */
function isNameServerHost(host: string): boolean {
  if (host.length > 253 || !HOST_LABELS.test(host)) return false;
  const labels = host.split('.');
  if (/^\d+$/.test(labels[labels.length - 1] as string)) return false;
  return !labels.every((label) => PLACEHOLDER_LABELS.has(label));
}
const HOST_LABELS =
  /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
/** Words a placeholder name server is made of. */
const PLACEHOLDER_LABELS = new Set([
  'not',
  'no',
  'none',
  'null',
  'nil',
  'defined',
  'undefined',
  'unknown',
  'nameserver',
  'nameservers',
  'available',
  'set',
  'empty',
]);

function readStatus(entries: WhoisEntry[], index: EntryIndex): string[] {
  // A `State:` under the same heading as an address line is the contact's (Freenom, .mx, .ai).
  const place = (e: WhoisEntry) => `${e.object} ${e.section}`;
  const addresses = new Set(ADDRESS_KEYS.flatMap((key) => withKey(index, key).map(place)));
  const isAddress = (e: WhoisEntry) => e.key === 'state' && addresses.has(place(e));
  const values = new Set(listValues(entries, index, KEYS.status, isAddress));
  const out: string[] = [];
  let read = 0;
  for (const value of values) {
    if (read++ === STATUS_VALUES) break;
    for (const token of value.split(/,\s*/)) {
      // "ok https://icann.org/epp#ok", "Connected (2024/03/31)", "ok - Normal state." (in
      // linear time, linear-text.ts), then .nz "200 Active": a query code, then the state.
      const cleaned = cutDashTail(
        replaceUpTo(token.replace(STATUS_URL, ''), ')', STATUS_NOTE, ' ', true),
      )
        .replace(/^\d{3}\s+(?=\D)/, '')
        .trim();
      if (cleaned) out.push(toRdapStatus(cleaned));
    }
  }
  return uniqueNonEmpty(out);
}

/** Distinct status values read: EPP defines 17 statuses (RFC 5731 §2.3). */
const STATUS_VALUES = 64;

/** `whois.example.net`, `whois://whois.example.net`, `host:port` → `host[:port]`; else "". */
export function serverName(value: string): string {
  const trimmed = value.trim().replace(/^r?whois:\/\//i, '');
  // Not `/\/+$/`: quadratic on a long run of slashes.
  const text = stripTrailing(trimmed, '/');
  if (/^\[[0-9a-f:.]+\](?::\d{1,5})?$/i.test(text)) return text.toLowerCase();
  return /^[a-z0-9.-]+\.[a-z0-9-]+(?::\d{1,5})?$/i.test(text) ||
    /^\d{1,3}(\.\d{1,3}){3}(?::\d{1,5})?$/.test(text)
    ? text.toLowerCase()
    : '';
}
