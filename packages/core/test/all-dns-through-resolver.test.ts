/**
 * CONTRACT §5: NETDIAG_DNS_SERVERS is used for ALL DNS work. In this process the system
 * resolver is made unusable (node:dns `lookup`, `lookupService`, every `resolve*`/`reverse`
 * function and `Resolver` method count the call and throw), and a loopback DNS fixture is the
 * only place that knows the upstream names. Every upstream client is then run by host name
 * with `resolver` pointing at that fixture: each must answer correctly with zero system calls.
 */
import dns from 'node:dns';
import { rmSync } from 'node:fs';
import type http from 'node:http';
import {
  bootstrapFile,
  bootstrapRoute,
  type DnsTestServer,
  type HttpTarget,
  type RdapTestServer,
  startDnsServer,
  startHttpTarget,
  startRdapServer,
  startWhoisServer,
  startXposedOrNotServer,
  tempDir,
  type WhoisTestServer,
  type XonFakeServer,
} from '@netdiag/test-utils';
import * as packet from 'dns-packet';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { checkBreach } from '../src/breach/index.js';
import { createNetdiag } from '../src/engine/index.js';
import { parseTorExitList } from '../src/ip/tor-exit-list.js';
import { discoverPublicIp, parseMyIpServers } from '../src/myip/index.js';
import { createMemoryCache } from '../src/net/cache.js';
import { upstreamRequest } from '../src/net/http-client.js';
import { createResolver, type Resolver } from '../src/net/resolver.js';
import { queryWhoisServer } from '../src/whois/index.js';
import { rdapLookup, rdapLookupResource, whois } from '../src/whois/lookup.js';

// --- The trap: every entry point of the system resolver counts and throws ---

const systemCalls: string[] = [];
const restores: (() => void)[] = [];

function trap(target: object, key: string, label: string): void {
  const slots = target as Record<string, unknown>;
  const original = slots[key];
  if (typeof original !== 'function') return;
  slots[key] = function systemResolver(...args: unknown[]) {
    systemCalls.push(`${label}(${String(args[0])})`);
    throw new Error(`the system resolver was used: ${label}(${String(args[0])})`);
  };
  restores.push(() => {
    slots[key] = original;
  });
}

function trapSystemResolver(): void {
  const dnsApi = (name: string) => /^(lookup|lookupService|resolve|reverse)/.test(name);
  for (const key of Object.keys(dns)) if (dnsApi(key)) trap(dns, key, `dns.${key}`);
  for (const key of Object.keys(dns.promises)) {
    if (dnsApi(key)) trap(dns.promises, key, `dns.promises.${key}`);
  }
  for (const [proto, label] of [
    [dns.Resolver.prototype, 'dns.Resolver#'],
    [dns.promises.Resolver.prototype, 'dns.promises.Resolver#'],
  ] as const) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (/^(resolve|reverse)/.test(key)) trap(proto, key, `${label}${key}`);
    }
  }
}

// --- Fixtures (all started before the trap: listening on a host looks it up) ---

/** The fixtures sit on loopback; referrals to them are exempt as NETDIAG_ALLOWED_TARGETS would make them. */
const LOOPBACK = ['127.0.0.0/8', '::1/128'];

let names: DnsTestServer;
let myip: DnsTestServer;
let whoisRoot: WhoisTestServer;
let whoisRegistry: WhoisTestServer;
let whoisRegistrar: WhoisTestServer;
let rdap: RdapTestServer;
let xon: XonFakeServer;
let tor: HttpTarget;
let doh: HttpTarget;
let resolver: Resolver;

const portOf = (url: string) => new URL(url).port;

/** A DoH server (RFC 8484 POST) that alone knows `only-via-doh.test`. */
function dohRoute(req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const query = packet.decode(Buffer.concat(chunks));
    const question = query.questions?.[0];
    const known = question?.name.toLowerCase() === 'only-via-doh.test' && question.type === 'A';
    const answer = packet.encode({
      id: query.id ?? 0,
      type: 'response',
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (known ? 0 : 3),
      questions: query.questions ?? [],
      answers: known
        ? [{ name: 'only-via-doh.test', type: 'A', class: 'IN', ttl: 60, data: '192.0.2.77' }]
        : [],
    } as packet.Packet);
    res.writeHead(200, { 'content-type': 'application/dns-message' }).end(answer);
  });
}

