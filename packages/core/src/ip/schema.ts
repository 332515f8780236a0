/**
 * IP intelligence answers: `GET /api/lookup` (SPEC 2.5), `GET /api/v1/ip/:address` (SPEC 2.5 v1
 * form), `POST /api/bulk` (SPEC 2.13, CONTRACT §6) and `GET /api/asn` (shape designed here).
 * @module
 */
import { z } from 'zod';
import { ipAddressInput } from '../schemas/common.js';
import { parameters, valueParameter } from '../schemas/param.js';
import { BULK_MAX_IPS } from './bulk-lookup.js';

export const BOGON =
  'Private, reserved and other special-purpose addresses (IANA registries) are answered with ' +
  'empty location and network and `bogon: true`.';

// --- Parameters ---

export const lookupIpParamsSchema = parameters({
  ip: ipAddressInput.describe('IPv4 or IPv6 address'),
});
export type LookupIpParams = z.input<typeof lookupIpParamsSchema>;

export const lookupIpV1ParamsSchema = parameters({
  address: ipAddressInput.describe('IPv4 or IPv6 address'),
});
export type LookupIpV1Params = z.input<typeof lookupIpV1ParamsSchema>;

/**
 * The bulk body. Only addresses are admitted here although the server tolerates other entries
 * (they are reported in `errors`): a list with no valid address at all is a 400 (CONTRACT §6).
 */
export const bulkLookupBodySchema = z.object({
  ips: valueParameter(
    z
      .array(ipAddressInput)
      .min(1)
      .max(BULK_MAX_IPS)
      .describe(`1 to ${BULK_MAX_IPS} IPv4 or IPv6 addresses`),
  ),
});
export type BulkLookupBody = z.input<typeof bulkLookupBodySchema>;

const AS_NUMBER =
  '(?:[0-9]{1,9}|[1-3][0-9]{9}|4[01][0-9]{8}|42[0-8][0-9]{7}|429[0-3][0-9]{6}|4294[0-8][0-9]{5}|' +
  '42949[0-5][0-9]{4}|429496[0-6][0-9]{3}|4294967[01][0-9]{2}|42949672[0-8][0-9]|429496729[0-5])';

export const searchAsnParamsSchema = parameters({
  q: z
    .union([
      ipAddressInput,
      // AS15169, AS 15169 or 15169, up to 4294967295 (RFC 6793).
      z.string().regex(new RegExp(`^(?:[Aa][Ss] ?)?${AS_NUMBER}$`)),
      // A name: 2 to 200 characters after trimming, with a letter, no ":" (that reads as a
      // mistyped IPv6 address) and not an AS number.
      z
        .string()
        .min(2)
        .max(200)
        .regex(/^(?![Aa][Ss]\s?\d+$)(?=[^:]*[A-Za-z])[^\s:][^:]*[^\s:]$/),
    ])
    .describe('IP address, AS number (AS15169) or organisation name'),
});
export type SearchAsnParams = z.input<typeof searchAsnParamsSchema>;

// --- Data ---

/** Geolocation of an address, as `/api/lookup` and `/api/v1/ip` answer it. */
export const locationSchema = z
  .strictObject({
    city: z.string().describe('City, "" when unknown'),
    region: z.string().describe('State or region (first-level subdivision), "" when unknown'),
    country: z.string().describe('ISO 3166-1 alpha-2 country code, "" when unknown'),
    country_name: z.string().describe('English country name (Intl.DisplayNames)'),
    continent: z.string().describe('Continent code: AF, AN, AS, EU, NA, OC or SA'),
    latitude: z.number().nullable().describe('Approximate latitude (number); null when unknown'),
    longitude: z.number().nullable().describe('Approximate longitude (number); null when unknown'),
    timezone: z
      .string()
      .describe(
        'IANA time zone: from the database when it has one, else derived from the coordinates',
      ),
    postal_code: z
      .string()
      .describe('Postal code; "" when the data has none (DB-IP Lite has none)'),
    is_eu: z.boolean().describe('True when the country is one of the 27 EU member states'),
  })
  .describe('Geolocation of the address, with its continent and whether its country is in the EU');

