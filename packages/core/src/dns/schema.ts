/**
 * DNS answers: `GET /api/dns` and `GET /api/v1/dns/:domain` (SPEC 2.7, 2.8; CONTRACT §6
 * `dig +short` data), `GET /api/rdns` (SPEC 2.10, plus FCrDNS) and `GET /api/blacklist`
 * (SPEC 2.11, CONTRACT §6 statuses).
 * @module
 */
import { z } from 'zod';
import type { RecordType } from '../net/dns-types.js';
import { domainInput, ipAddressInput } from '../schemas/common.js';
import { parameters } from '../schemas/param.js';
import { DNS_TYPES, DNS_TYPES_V1 } from './record-types.js';

// --- Parameters ---

const domainParam = domainInput().describe('Domain name to query (IDNs accepted)');

/** `type`: the family's list (SPEC §4), default A. The server also takes lower case. */
function typeParam(types: readonly RecordType[]) {
  return z
    .enum(types)
    .default('A')
    .describe(
      `Record type, case-insensitive, default A. One of ${types.join(', ')}; anything else is a 400.`,
    );
}

export const dnsLookupParamsSchema = parameters({
  domain: domainParam,
  type: typeParam(DNS_TYPES),
});
export type DnsLookupParams = z.input<typeof dnsLookupParamsSchema>;

export const dnsLookupV1ParamsSchema = parameters({
  domain: domainParam,
  type: typeParam(DNS_TYPES_V1),
  dnssec: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .describe(
      'Set the DNSSEC OK (DO) bit: the answer then includes the RRSIG records. `authenticated` (the AD flag) is reported either way.',
    ),
});
export type DnsLookupV1Params = z.input<typeof dnsLookupV1ParamsSchema>;

export const reverseDnsParamsSchema = parameters({
  ip: ipAddressInput.describe('IPv4 or IPv6 address (IPv4-mapped IPv6 is treated as IPv4)'),
});
export type ReverseDnsParams = z.input<typeof reverseDnsParamsSchema>;

export const blacklistParamsSchema = parameters({
  ip: ipAddressInput.describe('IPv4 or IPv6 address'),
});
export type BlacklistParams = z.input<typeof blacklistParamsSchema>;

// --- Data ---

const DATA_DESCRIPTION =
  'Record value in presentation format exactly as `dig +short` prints it: A/AAAA address ' +
  '(AAAA compressed), names with a trailing dot, MX "10 mail.example.com.", TXT as quoted ' +
  'strings joined by a space, SOA "mname. rname. serial refresh retry expire minimum", CAA ' +
  '`0 issue "ca.example"`, SRV "priority weight port target.", HTTPS/SVCB ' +
  '`1 . alpn="h2,h3" port=443`, DS "keytag algorithm digest-type HEX", DNSKEY/RRSIG with ' +
  'base64 split every 56 characters as dig splits it.';

const rcode = z
  .string()
  .describe(
    'Added: the DNS response code, NOERROR or NXDOMAIN (NXDOMAIN is a success with no records)',
  );

/** A record of `GET /api/dns` (SPEC 2.7): owner without trailing dot, `TTL` upper case. */
export const dnsRecordV0Schema = z.strictObject({
  name: z.string().describe('Owner name, without trailing dot'),
  type: z.int().describe('Numeric record type code (1 A, 28 AAAA, 5 CNAME, 15 MX, …)'),
  TTL: z.int().describe('Time to live in seconds'),
  data: z.string().describe(DATA_DESCRIPTION),
});

/** The SvcParams of an HTTPS or SVCB record by key name (RFC 9460 §7). */
export const svcParamsSchema = z
  .looseObject({
    mandatory: z
      .array(z.string())
      .optional()
      .describe('Keys the client must understand (RFC 9460 §8), by name'),
    alpn: z.array(z.string()).optional().describe('ALPN protocol ids (RFC 9460 §7.1.1)'),
    'no-default-alpn': z.literal(true).optional(),
    port: z.int().optional(),
    ipv4hint: z.array(z.string()).optional(),
    ech: z.string().optional().describe('The ECHConfigList, base64 (RFC 9460 §14.3.1)'),
    ipv6hint: z.array(z.string()).optional(),
    dohpath: z.string().optional().describe('DoH URI template (RFC 9461 §5)'),
  })
  .describe(
    'SvcParams by key name: mandatory (key names), alpn (protocol ids), no-default-alpn (true), port, ipv4hint and ipv6hint (addresses), ech (base64), dohpath; unnamed keys as key<N> with a hex value',
  );

/** An HTTPS or SVCB record decoded (RFC 9460): the resolver's value and `svc_params`. */
export const svcbValueSchema = z
  .strictObject({
    priority: z.int().describe('SvcPriority; 0 is AliasMode (RFC 9460 §2.4.2)'),
    target: z.string().describe('TargetName without trailing dot; "" means the owner itself'),
    params: svcParamsSchema,
  })
  .describe('HTTPS and SVCB records only: the record decoded (RFC 9460)');

