/**
 * DNS endpoints: `GET /api/dns` and `GET /api/v1/dns/:domain` (SPEC 2.7, 2.8; CONTRACT §6
 * `dig +short` data), `GET /api/rdns` (SPEC 2.10, plus FCrDNS) and `GET /api/blacklist`
 * (SPEC 2.11, 12 DNSBLs).
 * @module
 */
import { DNS_TYPES, DNS_TYPES_V1, DNSBL_ZONES } from '@netdiag/core';
import { arr, bool, enumOf, int, obj, str } from '../openapi/schema.js';
import { pathParam, queryParam } from '../params.js';
import { runBlacklist, runDnsLookup, runDnsLookupV1, runReverseDns } from '../services/resolver.js';
import type { ParamDef, RouteDef } from './types.js';

const DOMAIN_EXPECTED = 'a domain name such as example.com';
const IP_EXPECTED = 'an IPv4 or IPv6 address';

const DATA_DESCRIPTION =
  'Record value in presentation format exactly as `dig +short` prints it: A/AAAA address ' +
  '(AAAA compressed), names with a trailing dot, MX "10 mail.example.com.", TXT as quoted ' +
  'strings joined by a space, SOA "mname. rname. serial refresh retry expire minimum", CAA ' +
  '`0 issue "ca.example"`, SRV "priority weight port target.".';

const RCODE = str(
  'Added: the DNS response code, NOERROR or NXDOMAIN (NXDOMAIN is a success with no records)',
);

const recordV0 = obj({
  name: str('Owner name, without trailing dot'),
  type: int('Numeric record type code (1 A, 28 AAAA, 5 CNAME, 15 MX, …)'),
  TTL: int('Time to live in seconds'),
  data: str(DATA_DESCRIPTION),
});

const recordV1 = obj({
  name: str('Owner name, with trailing dot'),
  type: int('Numeric record type code'),
  ttl: int('Time to live in seconds'),
  data: str(DATA_DESCRIPTION),
});

function typeParam(types: readonly string[]): ParamDef {
  return {
    name: 'type',
    in: 'query',
    required: false,
    description: `Record type, case-insensitive, default A. One of ${types.join(', ')}; anything else is a 400.`,
    schema: enumOf(types),
    example: 'MX',
  };
}

const DNS_NOTES =
  'One question through the server-wide resolver (NETDIAG_DNS_SERVERS or the system resolvers, ' +
  'or DNS-over-HTTPS with NETDIAG_DOH_URL), answers cached for their TTL. The domain is ' +
  'validated (labels 1–63 characters, at most 253 in all; an IP address is refused) and IDNs ' +
  'are converted to punycode. CNAME chains appear in `records` as the resolver returns them. ' +
  'NXDOMAIN → 200 with `records: []` and `rcode`; SERVFAIL or REFUSED → 502; no answer → 504.';

const blacklistEntry = obj({
  name: str('List name'),
  zone: str('DNSBL zone queried'),
  listed: bool('True when the list lists the IP'),
  status: enumOf(
    ['listed', 'not_listed', 'error', 'timeout', 'skipped'],
    'listed / not_listed; error: the list answered something that is not a listing (e.g. ' +
      'Spamhaus 127.255.255.254 "refused"), failed or is broken; timeout: no answer in time; ' +
      'skipped: IPv6 address on a list without IPv6 support',
  ),
  response: arr(str(), 'Added: raw A answers (return codes) of the list'),
  reason: str('Added: TXT reason of a listing ("" when none)'),
  meaning: arr(str(), 'Added: what each return code means, or why the list is unavailable'),
});

