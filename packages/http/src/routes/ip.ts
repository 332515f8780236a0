/**
 * IP intelligence endpoints: `GET /api/lookup` (SPEC 2.5), `GET /api/v1/ip/:address` (SPEC 2.5
 * v1 form), `POST /api/bulk` (SPEC 2.13, CONTRACT §6) and `GET /api/asn` (shape designed here).
 * @module
 */
import {
  type AsnSearchResult,
  BULK_MAX_IPS,
  bulkLookup,
  InvalidInputError,
  searchAsn,
} from '@netdiag/core';
import type { Request } from 'express';
import {
  arr,
  bool,
  enumOf,
  int,
  type JsonSchema,
  nullable,
  num,
  obj,
  str,
} from '../openapi/schema.js';
import { pathParam, queryParam } from '../params.js';
import { bulkItem, ipDataService, lookupDataJson, v1IpDataJson } from '../services/ip-data.js';
import type { RouteDef } from './types.js';

const ATTRIBUTION =
  'Geolocation: DB-IP City Lite (IP geolocation by DB-IP, https://db-ip.com, CC BY 4.0) unless ' +
  'NETDIAG_GEOIP_DB names a MaxMind City database; AS data: @ip-location-db/asn (CC BY 4.0) ' +
  'unless NETDIAG_ASN_DB names a MaxMind ASN/ISP database.';
const BOGON =
  'Private, reserved and other special-purpose addresses (IANA registries) are answered with ' +
  'empty location and network and `bogon: true`.';

// --- Schemas ---

const locationSchema = obj(
  {
    city: str('City, "" when unknown'),
    region: str('State or region (first-level subdivision), "" when unknown'),
    country: str('ISO 3166-1 alpha-2 country code, "" when unknown'),
    country_name: str('English country name (Intl.DisplayNames)'),
    continent: str('Continent code: AF, AN, AS, EU, NA, OC or SA'),
    latitude: nullable(num('Approximate latitude (number); null when unknown')),
    longitude: nullable(num('Approximate longitude (number); null when unknown')),
    timezone: str(
      'IANA time zone: from the database when it has one, else derived from the coordinates',
    ),
    postal_code: str('Postal code; "" when the data has none (DB-IP Lite has none)'),
    is_eu: bool('True when the country is one of the 27 EU member states'),
  },
  { description: 'Geolocation (added to SPEC 2.5: continent, is_eu)' },
);

const networkSchema = obj({
  asn: nullable(int('Origin autonomous system number; null when no AS announces the address')),
  isp: str('ISP name (the AS holder unless an ISP database is configured)'),
  org: str('Organisation (the AS holder unless an ISP database is configured)'),
  as_name: str('AS holder name from the ASN data'),
});

const bogonSchema = bool(`True for special-purpose addresses. ${BOGON}`);

const lookupSchema = obj({
  ip: str('The address looked up, normalised (IPv4-mapped IPv6 shown as IPv4)'),
  location: locationSchema,
  network: networkSchema,
  privacy: obj(
    {
      hosting: bool('Hosting/datacenter network (curated AS list or AS-name keyword)'),
      proxy: bool('Tor exit (Tor bulk exit list) or listed proxy/relay network'),
      mobile: bool('Mobile carrier network (curated AS list or AS-name keyword)'),
    },
    { description: 'Privacy flags (SPEC 2.3: only these three in /api/lookup)' },
  ),
  bogon: bogonSchema,
});

const v1Schema = obj({
  ip: str('The address looked up, normalised'),
  location: locationSchema,
  network: networkSchema,
  bogon: bogonSchema,
});

const bulkSchema = obj({
  total: int('Number of entries in results'),
  results: arr(
    obj({
      ip: str('Normalised address'),
      country: str('ISO 3166-1 alpha-2 code'),
      city: str('City'),
      region: str('State or region (added)'),
      isp: str('ISP name'),
      org: str('Organisation'),
      asn: nullable(int('Origin AS number (added)')),
      lat: nullable(num('Latitude')),
      lon: nullable(num('Longitude')),
      bogon: bogonSchema,
    }),
    'Valid distinct addresses in order of first appearance',
  ),
  errors: arr(
    obj({ input: str('The entry as sent'), error: str('Why it was rejected') }),
    'Entries that are not valid IP addresses (added, CONTRACT §6)',
  ),
});

