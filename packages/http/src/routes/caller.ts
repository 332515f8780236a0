/**
 * Caller endpoints and the breach check: `GET /api/ip`, `GET /api/v1/ip`, `GET /api/score`
 * (SPEC 2.2–2.5) and `GET /api/breach` (SPEC 2.6).
 * @module
 */
import { describeScoreTable } from '@netdiag/core';
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
import { queryParam } from '../params.js';
import { runBreachCheck } from '../services/breach.js';
import {
  connectionInfo,
  inspectAddress,
  ipData,
  reverseAuthority,
  scoreData,
  v1CallerData,
} from '../services/caller.js';
import type { RouteDef } from './types.js';

// --- Shared pieces ---

const CALLER =
  "The caller's address is the socket address, or with NETDIAG_TRUST_PROXY the forwarded " +
  'address; IPv4-mapped IPv6 is shown as IPv4. Special-purpose addresses (a loopback or private ' +
  'caller) are answered with empty location and network and `bogon: true`.';
const SCORE =
  `Cleanliness score (one formula for every endpoint): ${describeScoreTable()} ` +
  'Signals come from IP intelligence (curated AS lists, AS-name keywords, the Tor Project exit ' +
  'list) and from the 12 DNSBLs of /api/blacklist (queried in parallel under one 5 s deadline, ' +
  'cached 10 min per address; lists that did not answer are named in the evidence of /api/score ' +
  'and the score uses the lists that did).';
const CONNECTION =
  'network.connection_type is the HTTP version the caller speaks to this server (HTTP/1.0, ' +
  'HTTP/1.1); network.tls_version is the TLS version (e.g. TLSv1.3) when the server terminates ' +
  'TLS itself (NETDIAG_TLS_CERT/NETDIAG_TLS_KEY) and "" for plain HTTP. Behind a trusted proxy ' +
  '(NETDIAG_TRUST_PROXY) both may be reported by the proxy in X-Forwarded-HTTP-Version and ' +
  'X-Forwarded-TLS-Version.';

const typeSchema = enumOf(
  ['residential', 'vpn', 'datacenter'],
  'vpn for any anonymiser (VPN, proxy, Tor), else datacenter for hosting networks, else residential',
);
const scoreSchema = int('Cleanliness score, 0 (worst) to 100 (cleanest)', {
  minimum: 0,
  maximum: 100,
});
const gradeSchema = enumOf(['A', 'B', 'C', 'D'], 'A ≥ 80, B ≥ 60, C ≥ 40, D below');
const labelSchema = enumOf(
  ['Clean', 'Mostly clean', 'Suspicious', 'High risk'],
  'Fixed text per grade (A, B, C, D)',
);
const flagsSchema = arr(
  str(),
  'Fixed texts: "Tor exit node", "Listed on N spam blacklist(s)", "Mobile network", "Residential ISP"',
);
const isVpn = bool('VPN provider detected');
const isDatacenter = bool('Datacenter/hosting network detected');
const isResidential = bool('Residential ISP (an access network with no other signal)');
const hosting = bool('Hosting network (same source as /api/lookup privacy.hosting)');
const proxy = bool('Anonymising proxy, including Tor exits (same as /api/lookup privacy.proxy)');
const asnSchema = nullable(int('Origin AS number; null when unknown'));
const connectionType = str('HTTP version of the connection: HTTP/1.0, HTTP/1.1, HTTP/2, HTTP/3');
const tlsVersion = str('TLS version of the connection (e.g. TLSv1.3); "" over plain HTTP');
const ipv6 = bool('True when the address is IPv6 (the caller connected over IPv6)');
const bogon = bool('True for special-purpose addresses (added, CONTRACT §2)');
const locationFields: Record<string, JsonSchema> = {
  city: str('City; "" when unknown'),
  region: str('State or region; "" when unknown'),
  country: str('ISO 3166-1 alpha-2 code; "" when unknown'),
  country_name: str('English country name'),
  continent: str('Continent code: AF, AN, AS, EU, NA, OC or SA'),
};

const ipSchema = obj({
  ip: str("The caller's public IPv4 or IPv6 address"),
  location: obj({
    ...locationFields,
    latitude: str('Approximate latitude as a string (SPEC 2.2); "" when unknown'),
    longitude: str('Approximate longitude as a string (SPEC 2.2); "" when unknown'),
    timezone: str('IANA time zone'),
    postal_code: str('Postal code; "" when unknown'),
  }),
  network: obj({
    asn: asnSchema,
    isp: str('ISP or organisation name'),
    connection_type: connectionType,
    tls_version: tlsVersion,
  }),
  privacy: obj(
    {
      type: typeSchema,
      score: scoreSchema,
      grade: gradeSchema,
      is_vpn: isVpn,
      is_datacenter: isDatacenter,
      is_residential: isResidential,
      hosting,
      proxy,
    },
    { description: 'SPEC 2.3 privacy object' },
  ),
  is_eu: bool('True when the address is in an EU member state'),
  ipv6,
  bogon,
});

