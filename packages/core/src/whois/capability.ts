/**
 * `GET /api/whois?domain=` (RDAP, then classic WHOIS; adds `source`) and
 * `GET /api/v1/whois/:domain` (RDAP only; 404 "Domain not found in RDAP") — SPEC 2.9, §4
 * behaviour 3, §7.
 * @module
 */
import { defineCapability } from '../descriptor.js';
import {
  whoisDataSchema,
  whoisParamsSchema,
  whoisV1DataSchema,
  whoisV1ParamsSchema,
} from './schema.js';

const example = {
  domain: 'example.com',
  registrar: 'RESERVED-Internet Assigned Numbers Authority',
  registrar_iana_id: 376,
  creation_date: '1995-08-14T04:00:00.000Z',
  expiration_date: '2025-08-13T04:00:00.000Z',
  last_updated: '2024-08-14T07:01:34.000Z',
  name_servers: ['a.iana-servers.net', 'b.iana-servers.net'],
  status: ['client delete prohibited', 'client transfer prohibited', 'client update prohibited'],
  rdap_link: 'https://rdap.verisign.com/com/v1/domain/example.com',
};

const common =
  'The registrable domain is queried (tldts). The IANA RDAP bootstrap (NETDIAG_RDAP_BOOTSTRAP_URL) ' +
  'names the registry; its record is read and, when it leaves fields empty, the registrar record ' +
  'it links to (rel="related") fills them. Bootstrap files are cached 24 h and revalidated with ' +
  'conditional requests. Registry 429 → 503 with Retry-After; timeouts → 504; other registry ' +
  'failures → 502. Unknown values keep their type ("", null, []).';

export const whois = defineCapability({
  id: 'whois',
  params: whoisParamsSchema,
  data: whoisDataSchema,
  limit: 'general',
  run: (engine, params, context) => engine.whois(params.domain, context),
  http: {
    method: 'get',
    path: '/api/whois',
    tag: 'WHOIS',
    summary: 'Registration data of a domain: RDAP, with fallback to classic WHOIS',
    description:
      `${common} When RDAP has no service for the TLD or no record of the domain, classic WHOIS ` +
      'is asked over TCP port 43: NETDIAG_WHOIS_SERVER (whois.iana.org) → its refer: server → the ' +
      'Registrar WHOIS Server when the registry leaves fields empty. `source` says which answered. ' +
      'Not registered in either → 404; a WHOIS "limit exceeded" answer → 503.',
    paramExamples: { domain: 'example.com' },
    example: { ...example, source: 'rdap' },
    errors: [400, 404, 502, 503, 504],
  },
  tool: {
    name: 'whois',
    title: 'WHOIS / RDAP',
    description:
      'Registration record of a domain (registrar, dates, name servers, status): RDAP first, ' +
      'classic WHOIS when RDAP has no record. Same answer as GET /api/whois.',
    probe: false,
    openWorld: true,
  },
  cli: { command: 'whois', operand: 'domain' },
});

export const whoisV1 = defineCapability({
  id: 'whoisV1',
  params: whoisV1ParamsSchema,
  data: whoisV1DataSchema,
  limit: 'general',
  run: (engine, params, context) => engine.whoisV1(params.domain, context),
  http: {
    method: 'get',
    path: '/api/v1/whois/:domain',
    tag: 'WHOIS',
    summary: 'Registration data of a domain from RDAP',
    description: `${common} No RDAP service for the TLD, or no RDAP record → 404 "Domain not found in RDAP".`,
    paramExamples: { domain: 'example.com' },
    example,
    errors: [400, 404, 502, 503, 504],
  },
  cli: { command: 'whois', flag: '--rdap-only', operand: 'domain' },
});
