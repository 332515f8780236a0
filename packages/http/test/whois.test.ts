/**
 * `GET /api/whois` and `GET /api/v1/whois/:domain` against a loopback RDAP service and a
 * loopback WHOIS chain (IANA → registry).
 */
import { createNetdiag } from '@netdiag/core';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  bootstrapFile,
  bootstrapRoute,
  type RdapTestServer,
  startRdapServer,
} from '../../../test-utils/src/rdap-server.js';
import { startWhoisServer, type WhoisTestServer } from '../../../test-utils/src/whois-server.js';
import { createApp } from '../src/app.js';
import { ROUTES } from '../src/routes/index.js';
import { expectMatchesSchema } from './expect-schema.js';

let rdap: RdapTestServer;
let iana: WhoisTestServer;
let registry: WhoisTestServer;
const registryText = new Map<string, string>();

const registryRecord = () => ({
  objectClassName: 'domain',
  ldhName: 'example.com',
  status: ['client transfer prohibited'],
  events: [
    { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
    { eventAction: 'expiration', eventDate: '2030-08-13T04:00:00Z' },
    { eventAction: 'last changed', eventDate: '2024-08-14T07:01:34Z' },
  ],
  nameservers: [{ ldhName: 'A.IANA-SERVERS.NET' }],
  entities: [
    {
      roles: ['registrar'],
      publicIds: [{ type: 'IANA Registrar ID', identifier: '376' }],
      vcardArray: ['vcard', [['fn', {}, 'text', 'Example Registrar']]],
    },
  ],
});

beforeAll(async () => {
  rdap = await startRdapServer();
  registry = await startWhoisServer({ answers: (q) => registryText.get(q.toLowerCase()) });
  iana = await startWhoisServer({ answers: () => `refer: ${registry.address}\n` });
});
afterAll(async () => {
  await Promise.all([rdap.close(), iana.close(), registry.close()]);
});
beforeEach(() => {
  for (const key of Object.keys(rdap.routes)) delete rdap.routes[key];
  Object.assign(rdap.routes, {
    '/dns.json': bootstrapRoute(
      bootstrapFile([
        [['com'], [`${rdap.url}/com/`]],
        [['net'], [`${rdap.url}/net/`]],
      ]),
    ),
    '/com/domain/example.com': { body: registryRecord() },
  });
  registryText.clear();
  rdap.requests.length = 0;
  iana.queries.length = 0;
});

function app() {
  const config = {
    rdapBootstrapUrl: `${rdap.url}/dns.json`,
    whoisServer: iana.address,
    allowedTargets: ['127.0.0.0/8'],
  };
  const engine = createNetdiag({ ...config, timeouts: { rdap: 300, whoisHop: 300 } });
  return createApp({ logLevel: 'silent', ...config, engine });
}

const rdapData = () => ({
  domain: 'example.com',
  registrar: 'Example Registrar',
  registrar_iana_id: 376,
  creation_date: '1995-08-14T04:00:00.000Z',
  expiration_date: '2030-08-13T04:00:00.000Z',
  last_updated: '2024-08-14T07:01:34.000Z',
  name_servers: ['a.iana-servers.net'],
  status: ['client transfer prohibited'],
  rdap_link: `${rdap.url}/com/domain/example.com`,
});

describe('same RDAP data, both families', () => {
  test('v1 answers the SPEC 2.9 record; unversioned answers the same plus source', async () => {
    const a = app();
    const v1 = await request(a).get('/api/v1/whois/www.example.com');
    const unversioned = await request(a).get('/api/whois').query({ domain: 'EXAMPLE.com' });
    expect(v1.status).toBe(200);
    expectMatchesSchema('whoisV1', v1.body);
    expect(v1.headers['access-control-allow-origin']).toBe('*');
    expect(v1.body).toEqual({ success: true, data: rdapData() });
    expect(unversioned.status).toBe(200);
    expectMatchesSchema('whois', unversioned.body);
    const { source, ...rest } = unversioned.body.data;
    expect(source).toBe('rdap');
    expect(rest).toEqual(v1.body.data);
    // One bootstrap fetch for both requests of the app.
    expect(rdap.requests.filter((r) => r.path === '/dns.json')).toHaveLength(1);
  });

  test('every field the data schema declares is present with its type', async () => {
    const res = await request(app()).get('/api/whois?domain=example.com');
    expectMatchesSchema('whois', res.body);
    const schema = ROUTES.find((r) => r.operationId === 'whois')?.data as {
      required: string[];
      properties: Record<string, { type: string | string[] }>;
    };
    for (const field of schema.required) {
      expect(res.body.data).toHaveProperty(field);
      const value = res.body.data[field];
      const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
      const declared = [schema.properties[field]?.type].flat();
      expect(declared.includes(type) || (type === 'number' && declared.includes('integer'))).toBe(
        true,
      );
    }
  });
});

describe('not in RDAP', () => {
  const whoisAnswer = [
    'Domain Name: EXAMPLE.COM',
    'Creation Date: 1995-08-14T04:00:00Z',
    'Registry Expiry Date: 2030-08-13T04:00:00Z',
    'Registrar: Example Registrar',
    'Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited',
    'Name Server: A.IANA-SERVERS.NET',
    '',
  ].join('\r\n');

  test.each([
    ['registry 404', () => (rdap.routes['/com/domain/example.com'] = { status: 404 })],
    [
      'no RDAP service for .com',
      () =>
        (rdap.routes['/dns.json'] = bootstrapRoute(
          bootstrapFile([[['net'], [`${rdap.url}/net/`]]]),
        )),
    ],
  ])('%s: v1 → 404 "Domain not found in RDAP"; unversioned → WHOIS', async (_label, arrange) => {
    arrange();
    registryText.set('example.com', whoisAnswer);
    const a = app();
    const v1 = await request(a).get('/api/v1/whois/example.com');
    expect(v1.status).toBe(404);
    expect(v1.body).toEqual({ success: false, error: 'Domain not found in RDAP' });
    expect(iana.queries).toEqual([]);

    const unversioned = await request(a).get('/api/whois?domain=example.com');
    expect(unversioned.status).toBe(200);
    expectMatchesSchema('whois', unversioned.body);
    expect(unversioned.body.data).toEqual({
      domain: 'example.com',
      registrar: 'Example Registrar',
      registrar_iana_id: null,
      creation_date: '1995-08-14T04:00:00.000Z',
      expiration_date: '2030-08-13T04:00:00.000Z',
      last_updated: '',
      name_servers: ['a.iana-servers.net'],
      status: ['client transfer prohibited'],
      rdap_link: '',
      source: 'whois',
    });
    expect(iana.queries).toEqual(['example.com']);
  });

  test('in neither → 404 on both', async () => {
    rdap.routes['/com/domain/example.com'] = { status: 404 };
    const a = app();
    const res = await request(a).get('/api/whois?domain=example.com');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('Domain not found: example.com has no record in RDAP or WHOIS');
  });

  test('WHOIS "limit exceeded" → 503 with Retry-After', async () => {
    rdap.routes['/com/domain/example.com'] = { status: 404 };
    registryText.set('example.com', 'WHOIS LIMIT EXCEEDED - SEE WWW.PIR.ORG/WHOIS FOR DETAILS\n');
    const res = await request(app()).get('/api/whois?domain=example.com');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
  });
});

describe('upstream failures', () => {
  test.each(['/api/v1/whois/example.com', '/api/whois?domain=example.com'])(
    '429 from the registry → 503 with its Retry-After (%s)',
    async (path) => {
      rdap.routes['/com/domain/example.com'] = { status: 429, headers: { 'retry-after': '42' } };
      const res = await request(app()).get(path);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('42');
      expect(res.body.success).toBe(false);
      expect(res.body.error).toMatch(/rdap/);
    },
  );

  test.each(['/api/v1/whois/example.com', '/api/whois?domain=example.com'])(
    'a registry slower than the budget → 504 naming RDAP (%s)',
    async (path) => {
      rdap.routes['/com/domain/example.com'] = { body: registryRecord(), delayMs: 1_000 };
      const res = await request(app()).get(path);
      expect(res.status).toBe(504);
      expect(res.body.error).toMatch(/rdap.*300 ms/);
    },
  );

  test('a registry 500 → 502 naming RDAP', async () => {
    rdap.routes['/com/domain/example.com'] = { status: 500 };
    const res = await request(app()).get('/api/v1/whois/example.com');
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(/^Upstream rdap failed/);
  });

  test('a dead WHOIS registry → 504 naming WHOIS', async () => {
    rdap.routes['/com/domain/example.com'] = { status: 404 };
    registryText.set('example.com', 'hang');
    const res = await request(app()).get('/api/whois?domain=example.com');
    expect(res.status).toBe(504);
    expect(res.body.error).toMatch(/whois/);
  });
});

describe('bad input → 400, nothing queried', () => {
  test.each([
    ['/api/whois', /Missing required parameter "domain"/],
    ['/api/whois?domain=', /Missing required parameter "domain"/],
    ['/api/whois?domain=a&domain=b', /must be given once/],
    ['/api/whois?domain=not%20a%20domain', /"domain"/],
    ['/api/whois?domain=192.0.2.1', /not an IP address/],
    ['/api/whois?domain=co.uk', /public suffix/],
    ['/api/v1/whois/localhost', /fully qualified/],
    [`/api/v1/whois/${'a'.repeat(64)}.com`, /longer than 63/],
  ])('%s', async (path, message) => {
    const res = await request(app()).get(path);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toMatch(message);
    expect(rdap.requests).toEqual([]);
  });
});