const privacySchema = obj(
  {
    type: enumOf(['residential', 'vpn', 'datacenter'], 'SPEC 2.3 summary'),
    is_hosting: bool(),
    is_vpn: bool(),
    is_proxy: bool(),
    is_tor: bool(),
    is_mobile: bool(),
    is_residential: bool(),
    signals: arr(
      obj({
        signal: enumOf(['hosting', 'vpn', 'proxy', 'tor', 'mobile', 'residential']),
        source: enumOf([
          'asn-list',
          'as-name-keyword',
          'tor-exit-list',
          'isp-list',
          'no-other-signal',
        ]),
        evidence: str('Which data said so, e.g. the list file and its reason'),
      }),
    ),
  },
  { description: 'Privacy classification of the AS with its evidence' },
);

const asnIpSchema: JsonSchema = obj(
  {
    query: str('q as sent'),
    type: { const: 'ip' },
    ip: str('Normalised address'),
    bogon: bool('Special-purpose address (no AS)'),
    bogon_reason: str('The special-purpose range and its RFC'),
    asn: nullable(int('Origin AS number')),
    name: str('AS holder name'),
    org: str('Organisation'),
    isp: str('ISP'),
    range: nullable(
      obj({
        first: str('First address of the announced range holding the address'),
        last: str('Last address of the range'),
        cidrs: arr(str(), 'The range as CIDR blocks'),
      }),
    ),
    prefix: str('The CIDR block of the range that holds the address'),
    privacy: nullable(privacySchema),
  },
  { description: 'q is an IP address' },
);

const asnNumberSchema: JsonSchema = obj(
  {
    query: str('q as sent'),
    type: { const: 'asn' },
    asn: int('AS number'),
    name: str('AS holder name'),
    ipv4_prefix_count: int('Number of announced IPv4 CIDR blocks'),
    ipv6_prefix_count: int('Number of announced IPv6 CIDR blocks'),
    ipv4_address_count: int('IPv4 addresses announced'),
    prefixes: obj({ ipv4: arr(str()), ipv6: arr(str()) }, { description: 'Announced CIDRs' }),
    privacy: privacySchema,
  },
  { description: 'q is an AS number (AS15169 or 15169)' },
);

const asnNameSchema: JsonSchema = obj(
  {
    query: str('q as sent'),
    type: { const: 'name' },
    total_matches: int('Matches before the limit of 50'),
    results: arr(
      obj({
        asn: int(),
        name: str(),
        match: enumOf(['exact', 'prefix', 'word'], 'How the name matched'),
        ipv4_prefix_count: int(),
        ipv6_prefix_count: int(),
        ipv4_address_count: int(),
      }),
      'Best first: exact, prefix, word (case-insensitive); then larger networks; at most 50',
    ),
  },
  { description: 'q is an organisation name' },
);

// --- Bulk body parsing (CONTRACT §6) ---

/** Reads `{"ips": [...]}` from the raw body; 400 with a clear message otherwise. */
export function parseBulkBody(req: Request): unknown[] {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new InvalidInputError(
      `Send the body as JSON with Content-Type: application/json (got ${type ? `"${type}"` : 'no Content-Type'})`,
      'body',
    );
  }
  const raw: unknown = req.body;
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  if (text.trim() === '') {
    throw new InvalidInputError(
      'The request body is empty: send {"ips": ["8.8.8.8", ...]}',
      'body',
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(
      `The request body is not valid JSON (${(error as Error).message})`,
      'body',
    );
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('ips' in body)) {
    throw new InvalidInputError(
      'The body must be a JSON object with an "ips" array: {"ips": ["8.8.8.8", ...]}',
      'ips',
    );
  }
  const ips = (body as { ips: unknown }).ips;
  if (!Array.isArray(ips)) {
    throw new InvalidInputError('"ips" must be an array of IPv4 or IPv6 address strings', 'ips');
  }
  return ips;
}

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

