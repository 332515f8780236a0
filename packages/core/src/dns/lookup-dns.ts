/**
 * `lookupDns` / `lookupDnsV1`: one question through the resolver, shaped as SPEC 2.7 / 2.8
 * with `dig +short` data (CONTRACT §6). NXDOMAIN is an answer (`records: []`, `rcode`);
 * SERVFAIL and other failures are `UpstreamError` (502), no answer in time `TimeoutError` (504).
 * @module
 */
import { UpstreamError } from '../errors.js';
import type { DnsRecord, DnsResolver, DnsResponse, RecordType } from '../net/dns-types.js';
import { normaliseDomain } from '../net/domain.js';
import { getDefaultResolver } from '../net/resolver.js';
import { withTimeout } from '../net/signal.js';
import type { BaseOptions } from '../types.js';
import { DNS_TYPES, DNS_TYPES_V1, parseRecordType } from './record-types.js';

/** What `lookupDns` / `lookupDnsV1` ask. */
export interface DnsQueryInput {
  /** Domain name; IDNs are converted to punycode, a trailing dot is ignored. */
  domain: string;
  /** Record type, case-insensitive. @default 'A' */
  type?: string | undefined;
  /**
   * `lookupDns` only: accept every type of `lookupDnsV1` (SRV, PTR too), not only the eight of
   * `GET /api/dns`. The CLI sets it: a terminal user asks for any type in one shape.
   */
  allTypes?: boolean | undefined;
}

export interface LookupDnsOptions extends BaseOptions {
  /** DNS resolver. @default the library's shared resolver (system servers) */
  resolver?: DnsResolver;
}

/** A record of `GET /api/dns` (SPEC 2.7): owner without trailing dot, `TTL` upper case. */
export interface DnsRecordV0 {
  name: string;
  /** Numeric type code. */
  type: number;
  TTL: number;
  /** `dig +short` presentation. */
  data: string;
}

/** A record of `GET /api/v1/dns/:domain` (SPEC 2.7): owner with trailing dot, `ttl`. */
export interface DnsRecordV1 {
  name: string;
  type: number;
  ttl: number;
  data: string;
}

export interface DnsLookupResult {
  domain: string;
  type: RecordType;
  /** `NOERROR` or `NXDOMAIN` (CONTRACT §6). */
  rcode: string;
  records: DnsRecordV0[];
}

export interface DnsLookupV1Result {
  domain: string;
  type: RecordType;
  rcode: string;
  records: DnsRecordV1[];
  /** The authority section (the SOA of a negative answer), v1 record shape (CONTRACT §6). */
  authority: DnsRecordV1[];
}

/** `GET /api/dns`: types A, AAAA, MX, NS, TXT, CNAME, CAA, SOA. */
export async function lookupDns(
  input: DnsQueryInput,
  options: LookupDnsOptions = {},
): Promise<DnsLookupResult> {
  const { domain, type, response } = await ask(
    input,
    options,
    input.allTypes ? DNS_TYPES_V1 : DNS_TYPES,
  );
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
  return {
    domain,
    type,
    rcode: response.rcode,
    records: response.answers.map(toV1),
    authority: response.authority.map(toV1),
  };
}

function toV1(record: DnsRecord): DnsRecordV1 {
  return { name: `${record.name}.`, type: record.typeCode, ttl: record.ttl, data: record.data };
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
    resolver.query(domain, type, { signal, timeout: false }),
  );
  if (response.rcode !== 'NOERROR' && response.rcode !== 'NXDOMAIN') {
    throw new UpstreamError(
      'dns',
      `the DNS server answered ${response.rcode} for ${domain} ${type}`,
      undefined,
      response.server,
    );
  }
  return { domain, type, response };
}
