/**
 * `GET /api/whois?domain=` (RDAP, then classic WHOIS; adds `source`) and
 * `GET /api/v1/whois/:domain` (RDAP only; 404 "Domain not found in RDAP") — SPEC 2.9, §4
 * behaviour 3, §7.
 * @module
 */
import { arr, enumOf, int, nullable, obj, str } from '../openapi/schema.js';
import { pathParam, queryParam } from '../params.js';
import { runRdapLookup, runWhois } from '../services/whois.js';
import type { ParamDef, RouteDef } from './types.js';

const EXPECTED = 'a domain name such as example.com';

const DOMAIN_SCHEMA = str(undefined, { minLength: 1, maxLength: 253 });

const recordFields = {
  domain: str(
    'The registrable domain looked up (punycode, lower case): www.example.co.uk → example.co.uk',
  ),
  registrar: str('Registrar name (RDAP: vCard fn of the registrar entity); "" when unknown'),
  registrar_iana_id: nullable(
    int('Added: the registrar IANA id (RDAP publicIds "IANA Registrar ID"); null when unknown'),
  ),
  // No `format: date-time`: "" is the documented value of an unknown date.
  creation_date: str(
    'Registration time, ISO 8601 UTC (RDAP event "registration"); "" when unknown',
  ),
  expiration_date: str('Expiry time, ISO 8601 UTC (RDAP event "expiration"); "" when unknown'),
  last_updated: str(
    'Last change of the record, ISO 8601 UTC (RDAP event "last changed"); "" when unknown',
  ),
  name_servers: arr(str(), 'Name servers, lower case, no trailing dot'),
  status: arr(
    str(),
    'Status values in RDAP form (RFC 9083 §10.2.2 / RFC 8056), e.g. "client transfer prohibited"; ' +
      'WHOIS EPP codes are mapped to the same names',
  ),
  rdap_link: str('URL of the registry RDAP record that answered (after redirects); "" from WHOIS'),
};

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

function domainParam(location: 'query' | 'path'): ParamDef {
  return {
    name: 'domain',
    in: location,
    required: true,
    description:
      'A domain name (IDNs accepted, converted to punycode); subdomains are reduced to the registrable domain.',
    schema: DOMAIN_SCHEMA,
    example: 'example.com',
  };
}

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
    params: [domainParam('query')],
    data: obj({
      ...recordFields,
      source: enumOf(['rdap', 'whois'], 'Added: which protocol answered'),
    }),
    example: { ...example, source: 'rdap' },
    errors: [400, 404, 502, 503, 504],
    handle({ req, ctx, signal }) {
      const domain = queryParam(req, 'domain', EXPECTED, true);
      return runWhois(ctx, domain, { signal });
    },
  },
  {
    method: 'get',
    path: '/api/v1/whois/:domain',
    operationId: 'whoisV1',
    tag: 'WHOIS',
    summary: 'Registration data of a domain from RDAP',
    description: `${common} No RDAP service for the TLD, or no RDAP record → 404 "Domain not found in RDAP".`,
    params: [domainParam('path')],
    data: obj(recordFields),
    example,
    errors: [400, 404, 502, 503, 504],
    handle({ req, ctx, signal }) {
      return runRdapLookup(ctx, pathParam(req, 'domain'), { signal });
    },
  },
];