export const ipRoutes: RouteDef[] = [
  {
    method: 'get',
    path: '/api/lookup',
    operationId: 'lookupIp',
    tag: 'IP intelligence',
    summary: 'Geolocation, network and privacy flags of any IPv4 or IPv6 address',
    description: `${BOGON} ${ATTRIBUTION}`,
    params: [
      {
        name: 'ip',
        in: 'query',
        required: true,
        description: 'IPv4 or IPv6 address',
        schema: str(),
        example: '8.8.8.8',
      },
    ],
    data: lookupSchema,
    example: EXAMPLE_LOOKUP,
    errors: [400],
    handle({ req, ctx }) {
      const ip = queryParam(req, 'ip', 'an IPv4 or IPv6 address', true);
      // `lookup` rejects a bad address itself (the same SPEC §7 message).
      return ipDataService(ctx).withDatasets((datasets) => lookupDataJson(datasets.lookup(ip)));
    },
  },
  {
    method: 'get',
    path: '/api/v1/ip/:address',
    operationId: 'lookupIpV1',
    tag: 'IP intelligence',
    summary: 'Geolocation and network of any address (v1 form: numbers, no privacy)',
    description: `${BOGON} ${ATTRIBUTION}`,
    params: [
      {
        name: 'address',
        in: 'path',
        description: 'IPv4 or IPv6 address',
        schema: str(),
        example: '1.1.1.1',
      },
    ],
    data: v1Schema,
    example: (({ privacy: _, ...rest }) => rest)(EXAMPLE_LOOKUP),
    errors: [400],
    handle({ req, ctx }) {
      const address = pathParam(req, 'address');
      return ipDataService(ctx).withDatasets((datasets) => v1IpDataJson(datasets.lookup(address)));
    },
  },
  {
    method: 'post',
    path: '/api/bulk',
    operationId: 'bulkLookup',
    tag: 'IP intelligence',
    summary: `Look up 1 to ${BULK_MAX_IPS} addresses in one request`,
    description:
      'Body `{"ips": [...]}` with `Content-Type: application/json`. Valid distinct addresses ' +
      '(after normalising) become `results` in order of first appearance; invalid entries are ' +
      'listed in `errors`; `total` = `results.length`. 400 when the body is not JSON, `ips` is ' +
      `not an array, is empty or has more than ${BULK_MAX_IPS} entries, or holds no valid address. ${BOGON}`,
    body: {
      schema: obj({
        ips: arr(str(), `1 to ${BULK_MAX_IPS} IPv4 or IPv6 addresses`),
      }),
      example: { ips: ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'] },
    },
    data: bulkSchema,
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
    async handle({ req, ctx }) {
      const ips = parseBulkBody(req);
      const datasets = await ipDataService(ctx).datasets();
      const { results, errors } = await bulkLookup({ ips, datasets, maxIps: BULK_MAX_IPS });
      return { total: results.length, results: results.map(bulkItem), errors };
    },
  },
  {
    method: 'get',
    path: '/api/asn',
    operationId: 'searchAsn',
    tag: 'IP intelligence',
    summary: 'Origin AS of an IP, prefixes of an AS, or ASes matching an organisation name',
    description:
      '`q` is an IP address (→ origin AS and the announced range holding it; a bogon answers ' +
      'with `bogon: true` and no AS), an AS number `AS15169` or `15169` (→ holder name and every ' +
      'announced IPv4/IPv6 prefix as CIDRs, with counts), or an organisation name (→ up to 50 ' +
      'ASes: exact name, then prefix, then word match, case-insensitive; larger networks first). ' +
      `404 when the AS (or an IP's AS) is not in the data. ${ATTRIBUTION}`,
    params: [
      {
        name: 'q',
        in: 'query',
        required: true,
        description: 'IP address, AS number (AS15169) or organisation name',
        schema: str(),
        example: 'AS13335',
      },
    ],
    data: { oneOf: [asnIpSchema, asnNumberSchema, asnNameSchema] },
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
    async handle({ req, ctx, signal }): Promise<AsnSearchResult> {
      const q = queryParam(
        req,
        'q',
        'an IP address, an AS number such as AS15169, or an organisation name',
        true,
      );
      const datasets = await ipDataService(ctx).datasets();
      return searchAsn({ q, datasets, signal });
    },
  },
];
