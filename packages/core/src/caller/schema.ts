/**
 * The caller answers: `GET /api/ip` (SPEC 2.2), `GET /api/v1/ip` (SPEC 2.5 v1 form) and
 * `GET /api/score` (SPEC 2.4, with the evidence). The privacy pieces follow SPEC 2.3.
 * @module
 */
import { z } from 'zod';

/** The kind of network an address is on (SPEC 2.3). */
export const addressTypeSchema = z
  .enum(['residential', 'vpn', 'datacenter'])
  .describe(
    'vpn for any anonymiser (VPN, proxy, Tor), else datacenter for hosting networks, else residential',
  );
const scoreSchema = z
  .int()
  .min(0)
  .max(100)
  .describe('Cleanliness score, 0 (worst) to 100 (cleanest)');
/** The cleanliness grade of a score. */
export const gradeSchema = z.enum(['A', 'B', 'C', 'D']).describe('A ≥ 80, B ≥ 60, C ≥ 40, D below');
/** The fixed text of each grade. */
export const gradeLabelSchema = z
  .enum(['Clean', 'Mostly clean', 'Suspicious', 'High risk'])
  .describe('Fixed text per grade (A, B, C, D)');
const flagsSchema = z
  .array(z.string())
  .describe(
    'Fixed texts: "Tor exit node", "Privacy relay" (iCloud Private Relay egress), "Listed on N spam blacklist(s)", "Mobile network", "Residential ISP"',
  );
/** The booleans of the address type (SPEC 2.3): exactly one is true. */
const typeFlags = {
  is_vpn: z
    .boolean()
    .describe('Any anonymiser (VPN, proxy, Tor exit): true exactly when type is vpn'),
  is_datacenter: z
    .boolean()
    .describe('Datacenter/hosting network and no anonymiser: true exactly when type is datacenter'),
  is_residential: z
    .boolean()
    .describe(
      'Neither anonymiser nor datacenter (special-purpose addresses included): true exactly when type is residential',
    ),
};
const hosting = z
  .boolean()
  .describe('Hosting network (same source as /api/lookup privacy.hosting)');
const proxy = z
  .boolean()
  .describe('Anonymising proxy, including Tor exits (same as /api/lookup privacy.proxy)');
const asnSchema = z.int().nullable().describe('Origin AS number; null when unknown');
const connectionType = z
  .string()
  .describe('HTTP version of the connection: HTTP/1.0, HTTP/1.1, HTTP/2, HTTP/3');
const tlsVersion = z
  .string()
  .describe('TLS version of the connection (e.g. TLSv1.3); "" over plain HTTP');
const ipv6 = z.boolean().describe('True when the address is IPv6 (the caller connected over IPv6)');
const bogon = z
  .boolean()
  .describe(
    'True for special-purpose addresses (loopback, private, reserved): location and network are then empty',
  );
const locationFields = {
  city: z.string().describe('City; "" when unknown'),
  region: z.string().describe('State or region; "" when unknown'),
  country: z.string().describe('ISO 3166-1 alpha-2 code; "" when unknown'),
  country_name: z.string().describe('English country name'),
  continent: z.string().describe('Continent code: AF, AN, AS, EU, NA, OC or SA'),
};
const timezone = z.string().describe('IANA time zone');
const postalCode = z.string().describe('Postal code; "" when unknown');

/** `GET /api/ip` data (SPEC 2.2). */
export const callerIpDataSchema = z.strictObject({
  ip: z.string().describe("The caller's public IPv4 or IPv6 address"),
  location: z.strictObject({
    ...locationFields,
    latitude: z
      .string()
      .describe(
        'Approximate latitude as a decimal string (a number in the v1 form); "" when unknown',
      ),
    longitude: z
      .string()
      .describe(
        'Approximate longitude as a decimal string (a number in the v1 form); "" when unknown',
      ),
    timezone,
    postal_code: postalCode,
  }),
  network: z.strictObject({
    asn: asnSchema,
    isp: z.string().describe('ISP or organisation name'),
    connection_type: connectionType,
    tls_version: tlsVersion,
  }),
  privacy: z
    .strictObject({
      type: addressTypeSchema,
      score: scoreSchema,
      grade: gradeSchema,
      ...typeFlags,
      hosting,
      proxy,
    })
    .describe(
      'Privacy: the kind of network, the cleanliness score and grade, and the flags behind them',
    ),
  is_eu: z.boolean().describe('True when the address is in an EU member state'),
  ipv6,
  bogon,
});
export type CallerIpData = z.infer<typeof callerIpDataSchema>;

