/**
 * End-to-end lookups against loopback fixtures: an RDAP service (IANA bootstrap files,
 * registry and registrar records) and a WHOIS chain (IANA → registry → registrar), covering
 * both families, both fallbacks and every failure mode.
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  bootstrapFile,
  bootstrapRoute,
  type RdapRoute,
  type RdapTestServer,
  startRdapServer,
} from '../../../../test-utils/src/rdap-server.js';
import {
  startWhoisServer,
  type WhoisReply,
  type WhoisTestServer,
} from '../../../../test-utils/src/whois-server.js';
import { createMemoryCache } from '../net/cache.js';
import { rdapLookup, rdapLookupResource, whois } from './lookup.js';
import type { WhoisClientOptions, WhoisSeams } from './types.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Registry record of example.com without an expiration date (so the registrar adds it). */
function registryRecord(rdap: string, extra: Record<string, unknown> = {}) {
  return {
    objectClassName: 'domain',
    ldhName: 'EXAMPLE.COM',
    status: ['client transfer prohibited', 'active'],
    events: [
      { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
      { eventAction: 'last changed', eventDate: '2024-08-14T07:01:34Z' },
    ],
    nameservers: [{ ldhName: 'A.IANA-SERVERS.NET' }, { ldhName: 'b.iana-servers.net.' }],
    entities: [
      {
        objectClassName: 'entity',
        roles: ['registrar'],
        handle: '376',
        publicIds: [{ type: 'IANA Registrar ID', identifier: '376' }],
        vcardArray: [
          'vcard',
          [
            ['version', {}, 'text', '4.0'],
            ['fn', {}, 'text', 'Example Registrar, Inc.'],
          ],
        ],
      },
    ],
    links: [
      { rel: 'self', href: `${rdap}/registry/domain/example.com`, type: 'application/rdap+json' },
      {
        rel: 'related',
        href: `${rdap}/registrar/domain/example.com`,
        type: 'application/rdap+json',
      },
    ],
    ...extra,
  };
}

const registrarRecord = {
  objectClassName: 'domain',
  ldhName: 'example.com',
  events: [
    { eventAction: 'registration', eventDate: '1990-01-01T00:00:00Z' },
    { eventAction: 'expiration', eventDate: '2030-08-13T04:00:00Z' },
  ],
};

interface Setup {
  rdap: RdapTestServer;
  seams: WhoisSeams & WhoisClientOptions & { whoisServer: string };
  iana: WhoisTestServer;
  registry: WhoisTestServer;
  registrar: WhoisTestServer;
}

interface SetupOptions {
  /** Extra or replacement RDAP routes (paths on the RDAP server). */
  routes?: Record<string, RdapRoute>;
  /** TLDs in dns.json → path on the RDAP server. @default com → /registry/ */
  tlds?: Record<string, string>;
  /** Registry answers, given the registrar server's address (for its referral line). */
  registryAnswers?:
    | Record<string, WhoisReply>
    | ((registrar: string) => Record<string, WhoisReply>);
  registrarAnswers?: Record<string, WhoisReply>;
  ianaAnswers?: (registry: string) => Record<string, WhoisReply>;
}

async function setup(options: SetupOptions = {}): Promise<Setup> {
  const rdap = await startRdapServer();
  closers.push(() => rdap.close());
  const tlds = options.tlds ?? { com: '/registry/' };
  Object.assign(rdap.routes, {
    '/dns.json': bootstrapRoute(
      bootstrapFile(Object.entries(tlds).map(([tld, path]) => [[tld], [`${rdap.url}${path}`]])),
    ),
    '/ipv4.json': bootstrapRoute(bootstrapFile([[['8.0.0.0/8'], [`${rdap.url}/rir/`]]])),
    '/ipv6.json': bootstrapRoute(bootstrapFile([[['2001:db8::/32'], [`${rdap.url}/rir/`]]])),
    '/asn.json': bootstrapRoute(bootstrapFile([[['13000-14000'], [`${rdap.url}/rir/`]]])),
    '/registry/domain/example.com': { body: registryRecord(rdap.url) },
    '/registrar/domain/example.com': { body: registrarRecord },
    ...options.routes,
  });
  const registrar = await startWhoisServer({ answers: options.registrarAnswers ?? {} });
  const registryAnswers =
    typeof options.registryAnswers === 'function'
      ? options.registryAnswers(registrar.address)
      : (options.registryAnswers ?? {});
  const registry = await startWhoisServer({ answers: registryAnswers });
  const iana = await startWhoisServer({
    answers:
      options.ianaAnswers?.(registry.address) ??
      ((query: string) =>
        `% IANA WHOIS server\n\nrefer:        ${registry.address}\n\ndomain:       ${query.split('.').pop()?.toUpperCase()}\nstatus:       ACTIVE\n`),
  });
  closers.push(
    () => iana.close(),
    () => registry.close(),
    () => registrar.close(),
  );
  return {
    rdap,
    iana,
    registry,
    registrar,
    seams: {
      bootstrapUrl: `${rdap.url}/dns.json`,
      cache: createMemoryCache(),
      whoisServer: iana.address,
      // The fixtures' registries and referrals are on loopback: exempt, as an operator would.
      allowedTargets: ['127.0.0.0/8', '::1/128'],
      rdapTimeoutMs: 2_000,
      whoisHopTimeoutMs: 2_000,
    },
  };
}

const expectedRdap = (rdapUrl: string) => ({
  domain: 'example.com',
  registrar: 'Example Registrar, Inc.',
  registrar_iana_id: 376,
  creation_date: '1995-08-14T04:00:00.000Z',
  expiration_date: '2030-08-13T04:00:00.000Z',
  last_updated: '2024-08-14T07:01:34.000Z',
  name_servers: ['a.iana-servers.net', 'b.iana-servers.net'],
  status: ['client transfer prohibited', 'active'],
  rdap_link: `${rdapUrl}/registry/domain/example.com`,
});

describe('RDAP (rdapLookup, the v1 family)', () => {
  test('bootstrap → registry → registrar fills the missing expiration; registry values win', async () => {
    const { rdap, seams } = await setup();
    const result = await rdapLookup('www.Example.com.', seams);
    expect(result).toEqual(expectedRdap(rdap.url));
    expect(rdap.requests.map((r) => r.path)).toEqual([
      '/dns.json',
      '/registry/domain/example.com',
      '/registrar/domain/example.com',
    ]);
    expect(rdap.requests[1]?.headers['accept']).toContain('application/rdap+json');
  });

  test('a complete registry record is not followed to the registrar', async () => {
    const { rdap, seams } = await setup();
    rdap.routes['/registry/domain/example.com'] = {
      body: registryRecord(rdap.url, {
        events: [
          { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
          { eventAction: 'expiration', eventDate: '2031-01-01T00:00:00Z' },
          { eventAction: 'last changed', eventDate: '2024-08-14T07:01:34Z' },
        ],
      }),
    };
    const result = await rdapLookup('example.com', seams);
    expect(result.expiration_date).toBe('2031-01-01T00:00:00.000Z');
    expect(rdap.requests.some((r) => r.path.startsWith('/registrar/'))).toBe(false);
  });

  test('the registrable domain is queried, under the longest bootstrap match', async () => {
    const { rdap, seams } = await setup({
      tlds: { uk: '/uk/', 'co.uk': '/couk/' },
      routes: {
        '/couk/domain/example.co.uk': { body: { objectClassName: 'domain', status: ['active'] } },
      },
    });
    const result = await rdapLookup('deep.www.example.co.uk', seams);
    expect(result.domain).toBe('example.co.uk');
    expect(result.status).toEqual(['active']);
    expect(result.rdap_link).toBe(`${rdap.url}/couk/domain/example.co.uk`);
  });

  test('redirects are followed; rdap_link is the URL that answered', async () => {
    const { rdap, seams } = await setup({
      routes: {
        '/registry/domain/example.com': { redirect: '/moved/domain/example.com' },
      },
    });
    rdap.routes['/moved/domain/example.com'] = { body: registryRecord(rdap.url) };
    const result = await rdapLookup('example.com', seams);
    expect(result.rdap_link).toBe(`${rdap.url}/moved/domain/example.com`);
    expect(result.registrar).toBe('Example Registrar, Inc.');
  });

  test.each([
    [
      'the registry answers 404',
      { '/registry/domain/example.com': { status: 404 } },
      { com: '/registry/' },
    ],
    ['no RDAP service for the TLD', {}, { net: '/registry/' }],
  ])('%s → NOT_FOUND "Domain not found in RDAP"', async (_label, routes, tlds) => {
    const { seams, iana } = await setup({ routes, tlds });
    await expect(rdapLookup('example.com', seams)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Domain not found in RDAP',
    });
    expect(iana.queries).toEqual([]);
  });

  test('429 → UPSTREAM_THROTTLED with the registry Retry-After', async () => {
    const { seams } = await setup({
      routes: {
        '/registry/domain/example.com': { status: 429, headers: { 'retry-after': '120' } },
      },
    });
    await expect(rdapLookup('example.com', seams)).rejects.toMatchObject({
      code: 'UPSTREAM_THROTTLED',
      retryAfterS: 120,
      upstream: 'rdap',
    });
  });

  test('a registry slower than the RDAP budget → UPSTREAM_TIMEOUT naming rdap', async () => {
    const { seams } = await setup({
      routes: { '/registry/domain/example.com': { body: {}, delayMs: 1_000 } },
    });
    await expect(rdapLookup('example.com', { ...seams, rdapTimeoutMs: 100 })).rejects.toMatchObject(
      { code: 'UPSTREAM_TIMEOUT', upstream: 'rdap' },
    );
  });

  test('the overall budget bounds the lookup', async () => {
    const { seams } = await setup({
      routes: { '/registry/domain/example.com': { body: {}, delayMs: 1_000 } },
    });
    const started = Date.now();
    await expect(rdapLookup('example.com', { ...seams, timeout: 150 })).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
    });
    expect(Date.now() - started).toBeLessThan(900);
  });

  test('the caller signal aborts', async () => {
    const { seams } = await setup({
      routes: { '/registry/domain/example.com': { body: {}, delayMs: 1_000 } },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(
      rdapLookup('example.com', { ...seams, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
  });

  test.each([
    ['500', { status: 500 }],
    ['a body that is not JSON', { raw: '<html>oops</html>' }],
    ['a JSON array', { body: [1, 2] }],
  ])('registry %s → UPSTREAM_ERROR naming rdap', async (_label, reply) => {
    const { seams } = await setup({ routes: { '/registry/domain/example.com': reply } });
    await expect(rdapLookup('example.com', seams)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      upstream: 'rdap',
    });
  });

  test('an unreachable bootstrap → UPSTREAM_ERROR naming the bootstrap', async () => {
    const { seams } = await setup({ routes: { '/dns.json': { status: 503 } } });
    await expect(rdapLookup('example.com', seams)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      upstream: 'rdap-bootstrap',
    });
  });

  test.each([
    ['500', { status: 500 }],
    ['404', { status: 404 }],
    ['slow', { body: registrarRecord, delayMs: 1_000 }],
  ])('a failing registrar record (%s) leaves the registry answer standing', async (_l, reply) => {
    const { rdap, seams } = await setup({ routes: { '/registrar/domain/example.com': reply } });
    const result = await rdapLookup('example.com', { ...seams, rdapTimeoutMs: 200 });
    expect(result).toEqual({ ...expectedRdap(rdap.url), expiration_date: '' });
  });

  test('the bootstrap is fetched once for many lookups through one cache', async () => {
    const { rdap, seams } = await setup();
    for (let i = 0; i < 3; i++) await rdapLookup('example.com', seams);
    expect(rdap.requests.filter((r) => r.path === '/dns.json')).toHaveLength(1);
  });

  test.each([
    ['not a domain', 'not a domain'],
    ['an IP address', '192.0.2.1'],
    ['a public suffix', 'co.uk'],
    ['a single label', 'localhost'],
    ['empty', ''],
  ])('%s → INVALID_INPUT, nothing queried', async (_label, domain) => {
    const { rdap, seams } = await setup();
    await expect(rdapLookup(domain, seams)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      param: 'domain',
    });
    expect(rdap.requests).toEqual([]);
  });
});

describe('whois() — RDAP first, WHOIS fallback (the unversioned family)', () => {
  const registryText = (registrar: string) =>
    [
      'Domain Name: EXAMPLE.COM',
      `Registrar WHOIS Server: ${registrar}`,
      'Updated Date: 2024-08-14T07:01:34Z',
      'Creation Date: 1995-08-14T04:00:00Z',
      'Registrar: RESERVED-Internet Assigned Numbers Authority',
      'Registrar IANA ID: 376',
      'Domain Status: clientDeleteProhibited https://icann.org/epp#clientDeleteProhibited',
      'Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited',
      'Name Server: A.IANA-SERVERS.NET',
      'Name Server: B.IANA-SERVERS.NET',
      '>>> Last update of whois database: 2025-01-01T00:00:00Z <<<',
      '',
    ].join('\r\n');

  test('RDAP data: the same record as v1, plus source "rdap"', async () => {
    const { rdap, seams, iana } = await setup();
    const v1 = await rdapLookup('example.com', seams);
    const unversioned = await whois('example.com', seams);
    const { source, ...rest } = unversioned;
    expect(source).toBe('rdap');
    expect(rest).toEqual(v1);
    expect(v1).toEqual(expectedRdap(rdap.url));
    expect(iana.queries).toEqual([]);
  });

  test.each([
    [
      'RDAP answers 404',
      { '/registry/domain/example.com': { status: 404 } },
      { com: '/registry/' },
    ],
    ['RDAP has no service for the TLD', {}, { org: '/registry/' }],
  ])('%s → IANA → registry → registrar over WHOIS', async (_label, routes, tlds) => {
    // Thin registry: no expiration date; the registrar adds it but does not override.
    const { seams, iana, registry, registrar } = await setup({
      routes,
      tlds,
      registryAnswers: (registrarAddress) => ({ 'example.com': registryText(registrarAddress) }),
      registrarAnswers: {
        'example.com':
          'Domain Name: example.com\nRegistrar Registration Expiration Date: 2030-08-13T04:00:00Z\nRegistrar: Should Not Win\n',
      },
    });
    const result = await whois('www.example.com', seams);
    expect(result).toEqual({
      domain: 'example.com',
      registrar: 'RESERVED-Internet Assigned Numbers Authority',
      registrar_iana_id: 376,
      creation_date: '1995-08-14T04:00:00.000Z',
      expiration_date: '2030-08-13T04:00:00.000Z',
      last_updated: '2024-08-14T07:01:34.000Z',
      name_servers: ['a.iana-servers.net', 'b.iana-servers.net'],
      status: ['client delete prohibited', 'client transfer prohibited'],
      rdap_link: '',
      source: 'whois',
    });
    expect(iana.queries).toEqual(['example.com']);
    expect(registry.queries).toEqual(['example.com']);
    expect(registrar.queries).toEqual(['example.com']);
  });

  test('a thick registry answer is not followed to the registrar', async () => {
    const { seams, registrar } = await setup({
      routes: { '/registry/domain/example.com': { status: 404 } },
      registryAnswers: {
        'example.com': `${registryText('127.0.0.1:1')}Registry Expiry Date: 2030-08-13T04:00:00Z\r\n`,
      },
    });
    const result = await whois('example.com', seams);
    expect(result.expiration_date).toBe('2030-08-13T04:00:00.000Z');
    expect(registrar.queries).toEqual([]);
  });

  test('a dead registrar WHOIS leaves the registry answer standing', async () => {
    const { seams, registrar } = await setup({
      routes: { '/registry/domain/example.com': { status: 404 } },
      registryAnswers: (registrarAddress) => ({ 'example.com': registryText(registrarAddress) }),
      registrarAnswers: { 'example.com': 'hang' },
    });
    const result = await whois('example.com', { ...seams, whoisHopTimeoutMs: 200 });
    expect(result.source).toBe('whois');
    expect(result.expiration_date).toBe('');
    expect(result.registrar).toBe('RESERVED-Internet Assigned Numbers Authority');
    expect(registrar.queries).toEqual(['example.com']);
  });

  test('registered nowhere → NOT_FOUND naming both sources', async () => {
    const { seams, registry } = await setup({
      routes: { '/registry/domain/example.com': { status: 404 } },
    });
    await expect(whois('example.com', seams)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Domain not found: example.com has no record in RDAP or WHOIS',
    });
    expect(registry.queries).toEqual(['example.com']);
  });

  test('a TLD without a WHOIS server (IANA answers with the TLD record) → NOT_FOUND', async () => {
    const { seams } = await setup({
      tlds: { net: '/registry/' },
      ianaAnswers: () => ({
        'example.com':
          '% IANA WHOIS server\n\ndomain:       COM\nstatus:       ACTIVE\ncreated:      1985-01-01\nnserver:      A.GTLD-SERVERS.NET 192.5.6.30\n',
      }),
    });
    await expect(whois('example.com', seams)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  test('"limit exceeded" → UPSTREAM_THROTTLED naming whois', async () => {
    const { seams } = await setup({
      routes: { '/registry/domain/example.com': { status: 404 } },
      registryAnswers: {
        'example.com': 'WHOIS LIMIT EXCEEDED - SEE WWW.PIR.ORG/WHOIS FOR DETAILS\n',
      },
    });
    await expect(whois('example.com', seams)).rejects.toMatchObject({
      code: 'UPSTREAM_THROTTLED',
      upstream: 'whois',
      retryAfterS: 60,
    });
  });

  // Issue 41 item 10: .nz prints the query's result as a numeric status line. A refusal says
  // nothing about the domain (an upstream error, in words); "not managed here" is not found.
  const nz = (status: string) =>
    `% .nz WHOIS\nversion: 8.0\ndomain_name: example.com\nquery_status: ${status}\n%\n`;

  test('"440 Request Denied" → UPSTREAM_ERROR naming whois, quoting the refusal', async () => {
    const { seams } = await setup({
      routes: { '/registry/domain/example.com': { status: 404 } },
      registryAnswers: { 'example.com': nz('440 Request Denied') },
    });
    const error = await whois('example.com', seams).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'whois' });
    expect((error as Error).message).toContain(
      'the registry\'s WHOIS server refused the query: "440 Request Denied"',
    );
    expect((error as Error).message).not.toMatch(/127\.0\.0\.1|:\d{4,5}\b/);
  });

  test('"510 Domain is not managed by this register" → NOT_FOUND', async () => {
    const { seams } = await setup({
      routes: { '/registry/domain/example.com': { status: 404 } },
      registryAnswers: { 'example.com': nz('510 Domain is not managed by this register') },
    });
    await expect(whois('example.com', seams)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  test('a registry WHOIS that never answers → UPSTREAM_TIMEOUT naming whois', async () => {
    const { seams } = await setup({
      routes: { '/registry/domain/example.com': { status: 404 } },
      registryAnswers: { 'example.com': 'hang' },
    });
    await expect(whois('example.com', { ...seams, whoisHopTimeoutMs: 150 })).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      upstream: 'whois',
    });
  });

  test('a Latin-1 registry answer is decoded', async () => {
    const { seams } = await setup({
      routes: { '/registry/domain/example.com': { status: 404 } },
      registryAnswers: {
        'example.com': Buffer.from(
          'domain: example.com\nregistrar: Société Française\ncreated: 2001-02-03\n',
          'latin1',
        ),
      },
    });
    const result = await whois('example.com', seams);
    expect(result.registrar).toBe('Société Française');
    expect(result.creation_date).toBe('2001-02-03T00:00:00.000Z');
  });

  test('RDAP throttling or failure is reported, not hidden behind WHOIS', async () => {
    const { seams, iana } = await setup({
      routes: { '/registry/domain/example.com': { status: 429, headers: { 'retry-after': '7' } } },
    });
    await expect(whois('example.com', seams)).rejects.toMatchObject({
      code: 'UPSTREAM_THROTTLED',
      retryAfterS: 7,
    });
    expect(iana.queries).toEqual([]);
  });

  test('fallback: false behaves like v1', async () => {
    const { seams, iana } = await setup({
      routes: { '/registry/domain/example.com': { status: 404 } },
    });
    await expect(whois('example.com', { ...seams, fallback: false })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Domain not found in RDAP',
    });
    expect(iana.queries).toEqual([]);
  });
});

describe('rdapLookupResource (IP networks and AS numbers)', () => {
  test('an IPv4 address → ipv4.json → /ip/<addr>', async () => {
    const { rdap, seams } = await setup({
      routes: {
        '/rir/ip/8.8.8.8': {
          body: {
            objectClassName: 'ip network',
            handle: 'NET-8-8-8-0-2',
            name: 'GOGL',
            startAddress: '8.8.8.0',
            endAddress: '8.8.8.255',
            country: 'US',
            status: ['active'],
          },
        },
      },
    });
    const result = await rdapLookupResource('8.8.8.8', seams);
    expect(result).toMatchObject({
      query: '8.8.8.8',
      object_class: 'ip network',
      handle: 'NET-8-8-8-0-2',
      start: '8.8.8.0',
      end: '8.8.8.255',
      rdap_link: `${rdap.url}/rir/ip/8.8.8.8`,
    });
    expect(rdap.requests.map((r) => r.path)).toEqual(['/ipv4.json', '/rir/ip/8.8.8.8']);
  });

  test('an AS number → asn.json → /autnum/<n>', async () => {
    const { rdap, seams } = await setup({
      routes: {
        '/rir/autnum/13335': {
          body: {
            objectClassName: 'autnum',
            handle: 'AS13335',
            startAutnum: 13335,
            endAutnum: 13335,
            name: 'CLOUDFLARENET',
          },
        },
      },
    });
    const result = await rdapLookupResource('as13335', seams);
    expect(result).toMatchObject({ query: 'AS13335', name: 'CLOUDFLARENET', start: 'AS13335' });
    expect(rdap.requests.map((r) => r.path)).toEqual(['/asn.json', '/rir/autnum/13335']);
  });

  test('IPv6 goes through ipv6.json', async () => {
    const { rdap, seams } = await setup({
      routes: { '/rir/ip/2001:db8::1': { body: { objectClassName: 'ip network', handle: 'V6' } } },
    });
    expect((await rdapLookupResource('2001:DB8::1', seams)).handle).toBe('V6');
    expect(rdap.requests[0]?.path).toBe('/ipv6.json');
  });

  test.each([
    ['no service covers it', '9.9.9.9'],
    ['the RIR has no record', '8.8.4.4'],
    ['no service covers the AS', 'AS1'],
  ])('%s → NOT_FOUND', async (_label, query) => {
    const { seams } = await setup();
    await expect(rdapLookupResource(query, seams)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  test.each(['example.com', 'AS-1', 'AS99999999999', ''])('%j → INVALID_INPUT', async (query) => {
    const { seams } = await setup();
    await expect(rdapLookupResource(query, seams)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
