/**
 * RDAP documents (RFC 9083) → the SPEC 2.9 record, every field read defensively.
 * @module
 */
import { domainToASCII } from 'node:url';
import { toIsoDate } from './dates.js';
import { getText, JCardError, parseJCard } from './jcard.js';
import { stripTrailing } from './linear-text.js';
import type { RdapObject } from './rdap-client.js';
import type { WhoisResult } from './types.js';

/**
 * The items of an array that pass `is`; the array itself when they all do, so a huge answer is
 * not copied (test/adversarial).
 */
function only<T>(value: unknown, is: (item: unknown) => item is T): readonly T[] {
  if (!Array.isArray(value)) return [];
  return value.every(is) ? value : value.filter(is);
}

const isObject = (value: unknown): value is RdapObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
/** The plain objects, or the strings, of an array. */
const objects = (value: unknown) => only(value, isObject);
const strings = (value: unknown) => only(value, isString);
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Entities with a role, searched depth-first (registrars sometimes nest, RFC 9083 §5.1). */
function findEntity(doc: RdapObject, role: string, depth = 0): RdapObject | undefined {
  for (const entity of objects(doc.entities)) {
    if (strings(entity.roles).some((r) => r.toLowerCase() === role)) return entity;
  }
  if (depth >= 2) return undefined;
  for (const entity of objects(doc.entities)) {
    const nested = findEntity(entity, role, depth + 1);
    if (nested) return nested;
  }
  return undefined;
}

/** The display name of an entity: vCard `fn`, else `org`, else (or if malformed) the handle. */
export function entityName(entity: RdapObject | undefined): string {
  if (!entity) return '';
  if (entity.vcardArray !== undefined) {
    try {
      const card = parseJCard(entity.vcardArray);
      const name = getText(card, 'fn') || getText(card, 'org');
      if (name) return name;
    } catch (error) {
      if (!(error instanceof JCardError)) throw error;
    }
  }
  return text(entity.handle);
}

/** "IANA Registrar ID" from `publicIds` (RFC 9083 §4.8; the ICANN RDAP profile §2.4.1). */
export function ianaRegistrarId(entity: RdapObject | undefined): number | null {
  if (!entity) return null;
  for (const id of objects(entity.publicIds)) {
    const record = id as { type?: unknown; identifier?: unknown };
    if (typeof record.type === 'string' && /iana registrar id/i.test(record.type)) {
      const value = String(record.identifier ?? '').trim();
      if (/^\d+$/.test(value)) return Number(value);
    }
  }
  return null;
}

/** The date of the first event with this action (RFC 9083 §4.5, §10.2.3), ISO UTC. */
export function eventDate(doc: RdapObject, action: string): string {
  let tried = 0;
  for (const event of objects(doc.events)) {
    const record = event as { eventAction?: unknown; eventDate?: unknown };
    if (typeof record.eventAction === 'string' && record.eventAction.toLowerCase() === action) {
      const date = toIsoDate(text(record.eventDate));
      if (date || ++tried === DATES_TRIED) return date;
    }
  }
  return '';
}

/** Events of one action tried as a date: a registry lists each action once (RFC 9083 §4.5). */
const DATES_TRIED = 32;

/** A host name as the API shows it: A-labels, lower case, no trailing dot. */
export function normaliseHostName(name: string): string {
  // Not `/\.+$/`: quadratic on a long run of dots (linear-text.ts).
  const trimmed = stripTrailing(name.trim(), '.');
  if (trimmed === '') return '';
  const ascii = /^[\x20-\x7e]*$/.test(trimmed) ? trimmed : domainToASCII(trimmed) || trimmed;
  return ascii.toLowerCase();
}

export function uniqueNonEmpty(values: readonly string[]): string[] {
  return [...new Set(values.filter((v) => v !== ''))];
}

/** Status values, lower-case words (RFC 9083 §10.2.2): the first MOST_READ distinct ones. */
function normaliseRdapStatus(value: unknown): string[] {
  const statuses = new Set<string>();
  for (const text of strings(value)) {
    if (statuses.size === MOST_READ) break;
    const status = text.trim().toLowerCase().replace(/\s+/g, ' ');
    if (status !== '') statuses.add(status);
  }
  return [...statuses];
}

/**
 * Distinct statuses and name servers read: EPP defines 17 statuses (RFC 5731 §2.3) and a
 * delegation names a handful of servers; the rest of a hostile answer is not read.
 */
const MOST_READ = 64;

