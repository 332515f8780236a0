/**
 * Raw WHOIS text → the fields of the SPEC 2.9 record, the same way for every registry:
 * registrar, dates (→ ISO 8601 UTC), name servers (lower case, no trailing dot), status codes
 * (→ RDAP names), plus the referrals needed to walk the chain (`refer:` from IANA,
 * `Registrar WHOIS Server:` from thin registries). Also recognises "not found" and
 * "limit exceeded" answers.
 *
 * The key tables below come from the layouts in likexian/whois-parser's test data (144 real
 * answers over 60 TLD groups; see docs/whois.md for the conformance figure).
 * @module
 */
import { toIsoDate } from './dates.js';
import { normaliseHostName, uniqueNonEmpty } from './rdap-normalise.js';
import { toRdapStatus } from './status.js';
import { type WhoisEntry, whoisEntries } from './whois-lines.js';

export type WhoisOutcome = 'found' | 'not_found' | 'limit_exceeded';

export interface ParsedWhois {
  outcome: WhoisOutcome;
  /** The domain named by the answer ("" when absent), lower case. */
  domain: string;
  registrar: string;
  registrar_iana_id: number | null;
  creation_date: string;
  expiration_date: string;
  last_updated: string;
  name_servers: string[];
  /** RDAP status names (see status.ts); registry-specific words as printed. */
  status: string[];
  /** `refer:` of an IANA answer: the next server to ask. */
  referral_server: string;
  /** `Registrar WHOIS Server:` of a registry answer. */
  registrar_whois_server: string;
}

/** Keys per field, in priority order (normalised: lower case, single spaces). */
const KEYS = {
  domain: ['domain name', 'domain', 'domain name (ascii)', 'domainname', 'query'],
  registrar: [
    'registrar name',
    'sponsoring registrar',
    'registrar organization',
    'registrar',
    'current registrar',
    'current registar', // sic, .kz
    'registration service provider',
  ],
  ianaId: ['registrar iana id', 'sponsoring registrar iana id', 'registrar iana'],
  created: [
    'creation date',
    'created date',
    'created on',
    'created',
    'registration date',
    'registration time',
    'registered date',
    'registered on',
    'registered',
    'domain registration date',
    'domain record activated',
    'domain created',
    'first registration date',
    'domain name commencement date',
    'record created',
    'domain datecreated',
    'activated',
  ],
  expires: [
    'registry expiry date',
    'registrar registration expiration date',
    'expiration date',
    'expiry date',
    'expires on',
    'expires',
    'expire-date',
    'expire date',
    'expiration time',
    'paid-till',
    'valid until',
    'domain expires',
    'record expires',
    'renewal date',
    'domain datebilleduntil',
    'expire',
  ],
  updated: [
    'updated date',
    'last updated',
    'last update',
    'last modified',
    'last-update',
    'last-updated',
    'update date',
    'modification date',
    'modified',
    'changed',
    'domain record last updated',
    'domain datelastmodified',
    'record last updated',
    'updated',
  ],
  nameServers: [
    'name server',
    'name servers',
    'nameserver',
    'nameservers',
    'nserver',
    'hostname',
    'dns',
    'domain servers in listed order',
    'domain nameservers',
    'name servers information',
    'nameservers in listed order',
    'dns servers',
    'primary server',
    'secondary server',
  ],
  status: ['domain status', 'status', 'state', 'query status', 'registration status', 'epp status'],
  refer: ['refer'],
  registrarWhois: ['registrar whois server', 'whois server', 'referralserver'],
};

/** Lines that mean "no such domain" (matched per line, after comment markers are removed). */
const NOT_FOUND = [
  /^no match\b/i,
  /^no matching record/i,
  /^not found\b/i,
  /^no data found/i,
  /^no found$/i,
  /^no entries found/i,
  /^no object found/i,
  /^domain not found/i,
  /^object does not exist/i,
  /^the queried object does not exist/i,
  /^the domain (?:name )?(?:is not|has not been) registered/i,
  /^this domain name has not been registered/i,
  /^domain status:\s*(?:no object found|available|free)\b/i,
  /^status:\s*(?:available|free|not registered)\b/i,
  /^query_status:\s*220\b/i, // .nz: 220 = available
  /^%?error:101: no entries found/i,
  /^no information available about domain name/i,
  /^nincs talalat/i,
  /^domain "[^"]+" not found/i,
  /^invalid query or domain name not known/i,
  /^>*\s*domain \S+ is available for registration/i,
  /^reserved domain name/i,
  /^this (?:platinum |premium )?domain is available for purchase/i,
  /^this query returned 0 objects/i,
  /^상기 도메인이름은 등록되어 있지 않습니다/, // .kr: "the domain name is not registered"
];

const LIMIT_EXCEEDED = [
  /limit exceeded/i,
  /exceeded (?:the|your) (?:query|request)? ?(?:limit|quota)/i,
  /too many (?:queries|requests)/i,
  /query rate (?:limit|exceeded)/i,
  /please try again later/i,
];

/** Parses one WHOIS answer. Never throws; unknown values keep their type. */
export function parseWhoisText(text: string): ParsedWhois {
  const entries = whoisEntries(text);
  const domain = firstValue(entries, KEYS.domain).toLowerCase().replace(/\.$/, '');
  const parsed: ParsedWhois = {
    outcome: 'found',
    domain: /^[\w.-]+$/.test(domain) ? domain : '',
    registrar: readRegistrar(entries),
    registrar_iana_id: readIanaId(entries),
    creation_date: readDate(entries, KEYS.created),
    expiration_date: readDate(entries, KEYS.expires),
    last_updated: readDate(entries, KEYS.updated),
    name_servers: [],
    status: readStatus(entries),
    referral_server: serverName(firstValue(entries, KEYS.refer)),
    registrar_whois_server: serverName(firstValue(entries, KEYS.registrarWhois)),
  };
  parsed.name_servers = readNameServers(entries, parsed.domain);
  parsed.outcome = classify(text, parsed);
  return parsed;
}