/** Who routes an address: the origin AS and its holder, the ISP and organisation. */
export const networkSchema = z.strictObject({
  asn: z
    .int()
    .nullable()
    .describe('Origin autonomous system number; null when no AS announces the address'),
  isp: z.string().describe('ISP name (the AS holder unless an ISP database is configured)'),
  org: z.string().describe('Organisation (the AS holder unless an ISP database is configured)'),
  as_name: z.string().describe('AS holder name from the ASN data'),
});

const bogonSchema = z.boolean().describe(`True for special-purpose addresses. ${BOGON}`);

/** `GET /api/lookup` data (SPEC 2.5). */
export const lookupDataSchema = z.strictObject({
  ip: z.string().describe('The address looked up, normalised (IPv4-mapped IPv6 shown as IPv4)'),
  location: locationSchema,
  network: networkSchema,
  privacy: z
    .strictObject({
      hosting: z
        .boolean()
        .describe('Hosting/datacenter network (curated AS list or AS-name keyword)'),
      proxy: z.boolean().describe('Tor exit (Tor bulk exit list) or listed proxy/relay network'),
      mobile: z.boolean().describe('Mobile carrier network (curated AS list or AS-name keyword)'),
    })
    .describe(
      'Privacy flags: hosting, proxy and mobile (the full privacy object is in /api/ip and /api/score)',
    ),
  bogon: bogonSchema,
});
export type LookupData = z.infer<typeof lookupDataSchema>;

/** `GET /api/v1/ip/:address` data (SPEC 2.5, v1 form: no privacy). */
export const lookupV1DataSchema = z.strictObject({
  ip: z.string().describe('The address looked up, normalised'),
  location: locationSchema,
  network: networkSchema,
  bogon: bogonSchema,
});
export type LookupV1Data = z.infer<typeof lookupV1DataSchema>;

/** One `POST /api/bulk` result (SPEC 2.13). */
export const bulkAnswerItemSchema = z.strictObject({
  ip: z.string().describe('Normalised address'),
  country: z.string().describe('ISO 3166-1 alpha-2 code'),
  city: z.string().describe('City'),
  region: z.string().describe('State or region'),
  isp: z.string().describe('ISP name'),
  org: z.string().describe('Organisation'),
  asn: z.int().nullable().describe('Origin AS number'),
  lat: z.number().nullable().describe('Latitude'),
  lon: z.number().nullable().describe('Longitude'),
  bogon: bogonSchema,
});

/** An entry of `POST /api/bulk` that is not an IP address, with the reason. */
export const bulkEntryErrorSchema = z.strictObject({
  input: z.string().describe('The entry as sent'),
  error: z.string().describe('Why it was rejected'),
});

/** `POST /api/bulk` data (SPEC 2.13, CONTRACT §6). */
export const bulkDataSchema = z.strictObject({
  total: z.int().describe('Number of entries in results'),
  results: z
    .array(bulkAnswerItemSchema)
    .describe('Valid distinct addresses in order of first appearance'),
  errors: z
    .array(bulkEntryErrorSchema)
    .describe(
      'Entries that are not valid IP addresses, each with the reason; they do not fail the request',
    ),
});
export type BulkData = z.infer<typeof bulkDataSchema>;

/** Why a privacy flag is set: which data said so, in words a person can check. */
export const privacySignalSchema = z.strictObject({
  signal: z.enum(['hosting', 'vpn', 'proxy', 'relay', 'tor', 'mobile', 'residential']),
  source: z.enum([
    'range-list',
    'block',
    'address-list',
    'asn-list',
    'as-name-keyword',
    'tor-exit-list',
    'isp-list',
    'no-other-signal',
  ]),
  evidence: z.string().describe('Which data said so, e.g. the list and its entry'),
  dataset: z.string().describe('The data behind it: upstream repository, feed or curated file'),
  version: z
    .string()
    .describe('Its version: upstream commit and date, a feed fetch time, or curated'),
});