/** Normalises an RDAP domain object (RFC 9083 §5.3). */
export function normaliseRdapDomain(doc: RdapObject, domain: string, url: string): WhoisResult {
  const registrar = findEntity(doc, 'registrar');
  const nameServers = new Set<string>();
  for (const ns of objects(doc.nameservers)) {
    if (nameServers.size === MOST_READ) break;
    const name = normaliseHostName(text(ns.ldhName) || text(ns.unicodeName));
    if (name !== '') nameServers.add(name);
  }
  return {
    domain,
    registrar: entityName(registrar),
    registrar_iana_id: ianaRegistrarId(registrar),
    creation_date: eventDate(doc, 'registration'),
    expiration_date: eventDate(doc, 'expiration'),
    last_updated: eventDate(doc, 'last changed'),
    name_servers: [...nameServers],
    status: normaliseRdapStatus(doc.status),
    rdap_link: url,
  };
}

/**
 * The registrar's own RDAP record of the domain: a `related` link of RDAP media type other than
 * the record itself (ICANN gTLD RDAP profile §2.2).
 */
export function registrarLink(doc: RdapObject, selfUrl: string): string | undefined {
  for (const link of objects(doc.links)) {
    const record = link as { rel?: unknown; href?: unknown; type?: unknown };
    if (text(record.rel).toLowerCase() !== 'related') continue;
    const href = text(record.href);
    const type = text(record.type).toLowerCase();
    if (!/^https?:\/\//i.test(href) || sameUrl(href, selfUrl)) continue;
    // Untyped, a link to a domain record; typed, an RDAP one.
    if (type === '' ? /\/domain\//i.test(href) : type.startsWith('application/rdap+json')) {
      return href;
    }
  }
  return undefined;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).toString().toLowerCase() === new URL(b).toString().toLowerCase();
  } catch {
    return false;
  }
}

/** Fields of the record that an RDAP or WHOIS source may leave empty. */
const FILLABLE_FIELDS = [
  'registrar',
  'registrar_iana_id',
  'creation_date',
  'expiration_date',
  'last_updated',
  'name_servers',
  'status',
] as const;

/** True when any fillable field is empty, i.e. a second source could add data. */
export function hasGaps(record: WhoisResult): boolean {
  return FILLABLE_FIELDS.some((field) => isEmpty(record[field]));
}

const isEmpty = (value: unknown) =>
  value === '' || value === null || (Array.isArray(value) && value.length === 0);

/** Fills the empty fields of `primary` from `secondary`; `primary` wins everywhere else. */
export function fillGaps(primary: WhoisResult, secondary: Partial<WhoisResult>): WhoisResult {
  const out: WhoisResult = { ...primary };
  for (const field of FILLABLE_FIELDS) {
    const value = secondary[field];
    if (isEmpty(out[field]) && value !== undefined && !isEmpty(value)) {
      (out as unknown as Record<string, unknown>)[field] = value;
    }
  }
  return out;
}

/** The SPEC-shaped result of an IP network or autnum lookup (an addition beyond SPEC). */
export interface RdapResourceResult {
  /** What was asked: an address or `AS<n>`. */
  query: string;
  /** `ip network` or `autnum` (RFC 9083 §5.4, §5.5). */
  object_class: string;
  handle: string;
  name: string;
  /** First and last address, or first and last AS number as `AS<n>`. */
  start: string;
  end: string;
  country: string;
  /** Allocation type (`ASSIGNED PA`, `DIRECT ALLOCATION`, …). */
  type: string;
  /** Name of the registrant entity. */
  organization: string;
  creation_date: string;
  last_updated: string;
  status: string[];
  rdap_link: string;
}

/** Normalises an IP network (RFC 9083 §5.4) or autnum (§5.5) object. */
export function normaliseRdapResource(
  doc: RdapObject,
  query: string,
  url: string,
): RdapResourceResult {
  const isAutnum = text(doc.objectClassName).toLowerCase() === 'autnum';
  const asText = (v: unknown) => (typeof v === 'number' ? `AS${v}` : text(v));
  return {
    query,
    object_class: text(doc.objectClassName).toLowerCase(),
    handle: text(doc.handle),
    name: text(doc.name),
    start: isAutnum ? asText(doc.startAutnum) : text(doc.startAddress),
    end: isAutnum ? asText(doc.endAutnum) : text(doc.endAddress),
    country: text(doc.country),
    type: text(doc.type),
    organization: entityName(findEntity(doc, 'registrant')),
    creation_date: eventDate(doc, 'registration'),
    last_updated: eventDate(doc, 'last changed'),
    status: normaliseRdapStatus(doc.status),
    rdap_link: url,
  };
}
