/**
 * `GET /api/dns` and `GET /api/v1/dns/:domain` (SPEC 2.7, 2.8; CONTRACT §6 `dig +short` data)
 * and `GET /api/rdns` (SPEC 2.10, plus FCrDNS).
 * @module
 */
import { defineCapability } from '../descriptor.js';
import { DNS_TYPES } from './record-types.js';
import {
  dnsLookupDataSchema,
  dnsLookupParamsSchema,
  dnsLookupV1DataSchema,
  dnsLookupV1ParamsSchema,
  reverseDnsDataSchema,
  reverseDnsParamsSchema,
} from './schema.js';

const DNS_NOTES =
  'One question through the server-wide resolver (NETDIAG_DNS_SERVERS or the system resolvers, ' +
  'or DNS-over-HTTPS with NETDIAG_DOH_URL), answers cached for their TTL. The domain is ' +
  'validated (labels 1–63 characters, at most 253 in all; an IP address is refused) and IDNs ' +
  'are converted to punycode. CNAME chains appear in `records` as the resolver returns them. ' +
  'NXDOMAIN → 200 with `records: []` and `rcode`; SERVFAIL or REFUSED → 502; no answer → 504.';

export const dnsLookup = defineCapability({
  id: 'dnsLookup',
  params: dnsLookupParamsSchema,
  data: dnsLookupDataSchema,
  limit: 'general',
  run: (engine, params, context) => engine.dns(params, context),
  http: {
    method: 'get',
    path: '/api/dns',
    tag: 'DNS',
    summary: 'DNS records of a domain',
    description: DNS_NOTES,
    paramExamples: { domain: 'example.com', type: 'MX' },
    example: {
      domain: 'example.com',
      type: 'MX',
      rcode: 'NOERROR',
      records: [{ name: 'example.com', type: 15, TTL: 3600, data: '0 .' }],
    },
    errors: [400, 502, 504],
  },
  cli: { command: 'dns', operand: 'domain' },
});

export const dnsLookupV1 = defineCapability({
  id: 'dnsLookupV1',
  params: dnsLookupV1ParamsSchema,
  data: dnsLookupV1DataSchema,
  limit: 'general',
  run: (engine, { dnssec, ...params }, context) =>
    engine.dnsV1(dnssec ? { ...params, dnssec } : params, context),
  http: {
    method: 'get',
    path: '/api/v1/dns/:domain',
    tag: 'DNS',
    summary: 'DNS records of a domain (v1: SRV and PTR too, authority section)',
    description: `${DNS_NOTES} Record names end with a dot and the TTL field is \`ttl\`; \`authority\` holds the authority section (the SOA of a negative answer) in the same shape. Besides SRV and PTR, v1 takes the modern types: HTTPS and SVCB (RFC 9460; \`svc_params\` decodes them), DS, DNSKEY, RRSIG, NSEC, NSEC3, NSEC3PARAM, CDS, CDNSKEY (DNSSEC), TLSA (DANE), SSHFP and NAPTR, all in \`dig +short\` presentation. \`authenticated\` is the resolver's AD flag; \`dnssec=1\` sets the DO bit so RRSIGs come along; \`extended_errors\` carries RFC 8914 Extended DNS Errors when the resolver sends them (a SERVFAIL's codes are in the 502 message). The unversioned /api/dns keeps its eight types (${DNS_TYPES.join(', ')}).`,
    paramExamples: { domain: 'example.com', type: 'MX', dnssec: '1' },
    example: {
      domain: 'example.com',
      type: 'A',
      rcode: 'NOERROR',
      records: [{ name: 'example.com.', type: 1, ttl: 300, data: '93.184.215.14' }],
      authority: [],
      authenticated: false,
    },
    errors: [400, 502, 504],
  },
  tool: {
    name: 'dns_lookup',
    title: 'DNS lookup',
    description:
      'Records of one type (A, AAAA, MX, TXT, NS, CNAME, SOA, CAA, SRV, PTR, HTTPS, SVCB, DS, ' +
      'DNSKEY, RRSIG, NSEC, NSEC3, NSEC3PARAM, TLSA, SSHFP, NAPTR, CDS, CDNSKEY) for a domain, in ' +
      'dig +short presentation (HTTPS/SVCB also decoded), with the response code, the authority ' +
      "section, the resolver's AD flag and any Extended DNS Errors; dnssec=1 adds the RRSIGs. " +
      'Same answer as GET /api/v1/dns/{domain}.',
    probe: false,
    openWorld: true,
  },
  cli: { command: 'dns', flag: '--v1', operand: 'domain' },
});

export const reverseDns = defineCapability({
  id: 'reverseDns',
  params: reverseDnsParamsSchema,
  data: reverseDnsDataSchema,
  limit: 'general',
  run: (engine, params, context) => engine.reverseDns(params.ip, context),
  http: {
    method: 'get',
    path: '/api/rdns',
    tag: 'DNS',
    summary: 'Reverse DNS (PTR) of an IP address, forward-confirmed',
    description:
      'PTR lookup of the in-addr.arpa (IPv4) or ip6.arpa nibble (IPv6) name. `fcrdns` is true ' +
      'when a PTR name has an A/AAAA record equal to the IP (forward-confirmed reverse DNS). ' +
      'No PTR → 200 with hostname "". SERVFAIL → 502, no answer → 504.',
    paramExamples: { ip: '8.8.8.8' },
    example: {
      ip: '8.8.8.8',
      hostname: 'dns.google',
      ptr_record: '8.8.8.8.in-addr.arpa',
      hostnames: ['dns.google'],
      fcrdns: true,
      rcode: 'NOERROR',
    },
    errors: [400, 502, 504],
  },
  tool: {
    name: 'reverse_dns',
    title: 'Reverse DNS',
    description:
      'PTR names of an IP address and whether each name resolves back to it (forward-confirmed ' +
      'reverse DNS). Same answer as GET /api/rdns.',
    probe: false,
    openWorld: true,
  },
  cli: { command: 'rdns', operand: 'ip' },
});