/** The privacy classification of an address (SPEC 2.3), as `GET /api/asn` answers it. */
export const privacySchema = z
  .strictObject({
    type: z
      .enum(['residential', 'vpn', 'datacenter'])
      .describe(
        'Summary of the deciding signal: vpn for an anonymiser (VPN, proxy, privacy relay, Tor), datacenter for hosting, else residential',
      ),
    is_hosting: z.boolean(),
    is_vpn: z.boolean(),
    is_proxy: z.boolean().describe('Anonymising proxy: Tor exit, privacy relay or listed proxy'),
    is_relay: z
      .boolean()
      .describe('Privacy relay egress, e.g. iCloud Private Relay (is_proxy is then true too)'),
    is_tor: z.boolean(),
    is_mobile: z.boolean(),
    is_residential: z.boolean(),
    provider: z
      .string()
      .describe('Who runs the address when a published range says, e.g. AWS; "" if unknown'),
    signals: z.array(privacySignalSchema).describe('The signals that decided, most specific first'),
  })
  .describe('Privacy classification of the address with its evidence');

/** `GET /api/asn` data when `q` is an IP address. */
export const asnIpSchema = z
  .strictObject({
    query: z.string().describe('q as sent'),
    type: z.literal('ip'),
    ip: z.string().describe('Normalised address'),
    bogon: z.boolean().describe('Special-purpose address (no AS)'),
    bogon_reason: z.string().describe('The special-purpose range and its RFC'),
    asn: z.int().nullable().describe('Origin AS number'),
    name: z.string().describe('AS holder name'),
    org: z.string().describe('Organisation'),
    isp: z.string().describe('ISP'),
    range: z
      .strictObject({
        first: z.string().describe('First address of the announced range holding the address'),
        last: z.string().describe('Last address of the range'),
        cidrs: z.array(z.string()).describe('The range as CIDR blocks'),
      })
      .nullable(),
    prefix: z.string().describe('The CIDR block of the range that holds the address'),
    privacy: privacySchema.nullable(),
  })
  .describe('q is an IP address');

/** `GET /api/asn` data when `q` is an AS number. */
export const asnNumberSchema = z
  .strictObject({
    query: z.string().describe('q as sent'),
    type: z.literal('asn'),
    asn: z.int().describe('AS number'),
    name: z.string().describe('AS holder name'),
    ipv4_prefix_count: z.int().describe('Number of announced IPv4 CIDR blocks'),
    ipv6_prefix_count: z.int().describe('Number of announced IPv6 CIDR blocks'),
    ipv4_address_count: z.int().describe('IPv4 addresses announced'),
    prefixes: z
      .strictObject({ ipv4: z.array(z.string()), ipv6: z.array(z.string()) })
      .describe('Announced CIDRs'),
    privacy: privacySchema,
  })
  .describe('q is an AS number (AS15169 or 15169)');

/** One AS whose holder name matches `q`. */
export const asnNameMatchSchema = z.strictObject({
  asn: z.int(),
  name: z.string(),
  match: z.enum(['exact', 'prefix', 'word']).describe('How the name matched'),
  ipv4_prefix_count: z.int(),
  ipv6_prefix_count: z.int(),
  ipv4_address_count: z.int(),
});

/** `GET /api/asn` data when `q` is an organisation name. */
export const asnNameSchema = z
  .strictObject({
    query: z.string().describe('q as sent'),
    type: z.literal('name'),
    total_matches: z.int().describe('Matches before the limit of 50'),
    results: z
      .array(asnNameMatchSchema)
      .describe(
        'Best first: exact, prefix, word (case-insensitive); then larger networks; at most 50',
      ),
  })
  .describe('q is an organisation name');

/** `GET /api/asn` data: one of three shapes, told apart by `type`. */
export const asnDataSchema = z.discriminatedUnion('type', [
  asnIpSchema,
  asnNumberSchema,
  asnNameSchema,
]);
export type AsnData = z.infer<typeof asnDataSchema>;
