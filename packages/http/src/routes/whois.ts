/**
 * `GET /api/whois?domain=` (RDAP, then classic WHOIS; adds `source`) and
 * `GET /api/v1/whois/:domain` (RDAP only; 404 "Domain not found in RDAP") — SPEC 2.9, §4
 * behaviour 3, §7.
 * @module
 */
import { dataSchema, paramsOf } from '../openapi/core-schemas.js';
import { pathParam, queryParam } from '../params.js';
import type { RouteDef } from './types.js';

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

export const whoisRoutes: RouteDef[] = [
  {
    method: 'get',
    path: '/api/whois',
    operationId: 'whois',
    tag: 'WHOIS',
    summary: 'Registration data of a domain: RDAP, with fallback to classic WHOIS',
    description:
      `${common} When RDAP has no service for the TLD or no record of the domain, classic WHOIS ` +
      'is asked over TCP port 43: NETDIAG_WHOIS_SERVER (whois.iana.org) → its refer: server → the ' +
      'Registrar WHOIS Server when the registry leaves fields empty. `source` says which answered. ' +
      'Not registered in either → 404; a WHOIS "limit exceeded" answer → 503.',
    params: paramsOf('whois', { domain: 'example.com' }),
    data: dataSchema('whois'),
    example: { ...example, source: 'rdap' },
    errors: [400, 404, 502, 503, 504],
    handle({ req, ctx, signal }) {
      const domain = queryParam(req, 'domain', true);
      return ctx.engine.whois(domain, { signal });
    },
  },
  {
    method: 'get',
    path: '/api/v1/whois/:domain',
    operationId: 'whoisV1',
    tag: 'WHOIS',
    summary: 'Registration data of a domain from RDAP',
    description: `${common} No RDAP service for the TLD, or no RDAP record → 404 "Domain not found in RDAP".`,
    params: paramsOf('whoisV1', { domain: 'example.com' }, { path: ['domain'] }),
    data: dataSchema('whoisV1'),
    example,
    errors: [400, 404, 502, 503, 504],
    handle({ req, ctx, signal }) {
      return ctx.engine.whoisV1(pathParam(req, 'domain'), { signal });
    },
  },
];
