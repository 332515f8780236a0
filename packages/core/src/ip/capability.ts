/**
 * IP intelligence endpoints: `GET /api/lookup` (SPEC 2.5), `GET /api/v1/ip/:address` (SPEC 2.5
 * v1 form), `POST /api/bulk` (SPEC 2.13, CONTRACT §6) and `GET /api/asn` (shape designed here).
 * @module
 */
import { defineCapability, MAX_BODY_DEPTH } from '../descriptor.js';
import { BULK_MAX_IPS } from './bulk-lookup.js';
import {
  asnDataSchema,
  BOGON,
  bulkDataSchema,
  bulkLookupBodySchema,
  lookupDataSchema,
  lookupIpParamsSchema,
  lookupIpV1ParamsSchema,
  lookupV1DataSchema,
  searchAsnParamsSchema,
} from './schema.js';

const ATTRIBUTION =
  'Geolocation: DB-IP City Lite (IP geolocation by DB-IP, https://db-ip.com, CC BY 4.0) unless ' +
  'NETDIAG_GEOIP_DB names a MaxMind City database; AS data: @ip-location-db/asn (CC BY 4.0) ' +
  'unless NETDIAG_ASN_DB names a MaxMind ASN/ISP database.';

const EXAMPLE_LOOKUP = {
  ip: '8.8.8.8',
  location: {
    city: 'Mountain View',
    region: 'California',
    country: 'US',
    country_name: 'United States',
    continent: 'NA',
    latitude: 37.422,
    longitude: -122.085,
    timezone: 'America/Los_Angeles',
    postal_code: '',
    is_eu: false,
  },
  network: { asn: 15169, isp: 'Google LLC', org: 'Google LLC', as_name: 'Google LLC' },
  privacy: { hosting: true, proxy: false, mobile: false },
  bogon: false,
};

export const lookupIp = defineCapability({
  id: 'lookupIp',
  params: lookupIpParamsSchema,
  data: lookupDataSchema,
  limit: 'general',
  run: (engine, params) => engine.lookupIp(params.ip),
  http: {
    method: 'get',
    path: '/api/lookup',
    tag: 'IP intelligence',
    summary: 'Geolocation, network and privacy flags of any IPv4 or IPv6 address',
    description: `${BOGON} ${ATTRIBUTION}`,
    paramExamples: { ip: '8.8.8.8' },
    example: EXAMPLE_LOOKUP,
    errors: [400],
  },
  tool: {
    name: 'lookup_ip',
    title: 'Look up an IP address',
    description:
      'Location, network (AS number and ISP) and privacy flags (hosting, proxy or Tor exit, ' +
      'mobile) of one IPv4 or IPv6 address, from the embedded IP data. Same answer as GET /api/lookup.',
    probe: false,
    openWorld: false,
  },
  cli: { command: 'lookup', operand: 'ip' },
});

export const lookupIpV1 = defineCapability({
  id: 'lookupIpV1',
  params: lookupIpV1ParamsSchema,
  data: lookupV1DataSchema,
  limit: 'general',
  run: (engine, params) => engine.lookupIpV1(params.address),
  http: {
    method: 'get',
    path: '/api/v1/ip/:address',
    tag: 'IP intelligence',
    summary: 'Geolocation and network of any address (v1 form: numbers, no privacy)',
    description: `${BOGON} ${ATTRIBUTION}`,
    paramExamples: { address: '1.1.1.1' },
    example: (({ privacy: _, ...rest }) => rest)(EXAMPLE_LOOKUP),
    errors: [400],
  },
});

export const bulkLookup = defineCapability({
  id: 'bulkLookup',
  params: bulkLookupBodySchema,
  data: bulkDataSchema,
  limit: 'general',
  // `bulkLookup` checks that `ips` is a list of 1 to 50 entries, in the same words for every face.
  run: (engine, params) => engine.bulkLookup(params.ips as unknown[]),
  http: {
    method: 'post',
    path: '/api/bulk',
    tag: 'IP intelligence',
    summary: `Look up 1 to ${BULK_MAX_IPS} addresses in one request`,
    description:
      'Body `{"ips": [...]}` with `Content-Type: application/json`. Valid distinct addresses ' +
      '(after normalising) become `results` in order of first appearance; invalid entries are ' +
      'listed in `errors`; `total` = `results.length`. 400 when the body is not JSON, nests ' +
      `deeper than ${MAX_BODY_DEPTH} levels, \`ips\` is ` +
      `not an array, is empty or has more than ${BULK_MAX_IPS} entries, or holds no valid address. ${BOGON}`,
    paramExamples: { ips: ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'] },
    example: {
      total: 1,
      results: [
        {
          ip: '8.8.8.8',
          country: 'US',
          city: 'Mountain View',
          region: 'California',
          isp: 'Google LLC',
          org: 'Google LLC',
          asn: 15169,
          lat: 37.422,
          lon: -122.085,
          bogon: false,
        },
      ],
      errors: [
        {
          input: 'not-an-ip',
          error: 'Invalid IP address format: a valid IPv4 or IPv6 address is required.',
        },
      ],
    },
    errors: [400, 413],
  },
  tool: {
    name: 'bulk_lookup',
    title: 'Look up many IP addresses',
    description:
      'lookup_ip for 1 to 50 addresses at once; invalid entries are listed in errors. Same answer as POST /api/bulk.',
    probe: false,
    openWorld: false,
  },
  cli: { command: 'bulk', operand: 'ips' },
});

export const searchAsn = defineCapability({
  id: 'searchAsn',
  params: searchAsnParamsSchema,
  data: asnDataSchema,
  limit: 'general',
  run: (engine, params, context) => engine.searchAsn(params.q, context),
  http: {
    method: 'get',
    path: '/api/asn',
    tag: 'IP intelligence',
    summary: 'Origin AS of an IP, prefixes of an AS, or ASes matching an organisation name',
    description:
      '`q` is an IP address (→ origin AS and the announced range holding it; a bogon answers ' +
      'with `bogon: true` and no AS), an AS number `AS15169` or `15169` (→ holder name and every ' +
      'announced IPv4/IPv6 prefix as CIDRs, with counts), or an organisation name (→ up to 50 ' +
      'ASes: exact name, then prefix, then word match, case-insensitive; larger networks first). ' +
      `404 when the AS (or an IP's AS) is not in the data. ${ATTRIBUTION}`,
    paramExamples: { q: 'AS13335' },
    example: {
      query: 'cloudflare',
      type: 'name',
      total_matches: 1,
      results: [
        {
          asn: 13335,
          name: 'Cloudflare, Inc.',
          match: 'prefix',
          ipv4_prefix_count: 910,
          ipv6_prefix_count: 763,
          ipv4_address_count: 1615360,
        },
      ],
    },
    errors: [400, 404],
  },
  tool: {
    name: 'search_asn',
    title: 'Search autonomous systems',
    description:
      'q = an IP address (its origin AS and announced range), an AS number such as AS15169 (its ' +
      'name and prefixes) or an organisation name (matching ASes). Same answer as GET /api/asn.',
    probe: false,
    openWorld: false,
  },
  cli: { command: 'asn', operand: 'q' },
});