/** A record of the v1 DNS shape (SPEC 2.7/2.8 v1): owner with the trailing dot, `ttl`. */
export const v1AuthorityRecordSchema = z.strictObject({
  name: z.string().describe('Owner name with the trailing dot'),
  type: z.int().describe('Numeric record type (6 = SOA)'),
  ttl: z.int().describe('Time to live'),
  data: z.string().describe('Record data, dig +short presentation'),
});

/** `GET /api/v1/ip` data (SPEC 2.5, v1 form). */
export const callerIpV1DataSchema = z.strictObject({
  ip: z.string().describe("The caller's public IPv4 or IPv6 address"),
  location: z.strictObject({
    ...locationFields,
    latitude: z.number().nullable().describe('Approximate latitude (number); null when unknown'),
    longitude: z.number().nullable().describe('Approximate longitude (number); null when unknown'),
    timezone,
    postal_code: postalCode,
    is_eu: z
      .boolean()
      .describe('True when the address is in an EU member state (inside location in v1)'),
  }),
  network: z.strictObject({
    asn: asnSchema,
    isp: z.string().describe('ISP name'),
    org: z.string().describe('Organisation using the address'),
    as_name: z.string().describe('AS holder name'),
    connection_type: connectionType,
    tls_version: tlsVersion,
  }),
  privacy: z.strictObject({
    type: addressTypeSchema,
    score: scoreSchema,
    grade: gradeSchema,
    label: gradeLabelSchema,
    ...typeFlags,
    hosting,
    proxy,
  }),
  ipv6,
  authority: z
    .array(v1AuthorityRecordSchema)
    .describe(
      'Authority section of the reverse-DNS (PTR) lookup of the address, in the v1 DNS record ' +
        'shape: the reverse zone SOA when the address has no PTR, usually [] otherwise; ' +
        '[] for special-purpose addresses or when DNS does not answer within 2 s.',
    ),
  bogon,
});
export type CallerIpV1Data = z.infer<typeof callerIpV1DataSchema>;

/** One item of the score's evidence: a signal, the points it added, what and where. */
export const scoreEvidenceSchema = z.strictObject({
  signal: z
    .enum([
      'tor_exit',
      'vpn',
      'proxy',
      'datacenter',
      'dnsbl_listed',
      'mobile',
      'residential',
      'dnsbl_unavailable',
    ])
    .describe('Which signal'),
  weight: z.int().describe('Points this item added to the score (0: information only)'),
  detail: z.string().describe('What was found'),
  source: z.string().describe('Where: the data set and its entry, or the DNSBL zone(s)'),
});
const evidenceSchema = z
  .array(scoreEvidenceSchema)
  .describe(
    'Every signal that moved the score, its weight and source; lists that did not answer are named too',
  );

/** `GET /api/score` data (SPEC 2.4, plus the evidence list). */
export const scoreDataSchema = z.strictObject({
  ip: z.string().describe("The caller's address"),
  location: z.strictObject({
    city: locationFields.city,
    country: locationFields.country,
    timezone,
  }),
  network: z.strictObject({
    isp: z.string().describe('ISP name'),
    asn: asnSchema,
    tls_version: tlsVersion,
  }),
  privacy: z.strictObject({
    type: addressTypeSchema,
    score: scoreSchema,
    grade: gradeSchema,
    label: gradeLabelSchema,
    flags: flagsSchema,
    ...typeFlags,
    evidence: evidenceSchema,
  }),
  ipv6,
  bogon,
});
export type ScoreData = z.infer<typeof scoreDataSchema>;