beforeAll(async () => {
  [whoisRegistrar, rdap, xon, myip] = await Promise.all([
    startWhoisServer({
      answers: {
        'example.com':
          'Domain Name: example.com\nRegistrar Registration Expiration Date: 2030-08-13T04:00:00Z\n',
      },
    }),
    startRdapServer(),
    startXposedOrNotServer({ accounts: { 'someone@example.com': ['Adobe', 'LinkedIn'] } }),
    startDnsServer({
      zone: {
        'myip.opendns.com': { A: ['203.0.113.7'] },
        'o-o.myaddr.l.google.com': { TXT: ['198.51.100.42'] },
      },
    }),
  ]);
  whoisRegistry = await startWhoisServer({
    answers: {
      'example.com': [
        'Domain Name: EXAMPLE.COM',
        `Registrar WHOIS Server: whois-registrar.test:${whoisRegistrar.port}`,
        'Creation Date: 1995-08-14T04:00:00Z',
        'Registrar: Example Registrar, Inc.',
        'Name Server: A.IANA-SERVERS.NET',
        '',
      ].join('\r\n'),
    },
  });
  whoisRoot = await startWhoisServer({
    answers: (query) =>
      `% IANA WHOIS server\n\nrefer:        whois-registry.test:${whoisRegistry.port}\n\ndomain:       ${query.split('.').pop()?.toUpperCase()}\n`,
  });
  tor = await startHttpTarget({
    host: '::1',
    routes: {
      '/torbulkexitlist': (_req, res) => void res.end('192.0.2.10\n2001:db8::10\n'),
    },
  });
  doh = await startHttpTarget({ routes: { '/dns-query': dohRoute } });

  const rdapPort = portOf(rdap.url);
  Object.assign(rdap.routes, {
    // Only .org has an RDAP service: .com falls back to WHOIS.
    '/dns.json': bootstrapRoute(
      bootstrapFile([[['org'], [`http://rdap.test:${rdapPort}/registry/`]]]),
    ),
    '/ipv4.json': bootstrapRoute(
      bootstrapFile([[['192.0.2.0/24'], [`http://rdap.test:${rdapPort}/rir/`]]]),
    ),
    '/registry/domain/example.org': {
      body: {
        objectClassName: 'domain',
        ldhName: 'example.org',
        events: [{ eventAction: 'registration', eventDate: '2001-02-03T04:05:06Z' }],
        entities: [
          {
            objectClassName: 'entity',
            roles: ['registrar'],
            vcardArray: ['vcard', [['fn', {}, 'text', 'Org Registrar']]],
          },
        ],
        links: [
          {
            rel: 'related',
            href: `http://rdap-registrar.test:${rdapPort}/registrar/domain/example.org`,
          },
        ],
      },
    },
    '/registrar/domain/example.org': {
      body: {
        objectClassName: 'domain',
        ldhName: 'example.org',
        events: [{ eventAction: 'expiration', eventDate: '2031-01-01T00:00:00Z' }],
      },
    },
    '/rir/ip/192.0.2.1': {
      body: {
        objectClassName: 'ip network',
        handle: 'TEST-NET-1',
        startAddress: '192.0.2.0',
        endAddress: '192.0.2.255',
        name: 'DOCUMENTATION',
        country: 'ZZ',
      },
    },
  });

  const local = { A: ['127.0.0.1'] };
  names = await startDnsServer({
    zone: {
      'whois-root.test': local,
      'whois-registry.test': local,
      'whois-registrar.test': local,
      'rdap.test': local,
      'rdap-registrar.test': local,
      'breach.test': local,
      // Dual-stack: the Tor fixture listens on ::1 only.
      'tor.test': { A: ['127.0.0.1'], AAAA: ['::1'] },
      'doh.test': local,
    },
  });
  resolver = createResolver({ servers: [names.address], attemptTimeout: 1000 });
  trapSystemResolver();
});

afterAll(async () => {
  for (const restore of restores.splice(0)) restore();
  await Promise.all(
    [names, myip, whoisRoot, whoisRegistry, whoisRegistrar, rdap, xon, tor, doh].map((f) =>
      f?.close(),
    ),
  );
});

afterEach(() => {
  systemCalls.length = 0;
});

const asked = (server: DnsTestServer) => new Set(server.queries.map((q) => q.name));