const v1Schema = obj({
  ip: str("The caller's public IPv4 or IPv6 address"),
  location: obj({
    ...locationFields,
    latitude: nullable(num('Approximate latitude (number); null when unknown')),
    longitude: nullable(num('Approximate longitude (number); null when unknown')),
    timezone: str('IANA time zone'),
    postal_code: str('Postal code; "" when unknown'),
    is_eu: bool('True when the address is in an EU member state (inside location in v1)'),
  }),
  network: obj({
    asn: asnSchema,
    isp: str('ISP name'),
    org: str('Organisation using the address'),
    as_name: str('AS holder name'),
    connection_type: connectionType,
    tls_version: tlsVersion,
  }),
  privacy: obj({
    type: typeSchema,
    score: scoreSchema,
    grade: gradeSchema,
    label: labelSchema,
    is_vpn: isVpn,
    is_datacenter: isDatacenter,
    is_residential: isResidential,
    hosting,
    proxy,
  }),
  ipv6,
  authority: arr(
    obj({
      name: str('Owner name with the trailing dot'),
      type: int('Numeric record type (6 = SOA)'),
      ttl: int('Time to live'),
      data: str('Record data, dig +short presentation'),
    }),
    'Authority section of the reverse-DNS (PTR) lookup of the address, in the v1 DNS record ' +
      'shape (SPEC 2.8): the reverse zone SOA when the address has no PTR, usually [] otherwise; ' +
      '[] for special-purpose addresses or when DNS does not answer within 2 s.',
  ),
  bogon,
});

const evidenceSchema = arr(
  obj({
    signal: enumOf(
      [
        'tor_exit',
        'vpn',
        'proxy',
        'datacenter',
        'dnsbl_listed',
        'mobile',
        'residential',
        'dnsbl_unavailable',
      ],
      'Which signal',
    ),
    weight: int('Points this item added to the score (0: information only)'),
    detail: str('What was found'),
    source: str('Where: the data set and its entry, or the DNSBL zone(s)'),
  }),
  'Every signal that moved the score, its weight and source; lists that did not answer (added)',
);

const scoreRouteSchema = obj({
  ip: str("The caller's address"),
  location: obj({
    city: str('City; "" when unknown'),
    country: str('ISO 3166-1 alpha-2 code; "" when unknown'),
    timezone: str('IANA time zone'),
  }),
  network: obj({ isp: str('ISP name'), asn: asnSchema, tls_version: tlsVersion }),
  privacy: obj({
    type: typeSchema,
    score: scoreSchema,
    grade: gradeSchema,
    label: labelSchema,
    flags: flagsSchema,
    is_vpn: isVpn,
    is_datacenter: isDatacenter,
    is_residential: isResidential,
    evidence: evidenceSchema,
  }),
  ipv6,
  bogon,
});

const exampleLocation = {
  city: 'Mountain View',
  region: 'California',
  country: 'US',
  country_name: 'United States',
  continent: 'NA',
};

const ipRoute: RouteDef = {
  method: 'get',
  path: '/api/ip',
  operationId: 'callerIp',
  tag: 'Caller',
  summary: "The caller's IP address with geolocation, network and privacy score",
  description: `${CALLER} ${CONNECTION} ${SCORE}`,
  data: ipSchema,
  example: {
    ip: '8.8.8.8',
    location: {
      ...exampleLocation,
      latitude: '37.4056',
      longitude: '-122.0775',
      timezone: 'America/Los_Angeles',
      postal_code: '',
    },
    network: { asn: 15169, isp: 'Google LLC', connection_type: 'HTTP/1.1', tls_version: '' },
    privacy: {
      type: 'datacenter',
      score: 75,
      grade: 'B',
      is_vpn: false,
      is_datacenter: true,
      is_residential: false,
      hosting: true,
      proxy: false,
    },
    is_eu: false,
    ipv6: false,
    bogon: false,
  },
  errors: [],
  async handle({ req, ctx, callerIp, signal }) {
    return ipData(await inspectAddress(ctx, callerIp, signal), connectionInfo(req));
  },
};

const v1IpRoute: RouteDef = {
  method: 'get',
  path: '/api/v1/ip',
  operationId: 'callerIpV1',
  tag: 'Caller',
  summary: "The caller's IP address, v1 form (numeric coordinates, is_eu in location, authority)",
  description: `${CALLER} ${CONNECTION} ${SCORE}`,
  data: v1Schema,
  example: {
    ip: '8.8.8.8',
    location: {
      ...exampleLocation,
      latitude: 37.4056,
      longitude: -122.0775,
      timezone: 'America/Los_Angeles',
      postal_code: '',
      is_eu: false,
    },
    network: {
      asn: 15169,
      isp: 'Google LLC',
      org: 'Google LLC',
      as_name: 'Google LLC',
      connection_type: 'HTTP/1.1',
      tls_version: 'TLSv1.3',
    },
    privacy: {
      type: 'datacenter',
      score: 75,
      grade: 'B',
      label: 'Mostly clean',
      is_vpn: false,
      is_datacenter: true,
      is_residential: false,
      hosting: true,
      proxy: false,
    },
    ipv6: false,
    authority: [],
    bogon: false,
  },
  errors: [],
  async handle({ req, ctx, callerIp, signal }) {
    const report = await inspectAddress(ctx, callerIp, signal);
    const authority = await reverseAuthority(ctx, report.info, signal);
    return v1CallerData(report, connectionInfo(req), authority);
  },
};