export const dnsRoutes: RouteDef[] = [
  {
    method: 'get',
    path: '/api/dns',
    operationId: 'dnsLookup',
    tag: 'DNS',
    summary: 'DNS records of a domain',
    description: DNS_NOTES,
    params: [
      {
        name: 'domain',
        in: 'query',
        required: true,
        description: 'Domain name to query (IDNs accepted)',
        schema: str(undefined, { minLength: 1, maxLength: 253 }),
        example: 'example.com',
      },
      typeParam(DNS_TYPES),
    ],
    data: obj({
      domain: str('The queried domain (lower case, punycode, no trailing dot)'),
      type: enumOf(DNS_TYPES, 'Record type queried'),
      rcode: RCODE,
      records: arr(recordV0, 'Answer records (a CNAME chain included); [] for NXDOMAIN/NODATA'),
    }),
    example: {
      domain: 'example.com',
      type: 'MX',
      rcode: 'NOERROR',
      records: [{ name: 'example.com', type: 15, TTL: 3600, data: '0 .' }],
    },
    errors: [400, 502, 504],
    handle({ req, ctx, signal }) {
      const domain = queryParam(req, 'domain', DOMAIN_EXPECTED, true);
      const type = queryParam(req, 'type', `one of ${DNS_TYPES.join(', ')}`);
      return runDnsLookup(ctx, domain, type, { signal });
    },
  },
  {
    method: 'get',
    path: '/api/v1/dns/:domain',
    operationId: 'dnsLookupV1',
    tag: 'DNS',
    summary: 'DNS records of a domain (v1: SRV and PTR too, authority section)',
    description: `${DNS_NOTES} Record names end with a dot and the TTL field is \`ttl\`; \`authority\` holds the authority section (the SOA of a negative answer) in the same shape.`,
    params: [
      {
        name: 'domain',
        in: 'path',
        required: true,
        description: 'Domain name to query (IDNs accepted)',
        schema: str(undefined, { minLength: 1, maxLength: 253 }),
        example: 'example.com',
      },
      typeParam(DNS_TYPES_V1),
    ],
    data: obj({
      domain: str('The queried domain (lower case, punycode, no trailing dot)'),
      type: enumOf(DNS_TYPES_V1, 'Record type queried'),
      rcode: RCODE,
      records: arr(recordV1, 'Answer records (a CNAME chain included)'),
      authority: arr(recordV1, 'Authority section records (SOA on negative answers, RFC 2308)'),
    }),
    example: {
      domain: 'example.com',
      type: 'A',
      rcode: 'NOERROR',
      records: [{ name: 'example.com.', type: 1, ttl: 300, data: '93.184.215.14' }],
      authority: [],
    },
    errors: [400, 502, 504],
    handle({ req, ctx, signal }) {
      const type = queryParam(req, 'type', `one of ${DNS_TYPES_V1.join(', ')}`);
      return runDnsLookupV1(ctx, pathParam(req, 'domain'), type, { signal });
    },
  },
  {
    method: 'get',
    path: '/api/rdns',
    operationId: 'reverseDns',
    tag: 'DNS',
    summary: 'Reverse DNS (PTR) of an IP address, forward-confirmed',
    description:
      'PTR lookup of the in-addr.arpa (IPv4) or ip6.arpa nibble (IPv6) name. `fcrdns` is true ' +
      'when a PTR name has an A/AAAA record equal to the IP (forward-confirmed reverse DNS). ' +
      'No PTR → 200 with hostname "". SERVFAIL → 502, no answer → 504.',
    params: [
      {
        name: 'ip',
        in: 'query',
        required: true,
        description: 'IPv4 or IPv6 address (IPv4-mapped IPv6 is treated as IPv4)',
        schema: str(),
        example: '8.8.8.8',
      },
    ],
    data: obj({
      ip: str('The address, normalised'),
      hostname: str('First PTR target without trailing dot; "" when none'),
      ptr_record: str('The reverse-lookup name queried, e.g. 8.8.8.8.in-addr.arpa'),
      hostnames: arr(str(), 'Added: every PTR target'),
      fcrdns: bool('Added: a PTR name resolves back to the IP'),
      rcode: RCODE,
    }),
    example: {
      ip: '8.8.8.8',
      hostname: 'dns.google',
      ptr_record: '8.8.8.8.in-addr.arpa',
      hostnames: ['dns.google'],
      fcrdns: true,
      rcode: 'NOERROR',
    },
    errors: [400, 502, 504],
    handle({ req, ctx, signal }) {
      return runReverseDns(ctx, queryParam(req, 'ip', IP_EXPECTED, true), { signal });
    },
  },
  {
    method: 'get',
    path: '/api/blacklist',
    operationId: 'blacklist',
    tag: 'DNS',
    summary: `Check an IP against ${DNSBL_ZONES.length} DNS blocklists`,
    description:
      `Lists: ${DNSBL_ZONES.map((z) => z.zone).join(', ')}. All are queried at once under one ` +
      '5 s deadline. Only A answers in 127.0.0.0/8 other than 127.0.0.1 and 127.255.255.0/24 ' +
      'count as listed; any other answer is `error` (counted in `unavailable_count`). A list ' +
      'that also lists the RFC 5782 control address 127.0.0.1 is reported as `error` (dead or ' +
      'wildcarded zone). IPv6 addresses are checked with nibble queries on the lists that ' +
      'support IPv6 and `skipped` elsewhere. Reserved addresses are accepted (127.0.0.2 is the ' +
      'RFC 5782 test point). Results are cached per IP for 10 minutes.',
    params: [
      {
        name: 'ip',
        in: 'query',
        required: true,
        description: 'IPv4 or IPv6 address',
        schema: str(),
        example: '127.0.0.2',
      },
    ],
    data: obj({
      ip: str('The address checked, normalised'),
      total_lists: int('Lists configured (12)'),
      total_checked: int('Lists that answered (listed or not listed)'),
      unavailable_count: int('Lists that could not be queried (status error or timeout)'),
      skipped_count: int('Added: lists skipped (IPv6 address, list without IPv6 support)'),
      listed_count: int('Lists that list the IP'),
      clean: bool('True when no list lists the IP'),
      status: enumOf(['CLEAN', 'LISTED'], 'LISTED when at least one list lists the IP'),
      results: arr(blacklistEntry, 'One entry per list, in the order of the list table'),
    }),
    example: {
      ip: '127.0.0.2',
      total_lists: 12,
      total_checked: 11,
      unavailable_count: 1,
      skipped_count: 0,
      listed_count: 11,
      clean: false,
      status: 'LISTED',
      results: [
        {
          name: 'Spamhaus ZEN',
          zone: 'zen.spamhaus.org',
          listed: false,
          status: 'error',
          response: ['127.255.255.254'],
          reason: '',
          meaning: ['error: query via a public/open resolver (refused by Spamhaus)'],
        },
        {
          name: 'SpamCop',
          zone: 'bl.spamcop.net',
          listed: true,
          status: 'listed',
          response: ['127.0.0.2'],
          reason: 'Blocked - see https://www.spamcop.net/bl.shtml?127.0.0.2',
          meaning: ['listed: reported spam source'],
        },
      ],
    },
    errors: [400],
    handle({ req, ctx, signal }) {
      return runBlacklist(ctx, queryParam(req, 'ip', IP_EXPECTED, true), { signal });
    },
  },
];
