/**
 * IP intelligence endpoints: `GET /api/lookup` (SPEC 2.5), `GET /api/v1/ip/:address` (SPEC 2.5
 * v1 form), `POST /api/bulk` (SPEC 2.13, CONTRACT §6) and `GET /api/asn` (shape designed here).
 * @module
 */
import { type AsnSearchResult, BULK_MAX_IPS, InvalidInputError } from '@netdiag/core';
import type { Request } from 'express';
import { bodySchema, dataSchema, paramsOf } from '../openapi/core-schemas.js';
import { pathParam, queryParam } from '../params.js';
import type { RouteDef } from './types.js';

const ATTRIBUTION =
  'Geolocation: DB-IP City Lite (IP geolocation by DB-IP, https://db-ip.com, CC BY 4.0) unless ' +
  'NETDIAG_GEOIP_DB names a MaxMind City database; AS data: @ip-location-db/asn (CC BY 4.0) ' +
  'unless NETDIAG_ASN_DB names a MaxMind ASN/ISP database.';
const BOGON =
  'Private, reserved and other special-purpose addresses (IANA registries) are answered with ' +
  'empty location and network and `bogon: true`.';

// --- Bulk body parsing (CONTRACT §6) ---

/**
 * Deepest nesting a body may have. The bulk body needs 2; anything deeper is refused before it is
 * parsed, so no recursive step (parse, stringify, validation) meets a body thousands of levels
 * deep (issue 20 item 4: 5,000 nested arrays in 10 KB overflowed JSON.stringify's stack).
 */
export const MAX_BODY_DEPTH = 32;

/** The deepest `[`/`{` nesting of JSON text, strings skipped; one linear pass. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** `ips` of a `{"ips": [...]}` body, read from the raw body; 400 with a clear message when it is not such an object. */
export function parseBulkBody(req: Request): unknown {
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
  const depth = jsonDepth(text);
  if (depth > MAX_BODY_DEPTH) {
    throw new InvalidInputError(
      `The request body nests ${depth} levels deep: at most ${MAX_BODY_DEPTH} levels are accepted ({"ips": ["8.8.8.8", ...]} needs 2)`,
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
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidInputError(
      'The body must be a JSON object with an "ips" array: {"ips": ["8.8.8.8", ...]}',
      'ips',
    );
  }
  return (body as { ips?: unknown }).ips;
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
    params: paramsOf('lookupIp', { ip: '8.8.8.8' }),
    data: dataSchema('lookupIp'),
    example: EXAMPLE_LOOKUP,
    errors: [400],
    handle({ req, ctx }) {
      const ip = queryParam(req, 'ip', true);
      // `lookup` rejects a bad address itself (the same SPEC §7 message).
      return ctx.engine.lookupIp(ip);
    },
  },
  {
    method: 'get',
    path: '/api/v1/ip/:address',
    operationId: 'lookupIpV1',
    tag: 'IP intelligence',
    summary: 'Geolocation and network of any address (v1 form: numbers, no privacy)',
    description: `${BOGON} ${ATTRIBUTION}`,
    params: paramsOf('lookupIpV1', { address: '1.1.1.1' }, { path: ['address'] }),
    data: dataSchema('lookupIpV1'),
    example: (({ privacy: _, ...rest }) => rest)(EXAMPLE_LOOKUP),
    errors: [400],
    handle({ req, ctx }) {
      const address = pathParam(req, 'address');
      return ctx.engine.lookupIpV1(address);
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
      'listed in `errors`; `total` = `results.length`. 400 when the body is not JSON, nests ' +
      `deeper than ${MAX_BODY_DEPTH} levels, \`ips\` is ` +
      `not an array, is empty or has more than ${BULK_MAX_IPS} entries, or holds no valid address. ${BOGON}`,
    body: {
      schema: bodySchema('bulkLookup'),
      example: { ips: ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'] },
    },
    data: dataSchema('bulkLookup'),
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
      // `bulkLookup` checks that `ips` is an array, in the words the MCP tool gives too.
      return ctx.engine.bulkLookup(parseBulkBody(req) as unknown[]);
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
    params: paramsOf('searchAsn', { q: 'AS13335' }),
    data: dataSchema('searchAsn'),
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
      const q = queryParam(req, 'q', true);
      return ctx.engine.searchAsn(q, { signal });
    },
  },
];