function classify(text: string, parsed: ParsedWhois): WhoisOutcome {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/^[\s%#>*]+/, '').trim())
    .filter(Boolean);
  if (lines.some((line) => NOT_FOUND.some((re) => re.test(line)))) return 'not_found';
  const hasData =
    parsed.registrar !== '' ||
    parsed.creation_date !== '' ||
    parsed.expiration_date !== '' ||
    parsed.last_updated !== '' ||
    parsed.name_servers.length > 0 ||
    parsed.status.length > 0;
  if (!hasData && lines.some((line) => LIMIT_EXCEEDED.some((re) => re.test(line)))) {
    return 'limit_exceeded';
  }
  // An answer that names no registrar, date, server or status describes nothing.
  return hasData || parsed.referral_server !== '' ? 'found' : 'not_found';
}

function firstValue(entries: WhoisEntry[], keys: readonly string[]): string {
  for (const key of keys) {
    const entry = entries.find((e) => e.key === key && e.value !== '');
    if (entry) return entry.value;
  }
  return '';
}

/**
 * Values of every key of the list found in the paragraph where the highest-priority key
 * first appears (RPSL contact objects repeat keys such as `status`, and an address line
 * `State: CA` elsewhere must not count), plus the lines under its heading.
 */
function listValues(entries: WhoisEntry[], keys: readonly string[]): string[] {
  for (const key of keys) {
    const first = entries.find((e) => e.key === key && e.value !== '');
    if (!first) continue;
    return entries
      .filter(
        (e) =>
          keys.includes(e.key) &&
          e.value !== '' &&
          (e.paragraph === first.paragraph || (e.fromBlock && e.key === key)),
      )
      .map((e) => e.value);
  }
  return [];
}

function readRegistrar(entries: WhoisEntry[]): string {
  // "Registrar:\n  Name: X" (.eu) and "Registrar: HANDLE\nName: X" (.sk).
  const named = entries.find((e) => e.section === 'registrar' && e.key === 'name');
  const value = named?.value || firstValue(entries, KEYS.registrar);
  return cleanRegistrar(value);
}

/** "MarkMonitor Inc. (http://www.markmonitor.com)" → "MarkMonitor Inc.". */
function cleanRegistrar(value: string): string {
  return value
    .replace(/\(\s*(?:https?:\/\/|www\.)[^)]*\)/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function readIanaId(entries: WhoisEntry[]): number | null {
  const value = firstValue(entries, KEYS.ianaId);
  return /^\d+$/.test(value) ? Number(value) : null;
}

function readDate(entries: WhoisEntry[], keys: readonly string[]): string {
  for (const key of keys) {
    for (const entry of entries) {
      if (entry.key !== key || entry.value === '') continue;
      const date = toIsoDate(entry.value);
      if (date) return date;
    }
  }
  return '';
}

/** .nz numbers its servers: `ns_name_01`, `ns_name_02`, … */
const NUMBERED_NS = /^ns name \d+$/;

function readNameServers(entries: WhoisEntry[], domain: string): string[] {
  // Servers are listed once per answer, sometimes split over paragraphs (.kz primary /
  // secondary), so every matching entry counts.
  const values = entries
    .filter((e) => e.value !== '' && (KEYS.nameServers.includes(e.key) || NUMBERED_NS.test(e.key)))
    .map((e) => e.value);
  const hosts = values.map((value) => {
    // "ns1.example.com 192.0.2.1", "ns1.example.com [OK]", "ns1.example.com - 192.0.2.1"
    const first = value.split(/[\s,]+/)[0] ?? '';
    return normaliseHostName(first);
  });
  return uniqueNonEmpty(
    hosts.filter((h) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(h) && h !== domain),
  );
}

function readStatus(entries: WhoisEntry[]): string[] {
  const values = listValues(entries, KEYS.status);
  const out: string[] = [];
  for (const value of values) {
    for (const token of value.split(/,\s*/)) {
      const cleaned = token
        .replace(/\s*https?:\/\/\S+/gi, '') // "ok https://icann.org/epp#ok"
        .replace(/\s*\([^)]*\)\s*/g, ' ') // "Connected (2024/03/31)"
        .replace(/\s+-(?:\s+.*)?$/, '') // "ok - Normal state.", "clientHold -"
        .replace(/^\d{3}\s+(?=\D)/, '') // .nz "200 Active": a query code, then the state
        .trim();
      if (cleaned) out.push(toRdapStatus(cleaned));
    }
  }
  return uniqueNonEmpty(out);
}

/** `whois.example.net`, `whois://whois.example.net`, `host:port` → `host[:port]`; else "". */
export function serverName(value: string): string {
  const text = value
    .trim()
    .replace(/^r?whois:\/\//i, '')
    .replace(/\/+$/, '');
  if (/^\[[0-9a-f:.]+\](?::\d{1,5})?$/i.test(text)) return text.toLowerCase();
  return /^[a-z0-9.-]+\.[a-z0-9-]+(?::\d{1,5})?$/i.test(text) ||
    /^\d{1,3}(\.\d{1,3}){3}(?::\d{1,5})?$/.test(text)
    ? text.toLowerCase()
    : '';
}