describe('control: the trap really intercepts the system resolver', () => {
  // `localhost` passes the loopback guard (other names are stopped before any lookup), so
  // these reach node:dns exactly as a public name would.
  test('a plain fetch() by name', async () => {
    await expect(fetch(`http://localhost:${doh.port}/`)).rejects.toThrow();
    expect(systemCalls).toEqual(['dns.lookup(localhost)']);
  });
  test('upstreamRequest() and the WHOIS client without a resolver', async () => {
    await expect(
      upstreamRequest(`http://localhost:${doh.port}/`, { upstream: 'control' }),
    ).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
    // The trap throws synchronously, from inside net.connect.
    await expect(
      (async () =>
        queryWhoisServer({
          server: { host: 'localhost', port: whoisRoot.port },
          query: 'example.com',
        }))(),
    ).rejects.toThrow(/system resolver was used/);
    expect(systemCalls).toEqual(['dns.lookup(localhost)', 'dns.lookup(localhost)']);
  });
  test('node:dns resolvers', async () => {
    expect(() => new dns.promises.Resolver().resolve4('example.test')).toThrow(
      /system resolver was used/,
    );
    expect(systemCalls).toEqual(['dns.promises.Resolver#resolve4(example.test)']);
  });
});

describe('with `resolver`, nothing asks the system resolver', () => {
  test('WHOIS: root, referral and registrar hosts by name (RDAP bootstrap first)', async () => {
    const result = await whois('www.example.com', {
      resolver,
      cache: createMemoryCache(),
      bootstrapUrl: `http://rdap.test:${portOf(rdap.url)}/dns.json`,
      allowedTargets: LOOPBACK,
      whoisServer: `whois-root.test:${whoisRoot.port}`,
      whoisHopTimeoutMs: 2000,
    });
    expect(result).toMatchObject({
      source: 'whois',
      domain: 'example.com',
      registrar: 'Example Registrar, Inc.',
      creation_date: '1995-08-14T04:00:00.000Z',
      expiration_date: '2030-08-13T04:00:00.000Z',
      name_servers: ['a.iana-servers.net'],
    });
    expect(whoisRoot.queries).toEqual(['example.com']);
    expect(whoisRegistry.queries).toEqual(['example.com']);
    expect(whoisRegistrar.queries).toEqual(['example.com']);
    for (const name of [
      'rdap.test',
      'whois-root.test',
      'whois-registry.test',
      'whois-registrar.test',
    ]) {
      expect(asked(names).has(name)).toBe(true);
    }
    expect(systemCalls).toEqual([]);
  });

  test('RDAP: bootstrap, registry and registrar by name; Host keeps the name', async () => {
    const before = rdap.requests.length;
    const result = await rdapLookup('example.org', {
      resolver,
      cache: createMemoryCache(),
      bootstrapUrl: `http://rdap.test:${portOf(rdap.url)}/dns.json`,
      allowedTargets: LOOPBACK,
    });
    expect(result).toMatchObject({
      domain: 'example.org',
      registrar: 'Org Registrar',
      creation_date: '2001-02-03T04:05:06.000Z',
      expiration_date: '2031-01-01T00:00:00.000Z',
      rdap_link: `http://rdap.test:${portOf(rdap.url)}/registry/domain/example.org`,
    });
    const port = portOf(rdap.url);
    expect(rdap.requests.slice(before).map((r) => `${r.headers.host} ${r.path}`)).toEqual([
      `rdap.test:${port} /dns.json`,
      `rdap.test:${port} /registry/domain/example.org`,
      `rdap-registrar.test:${port} /registrar/domain/example.org`,
    ]);
    const network = await rdapLookupResource('192.0.2.1', {
      resolver,
      cache: createMemoryCache(),
      bootstrapUrl: `http://rdap.test:${port}/dns.json`,
      allowedTargets: LOOPBACK,
    });
    expect(network).toMatchObject({ handle: 'TEST-NET-1', name: 'DOCUMENTATION' });
    expect(systemCalls).toEqual([]);
  });

  test('RDAP through the shared per-resolver loader (no cache given)', async () => {
    const result = await rdapLookup('example.org', {
      resolver,
      bootstrapUrl: `http://rdap.test:${portOf(rdap.url)}/dns.json`,
      allowedTargets: LOOPBACK,
    });
    expect(result.registrar).toBe('Org Registrar');
    expect(systemCalls).toEqual([]);
  });

  test('breach API by name', async () => {
    const result = await checkBreach('Someone@Example.com', {
      apiUrl: `http://breach.test:${portOf(xon.url)}`,
      resolver,
    });
    expect(result).toMatchObject({
      email: 'som***@example.com',
      status: 'checked',
      breaches: 2,
      services: ['Adobe', 'LinkedIn'],
    });
    expect(xon.requests.at(-1)).toBe('someone@example.com');
    expect(asked(names).has('breach.test')).toBe(true);
    expect(systemCalls).toEqual([]);
  });

  test('a Tor-list style upstreamRequest by name (dual-stack name, IPv6-only server)', async () => {
    const response = await upstreamRequest(`http://tor.test:${tor.port}/torbulkexitlist`, {
      upstream: 'tor-exit-list',
      resolver,
    });
    expect(response.status).toBe(200);
    const list = parseTorExitList(response.body.toString('utf8'));
    expect(list.size).toBe(2);
    expect(list.has('192.0.2.10')).toBe(true);
    expect(list.has('2001:db8::10')).toBe(true);
    expect(systemCalls).toEqual([]);
  });

  test('DoH by host name: the URL host is bootstrapped over the plain servers', async () => {
    const before = names.queries.length;
    const viaDoh = createResolver({
      dohUrl: `http://doh.test:${doh.port}/dns-query`,
      servers: [names.address],
      cache: false,
    });
    const response = await viaDoh.query('only-via-doh.test', 'A');
    expect(response).toMatchObject({ transport: 'doh', rcode: 'NOERROR' });
    expect(response.answers.map((a) => a.data)).toEqual(['192.0.2.77']);
    const plain = names.queries.slice(before).map((q) => `${q.name} ${q.type}`);
    expect(plain.sort()).toEqual(['doh.test A', 'doh.test AAAA']);
    expect(doh.requests).toContain('/dns-query');
    expect(systemCalls).toEqual([]);
  });

  test('DoH by host name without servers: the system servers, asked by our own client', async () => {
    const getServers = dns.getServers;
    dns.getServers = () => [names.address];
    try {
      const viaDoh = createResolver({
        dohUrl: `http://doh.test:${doh.port}/dns-query`,
        cache: false,
      });
      const response = await viaDoh.query('only-via-doh.test', 'A');
      expect(response.answers.map((a) => a.data)).toEqual(['192.0.2.77']);
    } finally {
      dns.getServers = getServers;
    }
    expect(systemCalls).toEqual([]);
  });

  test("this machine's public address (core's own DNS client)", async () => {
    const methods = parseMyIpServers(`${myip.address},${myip.address}`);
    expect(await discoverPublicIp({ methods })).toBe('203.0.113.7');
    const google = parseMyIpServers(`127.0.0.1:1,${myip.address}`);
    expect(await discoverPublicIp({ methods: google, timeout: 500 })).toBe('198.51.100.42');
    expect(systemCalls).toEqual([]);
  });
});