/** A record of `GET /api/v1/dns/:domain` (SPEC 2.7): owner with trailing dot, `ttl`. */
export const dnsRecordV1Schema = z.strictObject({
  name: z.string().describe('Owner name, with trailing dot'),
  type: z.int().describe('Numeric record type code'),
  ttl: z.int().describe('Time to live in seconds'),
  data: z.string().describe(DATA_DESCRIPTION),
  svc_params: svcbValueSchema.optional(),
});

const queriedDomain = z
  .string()
  .describe('The queried domain (lower case, punycode, no trailing dot)');

/** An Extended DNS Error (RFC 8914) of `GET /api/v1/dns/:domain`. */
export const dnsExtendedErrorV1Schema = z.strictObject({
  code: z
    .int()
    .describe('INFO-CODE (RFC 8914 §4): 6 DNSSEC Bogus, 7 Signature Expired, 9 DNSKEY Missing, …'),
  name: z.string().describe('The IANA registry name of the code'),
  text: z
    .string()
    .optional()
    .describe('EXTRA-TEXT from the resolver, IP addresses replaced by [address]'),
});

/** `GET /api/dns` data (SPEC 2.7). */
export const dnsLookupDataSchema = z.strictObject({
  domain: queriedDomain,
  type: z.enum(DNS_TYPES).describe('Record type queried'),
  rcode,
  records: z
    .array(dnsRecordV0Schema)
    .describe('Answer records (a CNAME chain included); [] for NXDOMAIN/NODATA'),
});
export type DnsLookupData = z.infer<typeof dnsLookupDataSchema>;

/** `GET /api/v1/dns/:domain` data (SPEC 2.7, 2.8). */
export const dnsLookupV1DataSchema = z.strictObject({
  domain: queriedDomain,
  type: z.enum(DNS_TYPES_V1).describe('Record type queried'),
  rcode,
  records: z.array(dnsRecordV1Schema).describe('Answer records (a CNAME chain included)'),
  authority: z
    .array(dnsRecordV1Schema)
    .describe('Authority section records (SOA on negative answers, RFC 2308)'),
  authenticated: z
    .boolean()
    .describe(
      "Added: the resolver's AD flag — it validated the answer with DNSSEC (RFC 4035 §3.2.3). For netdiag's own validation see GET /api/dnssec.",
    ),
  extended_errors: z
    .array(dnsExtendedErrorV1Schema)
    .optional()
    .describe('Added: Extended DNS Errors (RFC 8914) the resolver attached; absent when none'),
});
export type DnsLookupV1Data = z.infer<typeof dnsLookupV1DataSchema>;

/** `GET /api/rdns` data (SPEC 2.10). */
export const reverseDnsDataSchema = z.strictObject({
  ip: z.string().describe('The address, normalised'),
  hostname: z.string().describe('First PTR target without trailing dot; "" when none'),
  ptr_record: z.string().describe('The reverse-lookup name queried, e.g. 8.8.8.8.in-addr.arpa'),
  hostnames: z.array(z.string()).describe('Added: every PTR target'),
  fcrdns: z.boolean().describe('Added: a PTR name resolves back to the IP'),
  rcode,
});
export type ReverseDnsData = z.infer<typeof reverseDnsDataSchema>;

/** One list's outcome in `GET /api/blacklist`. */
export const blacklistListResultSchema = z.strictObject({
  name: z.string().describe('List name'),
  zone: z.string().describe('DNSBL zone queried'),
  listed: z.boolean().describe('True when the list lists the IP'),
  status: z
    .enum(['listed', 'not_listed', 'error', 'timeout', 'skipped'])
    .describe(
      'listed / not_listed; error: the list answered something that is not a listing (e.g. ' +
        'Spamhaus 127.255.255.254 "refused"), failed or is broken; timeout: no answer in time; ' +
        'skipped: IPv6 address on a list without IPv6 support',
    ),
  response: z.array(z.string()).describe('Added: raw A answers (return codes) of the list'),
  reason: z.string().describe('Added: TXT reason of a listing ("" when none)'),
  meaning: z
    .array(z.string())
    .describe('Added: what each return code means, or why the list is unavailable'),
});

/** `GET /api/blacklist` data (SPEC 2.11). */
export const blacklistDataSchema = z.strictObject({
  ip: z.string().describe('The address checked, normalised'),
  total_lists: z.int().describe('Lists configured (12)'),
  total_checked: z
    .int()
    .min(1)
    .describe(
      'Lists that answered (listed or not listed); at least 1, else the request fails with 502/504',
    ),
  unavailable_count: z.int().describe('Lists that could not be queried (status error or timeout)'),
  skipped_count: z.int().describe('Added: lists skipped (IPv6 address, list without IPv6 support)'),
  listed_count: z.int().describe('Lists that list the IP'),
  clean: z
    .boolean()
    .describe(
      'True when none of the lists that answered (total_checked ≥ 1) lists the IP; see unavailable_count',
    ),
  status: z.enum(['CLEAN', 'LISTED']).describe('LISTED when at least one list lists the IP'),
  results: z
    .array(blacklistListResultSchema)
    .describe('One entry per list, in the order of the list table'),
});
export type BlacklistData = z.infer<typeof blacklistDataSchema>;
