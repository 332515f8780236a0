/**
 * `lookupDns` / `lookupDnsV1`: one question through the resolver, shaped as SPEC 2.7 / 2.8
 * with `dig +short` data (CONTRACT §6). NXDOMAIN is an answer (`records: []`, `rcode`);
 * SERVFAIL and other failures are `UpstreamError` (502), no answer in time `TimeoutError` (504).
 * @module
 */
import type { z } from 'zod';
import { UpstreamError } from '../errors.js';
import type {
  DnsRecord,
  DnsResolver,
  DnsResponse,
  ExtendedDnsError,
  RecordType,
} from '../net/dns-types.js';
import { normaliseDomain } from '../net/domain.js';
import { getDefaultResolver } from '../net/resolver.js';
import type { SvcbValue } from '../net/resolver-present-modern.js';
import { withTimeout } from '../net/signal.js';
import type { BaseOptions } from '../types.js';
import { DNS_TYPES, DNS_TYPES_V1, parseRecordType } from './record-types.js';
import type {
  dnsExtendedErrorV1Schema,
  dnsLookupDataSchema,
  dnsLookupV1DataSchema,
  dnsRecordV0Schema,
  dnsRecordV1Schema,
} from './schema.js';

/** What `lookupDns` / `lookupDnsV1` ask. */
export interface DnsQueryInput {
  /** Domain name; IDNs are converted to punycode, a trailing dot is ignored. */
  domain: string;
  /** Record type, case-insensitive. @default 'A' */
  type?: string | undefined;
  /** `lookupDns` only: accept every type of `lookupDnsV1`, not only `GET /api/dns`'s (the CLI). */
  allTypes?: boolean | undefined;
  /** Set the DO bit (RFC 3225): RRSIGs come along; AD is reported either way. @default false */
  dnssec?: boolean | undefined;
}

export interface LookupDnsOptions extends BaseOptions {
  /** DNS resolver. @default the library's shared resolver (system servers) */
  resolver?: DnsResolver;
}

/** A record of `GET /api/dns` (SPEC 2.7): owner without trailing dot, `TTL` upper case. */
export type DnsRecordV0 = z.output<typeof dnsRecordV0Schema>;
/** A record of `GET /api/v1/dns/:domain` (SPEC 2.7): owner with trailing dot, `ttl`. */
export type DnsRecordV1 = z.output<typeof dnsRecordV1Schema>;
/** An Extended DNS Error of `GET /api/v1/dns/:domain`, EXTRA-TEXT without IP addresses. */
export type DnsExtendedErrorV1 = z.output<typeof dnsExtendedErrorV1Schema>;
/** `GET /api/dns` data; `rcode` is `NOERROR` or `NXDOMAIN` (CONTRACT §6). */
export type DnsLookupResult = z.output<typeof dnsLookupDataSchema>;
/**
 * `GET /api/v1/dns/:domain` data. `authenticated` is the resolver's AD flag, only as
 * trustworthy as the path to the resolver (RFC 4035 §4.9.3).
 */
export type DnsLookupV1Result = z.output<typeof dnsLookupV1DataSchema>;

/** `GET /api/dns`: types A, AAAA, MX, NS, TXT, CNAME, CAA, SOA. */
export async function lookupDns(
  input: DnsQueryInput,
  options: LookupDnsOptions = {},
): Promise<DnsLookupResult> {
  const allowed = input.allTypes ? DNS_TYPES_V1 : DNS_TYPES;
  const { domain, type, response } = await ask(input, options, allowed);
  return {
    domain,
    type,
    rcode: response.rcode,
    records: response.answers.map((r) => ({
      name: r.name,
      type: r.typeCode,
      TTL: r.ttl,
      data: r.data,
    })),
  };
}

/** `GET /api/v1/dns/:domain`: the same plus SRV and PTR, and the authority section. */
export async function lookupDnsV1(
  input: DnsQueryInput,
  options: LookupDnsOptions = {},
): Promise<DnsLookupV1Result> {
  const { domain, type, response } = await ask(input, options, DNS_TYPES_V1);
  const errors = (response.extendedErrors ?? []).map(publicError);
  return {
    domain,
    type,
    rcode: response.rcode,
    records: response.answers.map(toV1),
    authority: response.authority.map(toV1),
    authenticated: response.authenticated,
    ...(errors.length > 0 ? { extended_errors: errors } : {}),
  };
}

function toV1(record: DnsRecord): DnsRecordV1 {
  const base = {
    name: `${record.name}.`,
    type: record.typeCode,
    ttl: record.ttl,
    data: record.data,
  };
  if (record.type !== 'HTTPS' && record.type !== 'SVCB') return base;
  return { ...base, svc_params: record.value as SvcbValue };
}

/** IPv4 and IPv6 literals, as resolvers put them in EXTRA-TEXT (`… from 192.0.2.1 for …`). */
const ADDRESS =
  /\b(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7})(?:[#@]\d+)?\b/gi;

/** An EDE for the API: the resolver's text may name servers behind it; their addresses go. */
function publicError(error: ExtendedDnsError): DnsExtendedErrorV1 {
  return {
    code: error.code,
    name: error.name,
    ...(error.text ? { text: error.text.replace(ADDRESS, '[address]') } : {}),
  };
}

/** `(Extended DNS Error 6 DNSSEC Bogus)`, for the message of a failed query. */
function errorNote(response: DnsResponse): string {
  const errors = response.extendedErrors ?? [];
  if (errors.length === 0) return '';
  return ` (Extended DNS Error ${errors.map((e) => `${e.code} ${e.name}`).join(', ')})`;
}

/** SERVFAIL, REFUSED, … for `question`: an `UpstreamError` (502); NXDOMAIN is an answer. */
export function throwUnlessAnswered(response: DnsResponse, question: string, note = ''): void {
  if (response.rcode === 'NOERROR' || response.rcode === 'NXDOMAIN') return;
  const message = `the DNS server answered ${response.rcode} for ${question}${note}`;
  throw new UpstreamError('dns', message, undefined, response.server);
}

async function ask(
  input: DnsQueryInput,
  options: LookupDnsOptions,
  allowed: readonly RecordType[],
): Promise<{ domain: string; type: RecordType; response: DnsResponse }> {
  const type = parseRecordType(input.type, allowed);
  const domain = normaliseDomain(input.domain);
  const resolver = options.resolver ?? getDefaultResolver();
  const response = await withTimeout(options, 'dns', (signal) =>
    resolver.query(domain, type, {
      signal,
      timeout: false,
      ...(input.dnssec ? { dnssecOk: true } : {}),
    }),
  );
  throwUnlessAnswered(response, `${domain} ${type}`, errorNote(response));
  return { domain, type, response };
}
