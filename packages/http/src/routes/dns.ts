/**
 * DNS endpoints: `GET /api/dns` and `GET /api/v1/dns/:domain` (SPEC 2.7, 2.8; CONTRACT §6
 * `dig +short` data), `GET /api/rdns` (SPEC 2.10, plus FCrDNS) and `GET /api/blacklist`
 * (SPEC 2.11, 12 DNSBLs).
 * @module
 */
import { DNS_TYPES, DNSBL_ZONES, dnssecParam } from '@netdiag/core';
import { dataSchema, paramsOf } from '../openapi/core-schemas.js';
import { pathParam, queryParam } from '../params.js';
import type { RouteDef } from './types.js';

const DNS_NOTES =
  'One question through the server-wide resolver (NETDIAG_DNS_SERVERS or the system resolvers, ' +
  'or DNS-over-HTTPS with NETDIAG_DOH_URL), answers cached for their TTL. The domain is ' +
  'validated (labels 1–63 characters, at most 253 in all; an IP address is refused) and IDNs ' +
  'are converted to punycode. CNAME chains appear in `records` as the resolver returns them. ' +
  'NXDOMAIN → 200 with `records: []` and `rcode`; SERVFAIL or REFUSED → 502; no answer → 504.';

export const dnsRoutes: RouteDef[] = [
  {
    method: 'get',
    path: '/api/dns',
    operationId: 'dnsLookup',
    tag: 'DNS',
    summary: 'DNS records of a domain',
    description: DNS_NOTES,
    params: paramsOf('dnsLookup', { domain: 'example.com', type: 'MX' }),
    data: dataSchema('dnsLookup'),
    example: {
      domain: 'example.com',
      type: 'MX',
      rcode: 'NOERROR',
      records: [{ name: 'example.com', type: 15, TTL: 3600, data: '0 .' }],
    },
    errors: [400, 502, 504],
    handle({ req, ctx, signal }) {
      const domain = queryParam(req, 'domain', true);
      const type = queryParam(req, 'type');
      return ctx.engine.dns({ domain, type }, { signal });
    },
  },
  {
    method: 'get',
    path: '/api/v1/dns/:domain',
    operationId: 'dnsLookupV1',
    tag: 'DNS',
    summary: 'DNS records of a domain (v1: SRV and PTR too, authority section)',
    description: `${DNS_NOTES} Record names end with a dot and the TTL field is \`ttl\`; \`authority\` holds the authority section (the SOA of a negative answer) in the same shape. Besides SRV and PTR, v1 takes the modern types: HTTPS and SVCB (RFC 9460; \`svc_params\` decodes them), DS, DNSKEY, RRSIG, NSEC, NSEC3, NSEC3PARAM, CDS, CDNSKEY (DNSSEC), TLSA (DANE), SSHFP and NAPTR, all in \`dig +short\` presentation. \`authenticated\` is the resolver's AD flag; \`dnssec=1\` sets the DO bit so RRSIGs come along; \`extended_errors\` carries RFC 8914 Extended DNS Errors when the resolver sends them (a SERVFAIL's codes are in the 502 message). The unversioned /api/dns keeps its eight types (${DNS_TYPES.join(', ')}).`,
    params: paramsOf(
      'dnsLookupV1',
      { domain: 'example.com', type: 'MX', dnssec: '1' },
      { path: ['domain'] },
    ),
    data: dataSchema('dnsLookupV1'),
    example: {
      domain: 'example.com',
      type: 'A',
      rcode: 'NOERROR',
      records: [{ name: 'example.com.', type: 1, ttl: 300, data: '93.184.215.14' }],
      authority: [],
      authenticated: false,
    },
    errors: [400, 502, 504],
    handle({ req, ctx, signal }) {
      const type = queryParam(req, 'type');
      const dnssec = dnssecParam(queryParam(req, 'dnssec'));
      return ctx.engine.dnsV1(
        { domain: pathParam(req, 'domain'), type, ...(dnssec ? { dnssec } : {}) },
        { signal },
      );
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
    params: paramsOf('reverseDns', { ip: '8.8.8.8' }),
    data: dataSchema('reverseDns'),
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
      return ctx.engine.reverseDns(queryParam(req, 'ip', true), { signal });
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
      'RFC 5782 test point). Results are cached per IP for 10 minutes. Partial answers: the ' +
      'verdict covers only the lists that answered (`total_checked`); the others keep their ' +
      'entry with status `error` or `timeout` and are counted in `unavailable_count`, so ' +
      '`clean: true` means "none of the lists that answered lists the IP". When no list ' +
      'answered there is no verdict: 504 when every list timed out, else 502, with a message ' +
      'naming the lists and why each failed.',
    params: paramsOf('blacklist', { ip: '127.0.0.2' }),
    data: dataSchema('blacklist'),
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
    errors: [400, 502, 504],
    handle({ req, ctx, signal }) {
      return ctx.engine.blacklist(queryParam(req, 'ip', true), { signal });
    },
  },
];