const scoreRoute: RouteDef = {
  method: 'get',
  path: '/api/score',
  operationId: 'callerScore',
  tag: 'Caller',
  summary: "Cleanliness score of the caller's IP: grade, label, flags and the evidence behind it",
  description: `${CALLER} ${SCORE}`,
  data: scoreRouteSchema,
  example: {
    ip: '198.51.100.23',
    location: { city: 'Berlin', country: 'DE', timezone: 'Europe/Berlin' },
    network: { isp: 'Example VPN GmbH', asn: 64500, tls_version: 'TLSv1.3' },
    privacy: {
      type: 'vpn',
      score: 30,
      grade: 'D',
      label: 'High risk',
      flags: ['Listed on 1 spam blacklist'],
      is_vpn: true,
      is_datacenter: true,
      is_residential: false,
      evidence: [
        {
          signal: 'vpn',
          weight: -30,
          detail: 'VPN provider',
          source: 'asn-list: AS64500 is listed in data/asn-vpn.tsv',
        },
        {
          signal: 'datacenter',
          weight: -25,
          detail: 'datacenter or hosting network',
          source: 'asn-list: AS64500 is listed in data/asn-hosting.tsv',
        },
        {
          signal: 'dnsbl_listed',
          weight: -15,
          detail: 'listed on Spamhaus ZEN',
          source: 'zen.spamhaus.org',
        },
      ],
    },
    ipv6: false,
    bogon: false,
  },
  errors: [],
  async handle({ req, ctx, callerIp, signal }) {
    return scoreData(await inspectAddress(ctx, callerIp, signal), connectionInfo(req));
  },
};

const breachRoute: RouteDef = {
  method: 'get',
  path: '/api/breach',
  operationId: 'checkBreach',
  tag: 'Breach',
  summary: 'Check an email address against known data breaches (XposedOrNot)',
  description:
    'Asks the XposedOrNot breach-analytics API (NETDIAG_BREACH_API_URL, no key) and maps its ' +
    'answer: ExposedBreaches.breaches_details[].breach → services, BreachMetrics.passwords_strength ' +
    '(PlainText, EasyToCrack, StrongHash, Unknown) → passwords, BreachMetrics.risk → risk. An ' +
    'address in no breach is a success with zeros. Answers are cached for one hour under a ' +
    'SHA-256 of the lower-cased address; identical concurrent checks share one upstream request; ' +
    'requests are paced to the upstream limits (2/s, 25/h, 100/day per calling IP). When the ' +
    'upstream (or our pacing) says wait, the answer is 503 with Retry-After. The address is never ' +
    'logged and is returned masked.',
  params: [
    {
      name: 'email',
      in: 'query',
      required: true,
      description: 'The address to check (RFC 5322 dot-atom local part, domain with a TLD).',
      schema: str(undefined, { format: 'email', maxLength: 254 }),
      example: 'johndoe@example.com',
    },
  ],
  data: obj({
    email: str('The checked address, masked: first three characters, ***, @ and the domain'),
    status: enumOf(['checked'], 'Always "checked" on success'),
    breaches: int('Number of breaches the address appears in', { minimum: 0 }),
    services: arr(str(), 'Names of the breached services, most recently added first'),
    passwords: obj(
      {
        plain_text: int('Breaches that exposed plain-text passwords (PlainText)', { minimum: 0 }),
        weak_hash: int('Breaches with weakly hashed, easy-to-crack passwords (EasyToCrack)', {
          minimum: 0,
        }),
        strong_hash: int('Breaches with strongly hashed passwords (StrongHash)', { minimum: 0 }),
        unknown: int('Breaches whose password storage is unknown (Unknown)', { minimum: 0 }),
        total: int('Sum of the four counts (one category per breach)', { minimum: 0 }),
      },
      { description: 'Password exposure per breach' },
    ),
    risk: obj(
      {
        score: num('XposedOrNot risk score, 0–100 (0 when in no breach)', {
          minimum: 0,
          maximum: 100,
        }),
        level: str(
          'XposedOrNot risk label, lower case: low (≤25), moderate (≤50), high (≤75), critical',
        ),
      },
      { description: 'Exposure risk as computed by XposedOrNot' },
    ),
  }),
  example: {
    email: 'joh***@example.com',
    status: 'checked',
    breaches: 3,
    services: ['Canva', 'LinkedIn', 'Adobe'],
    passwords: { plain_text: 0, weak_hash: 2, strong_hash: 1, unknown: 0, total: 3 },
    risk: { score: 62, level: 'high' },
  },
  errors: [400, 502, 503, 504],
  handle({ req, ctx, signal }) {
    const email = queryParam(req, 'email', 'an email address such as user@example.com', true);
    return runBreachCheck(ctx, email, { signal });
  },
};

export const callerRoutes: RouteDef[] = [ipRoute, v1IpRoute, scoreRoute, breachRoute];
