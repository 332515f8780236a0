/**
 * `GET /api/ip`, `GET /api/v1/ip` (SPEC 2.1–2.4) and `GET /api/score`: the caller's own address,
 * described. The face hands in the caller's connection (`context.caller`): the HTTP request's,
 * or over MCP's HTTP transport the agent's.
 * @module
 */
import { defineCapability } from '../descriptor.js';
import { InvalidInputError } from '../errors.js';
import { parameters } from '../schemas/param.js';
import { describeScoreTable } from '../score/index.js';
import type { CallerConnection } from './connection.js';
import { callerIpDataSchema, callerIpV1DataSchema, scoreDataSchema } from './schema.js';

/** These operations take no parameters: they answer about the connection itself. */
const noParameters = parameters({});

function callerOf(context: { caller?: CallerConnection }): CallerConnection {
  if (context.caller) return context.caller;
  throw new InvalidInputError('There is no caller address here: give an address to look up', 'ip');
}

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
  'and the score uses the lists that did; when no list answered, the evidence says the DNSBL ' +
  'step could not be done and the score has no DNSBL part). privacy.type is `vpn` for any ' +
  'anonymiser (VPN, proxy, Tor exit), else `datacenter` for hosting networks, else `residential` ' +
  '(also special-purpose addresses, `bogon: true`); is_vpn, is_datacenter and is_residential ' +
  'are true exactly when type is vpn, datacenter, residential respectively.';
const CONNECTION =
  'network.connection_type is the HTTP version the caller speaks to this server (HTTP/1.0, ' +
  'HTTP/1.1); network.tls_version is the TLS version (e.g. TLSv1.3) when the server terminates ' +
  'TLS itself (NETDIAG_TLS_CERT/NETDIAG_TLS_KEY) and "" for plain HTTP. Behind a trusted proxy ' +
  '(NETDIAG_TRUST_PROXY) both may be reported by the proxy in X-Forwarded-HTTP-Version and ' +
  'X-Forwarded-TLS-Version.';

const exampleLocation = {
  city: 'Mountain View',
  region: 'California',
  country: 'US',
  country_name: 'United States',
  continent: 'NA',
};

export const callerIp = defineCapability({
  id: 'callerIp',
  params: noParameters,
  data: callerIpDataSchema,
  limit: 'general',
  run: (engine, _params, context) => engine.caller(callerOf(context), context),
  http: {
    method: 'get',
    path: '/api/ip',
    tag: 'Caller',
    summary: "The caller's IP address with geolocation, network and privacy score",
    description: `${CALLER} ${CONNECTION} ${SCORE}`,
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
  },
});

export const callerIpV1 = defineCapability({
  id: 'callerIpV1',
  params: noParameters,
  data: callerIpV1DataSchema,
  limit: 'general',
  run: (engine, _params, context) => engine.callerV1(callerOf(context), context),
  http: {
    method: 'get',
    path: '/api/v1/ip',
    tag: 'Caller',
    summary: "The caller's IP address, v1 form (numeric coordinates, is_eu in location, authority)",
    description: `${CALLER} ${CONNECTION} ${SCORE}`,
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
  },
});

export const callerScore = defineCapability({
  id: 'callerScore',
  params: noParameters,
  data: scoreDataSchema,
  limit: 'general',
  run: (engine, _params, context) => engine.score(callerOf(context), context),
  http: {
    method: 'get',
    path: '/api/score',
    tag: 'Caller',
    summary: "Cleanliness score of the caller's IP: grade, label, flags and the evidence behind it",
    description: `${CALLER} ${SCORE}`,
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
        is_datacenter: false,
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
  },
});