describe('the engine, configured with host names only, asks nothing of the system resolver', () => {
  test('WHOIS, RDAP, breach, the Tor feed, DoH and my-IP through NETDIAG_DNS_SERVERS', async () => {
    const cacheDir = tempDir('netdiag-all-dns-');
    const rdapPort = portOf(rdap.url);
    const engine = createNetdiag({
      dnsServers: [names.address],
      whoisServer: `whois-root.test:${whoisRoot.port}`,
      rdapBootstrapUrl: `http://rdap.test:${rdapPort}/dns.json`,
      allowedTargets: LOOPBACK,
      breachApiUrl: `http://breach.test:${portOf(xon.url)}`,
      torExitListUrl: `http://tor.test:${tor.port}/torbulkexitlist`,
      myIpServers: `opendns=${myip.address}`,
      cacheDir,
    });
    const viaDoh = createNetdiag({
      dnsServers: [names.address],
      dohUrl: `http://doh.test:${doh.port}/dns-query`,
      cacheDir,
    });
    try {
      expect(await engine.whois('www.example.com')).toMatchObject({
        source: 'whois',
        registrar: 'Example Registrar, Inc.',
        expiration_date: '2030-08-13T04:00:00.000Z',
      });
      expect((await engine.whoisV1('example.org')).registrar).toBe('Org Registrar');
      expect(await engine.breach('someone@example.com')).toMatchObject({ breaches: 2 });
      expect(await engine.refreshFeeds()).toEqual(['tor-exit-list']);
      expect(engine.torExitList()?.has('2001:db8::10')).toBe(true);
      expect(await engine.myIp()).toBe('203.0.113.7');
      const answer = await viaDoh.dns({ domain: 'only-via-doh.test' });
      expect(answer.records.map((r) => r.data)).toEqual(['192.0.2.77']);
      expect(systemCalls).toEqual([]);
    } finally {
      await Promise.all([engine.close(), viaDoh.close()]);
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
