import { writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { join } from 'node:path';
import {
  type DnsTestServer,
  type HttpTarget,
  startDnsServer,
  startHttpTarget,
  tempDir,
} from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeSelfSignedCert } from '../../../test-utils/src/https-target.js';
import { type CreateAppOptions, createApp, type NetdiagApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { closeContext } from '../src/context.js';
import { startServer } from '../src/server.js';
import { expectMatchesSchema } from './expect-schema.js';

// --- Fixtures: DNS (DNSBLs + reverse zone), Tor exit list ---

const REVERSE_SOA = {
  mname: 'ns1.google.com',
  rname: 'dns-admin.google.com',
  serial: 2026112101,
  refresh: 900,
  retry: 900,
  expire: 1800,
  minimum: 60,
};
let dns: DnsTestServer;
let tor: HttpTarget;
let direct: NetdiagApp;
let proxied: NetdiagApp;
const cacheDir = tempDir('netdiag-caller-');

beforeAll(async () => {
  dns = await startDnsServer({
    zone: {
      // 8.8.8.8 is listed on Spamhaus ZEN (SBL return code) — and only there.
      '8.8.8.8.zen.spamhaus.org': { A: ['127.0.0.2'], TXT: ['https://check.spamhaus.org/sbl'] },
      '8.in-addr.arpa': { SOA: REVERSE_SOA },
    },
    // SpamCop fails: it must be named in the evidence, and the score uses the other lists.
    onQuery: (q) => (q.name.endsWith('bl.spamcop.net') ? 'servfail' : undefined),
  });
  tor = await startHttpTarget({
    routes: {
      '/torbulkexitlist': (_req, res) =>
        void res.writeHead(200, { 'content-type': 'text/plain' }).end('185.220.101.1\n'),
    },
  });
  const options: CreateAppOptions = {
    logLevel: 'silent',
    dnsServers: [dns.address],
    cacheDir,
    torExitListUrl: `${tor.url}/torbulkexitlist`,
    rateLimit: 100_000,
  };
  direct = createApp(options);
  // One engine (one dataset load) for both apps.
  proxied = createApp({ ...options, trustProxy: 'loopback', engine: direct.locals.netdiag.engine });
  await direct.locals.netdiag.engine.datasets();
  expect(await direct.locals.netdiag.engine.refreshFeeds()).toEqual(['tor-exit-list']);
}, 120_000);

afterAll(async () => {
  await Promise.all([closeContext(direct.locals.netdiag), closeContext(proxied.locals.netdiag)]);
  await Promise.all([dns.close(), tor.close()]);
});

const datasets = () => direct.locals.netdiag.engine.datasets();
const via = (ip: string) => ({ 'X-Forwarded-For': ip });

const SPEC_IP_KEYS = ['ip', 'location', 'network', 'privacy', 'is_eu', 'ipv6', 'bogon'];
const SPEC_IP_LOCATION = [
  'city',
  'region',
  'country',
  'country_name',
  'continent',
  'latitude',
  'longitude',
  'timezone',
  'postal_code',
];
const SPEC_IP_PRIVACY = [
  'type',
  'score',
  'grade',
  'is_vpn',
  'is_datacenter',
  'is_residential',
  'hosting',
  'proxy',
];

/** Every SPEC 2.2 field present, with its SPEC type. */
function expectIpShape(data: Record<string, unknown>) {
  expect(Object.keys(data)).toEqual(SPEC_IP_KEYS);
  const location = data['location'] as Record<string, unknown>;
  expect(Object.keys(location)).toEqual(SPEC_IP_LOCATION);
  for (const key of SPEC_IP_LOCATION) expect(typeof location[key]).toBe('string');
  const network = data['network'] as Record<string, unknown>;
  expect(Object.keys(network)).toEqual(['asn', 'isp', 'connection_type', 'tls_version']);
  expect(['number', 'object']).toContain(typeof network['asn']);
  const privacy = data['privacy'] as Record<string, unknown>;
  expect(Object.keys(privacy)).toEqual(SPEC_IP_PRIVACY);
  expect(['residential', 'vpn', 'datacenter']).toContain(privacy['type']);
  expect(typeof privacy['score']).toBe('number');
  expect(['A', 'B', 'C', 'D']).toContain(privacy['grade']);
  for (const key of SPEC_IP_PRIVACY.slice(3)) expect(typeof privacy[key]).toBe('boolean');
  expect(typeof data['is_eu']).toBe('boolean');
  expect(typeof data['ipv6']).toBe('boolean');
}

describe('GET /api/ip, direct callers', () => {
  test('IPv4 loopback caller: SPEC 2.2 shape, bogon, no DNSBL query', async () => {
    const before = dns.queries.length;
    const res = await request(direct).get('/api/ip');
    expect(res.status).toBe(200);
    expectMatchesSchema('callerIp', res.body);
    expectIpShape(res.body.data);
    expect(res.body.data).toMatchObject({
      ip: '127.0.0.1',
      location: { city: '', country: '', latitude: '', longitude: '' },
      network: { asn: null, isp: '', connection_type: 'HTTP/1.1', tls_version: '' },
      // A bogon is `residential` and its booleans agree with that type (docs/caller.md).
      privacy: {
        type: 'residential',
        score: 100,
        grade: 'A',
        is_vpn: false,
        is_datacenter: false,
        is_residential: true,
      },
      is_eu: false,
      ipv6: false,
      bogon: true,
    });
    expect(dns.queries.length).toBe(before);
  });

  test('IPv6 caller (::1): ipv6 true', async () => {
    const server = direct.listen(0, '::1');
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as AddressInfo;
      const body = await getJson(`http://[::1]:${port}/api/ip`);
      expectMatchesSchema('callerIp', body);
      expectIpShape(body.data);
      expect(body.data).toMatchObject({ ip: '::1', ipv6: true, bogon: true });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  test('IPv4-mapped socket address (dual-stack listener) is reported as IPv4', async () => {
    const server = direct.listen(0); // no host: the dual-stack "::" socket
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as AddressInfo;
      const body = await getJson(`http://127.0.0.1:${port}/api/ip`);
      expectMatchesSchema('callerIp', body);
      expect(body.data).toMatchObject({ ip: '127.0.0.1', ipv6: false });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  test('X-Forwarded-For is ignored without NETDIAG_TRUST_PROXY', async () => {
    const res = await request(direct).get('/api/ip').set(via('8.8.8.8'));
    expectMatchesSchema('callerIp', res.body);
    expect(res.body.data.ip).toBe('127.0.0.1');
  });

  test('an HTTP/1.0 request says so', async () => {
    const server = direct.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as AddressInfo;
      const raw = await rawRequest(port, 'GET /api/ip HTTP/1.0\r\nHost: x\r\n\r\n');
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
      expectMatchesSchema('callerIp', body);
      expect(body.data.network.connection_type).toBe('HTTP/1.0');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('behind a trusted proxy', () => {
  test('IPv4 8.8.8.8: every field from the datasets, score from the table', async () => {
    const res = await request(proxied).get('/api/ip').set(via('8.8.8.8'));
    expect(res.status).toBe(200);
    expectMatchesSchema('callerIp', res.body);
    const data = res.body.data;
    expectIpShape(data);
    const info = (await datasets()).lookup('8.8.8.8');
    expect(data.ip).toBe('8.8.8.8');
    expect(data.location).toEqual({
      city: info.location.city,
      region: info.location.region,
      country: info.location.country,
      country_name: info.location.country_name,
      continent: info.location.continent,
      latitude: String(info.location.latitude),
      longitude: String(info.location.longitude),
      timezone: info.location.timezone,
      postal_code: info.location.postal_code,
    });
    expect(data.location.latitude).toMatch(/^-?\d+(\.\d+)?$/);
    expect(data.network).toEqual({
      asn: 15169,
      isp: info.network.isp,
      connection_type: 'HTTP/1.1',
      tls_version: '',
    });
    expect(data.is_eu).toBe(info.location.is_eu);
    // Hosting (-25) and one listing on Spamhaus ZEN (-15): 60, B.
    expect(data.privacy).toEqual({
      type: 'datacenter',
      score: 60,
      grade: 'B',
      is_vpn: false,
      is_datacenter: true,
      is_residential: false,
      hosting: true,
      proxy: false,
    });
    expect(data.ipv6).toBe(false);
    expect(data.bogon).toBe(false);
  });

  test('IPv6 2001:4860:4860::8888: ipv6 true, AS15169', async () => {
    const res = await request(proxied).get('/api/ip').set(via('2001:4860:4860::8888'));
    expectMatchesSchema('callerIp', res.body);
    expectIpShape(res.body.data);
    expect(res.body.data).toMatchObject({
      ip: '2001:4860:4860::8888',
      ipv6: true,
      network: { asn: 15169 },
      privacy: { type: 'datacenter', score: 75, grade: 'B' },
    });
  });

  test.each([
    ['1.2.3.4:5678', '1.2.3.4'],
    ['"1.2.3.4:5678"', '1.2.3.4'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['[2001:DB8::1]', '2001:db8::1'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['[::ffff:1.2.3.4]:80', '1.2.3.4'],
    ['fe80::1%eth0', 'fe80::1'],
  ])('a forwarded %s is the caller %s', async (forwarded, ip) => {
    const res = await request(proxied).get('/api/v1/ip').set(via(forwarded));
    expect(res.status).toBe(200);
    expect(res.body.data.ip).toBe(ip);
  });

  test('a forwarded node without an address counts as the proxy', async () => {
    const res = await request(proxied).get('/api/v1/ip').set(via('unknown'));
    expect(res.status).toBe(200);
    expect(res.body.data.ip).toBe('127.0.0.1');
  });

  test('one client behind a proxy that adds ports is one rate-limit bucket', async () => {
    const limited = createApp({
      logLevel: 'silent',
      env: false,
      trustProxy: 'loopback',
      rateLimit: 3,
      engine: direct.locals.netdiag.engine,
    });
    try {
      const statuses: number[] = [];
      for (let port = 5000; port < 5005; port++) {
        const res = await request(limited)
          .get('/api/v1/ip')
          .set(via(`203.0.113.9:${port}`));
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await closeContext(limited.locals.netdiag);
    }
  });

  test('a proxy-reported HTTP and TLS version is believed from a trusted peer only', async () => {
    const headers = {
      ...via('8.8.8.8'),
      'X-Forwarded-HTTP-Version': 'HTTP/2.0',
      'X-Forwarded-TLS-Version': 'TLSv1.3',
    };
    const trusted = await request(proxied).get('/api/ip').set(headers);
    expectMatchesSchema('callerIp', trusted.body);
    expect(trusted.body.data.network).toMatchObject({
      connection_type: 'HTTP/2',
      tls_version: 'TLSv1.3',
    });
    const untrusted = await request(direct).get('/api/ip').set(headers);
    expectMatchesSchema('callerIp', untrusted.body);
    expect(untrusted.body.data.network).toMatchObject({
      connection_type: 'HTTP/1.1',
      tls_version: '',
    });
    const junk = await request(proxied)
      .get('/api/ip')
      .set({ ...headers, 'X-Forwarded-TLS-Version': '<script>' });
    expectMatchesSchema('callerIp', junk.body);
    expect(junk.body.data.network.tls_version).toBe('');
  });
});

describe('GET /api/v1/ip', () => {
  test('v1 form: numeric coordinates, is_eu in location, org, as_name, label, authority', async () => {
    const res = await request(proxied).get('/api/v1/ip').set(via('8.8.8.8'));
    expect(res.status).toBe(200);
    expectMatchesSchema('callerIpV1', res.body);
    const data = res.body.data;
    const info = (await datasets()).lookup('8.8.8.8');
    expect(Object.keys(data)).toEqual([
      'ip',
      'location',
      'network',
      'privacy',
      'ipv6',
      'authority',
      'bogon',
    ]);
    expect(data.location).toEqual({
      city: info.location.city,
      region: info.location.region,
      country: info.location.country,
      country_name: info.location.country_name,
      continent: info.location.continent,
      latitude: info.location.latitude,
      longitude: info.location.longitude,
      timezone: info.location.timezone,
      postal_code: info.location.postal_code,
      is_eu: info.location.is_eu,
    });
    expect(typeof data.location.latitude).toBe('number');
    expect(data).not.toHaveProperty('is_eu');
    expect(data.network).toEqual({
      asn: 15169,
      isp: info.network.isp,
      org: info.network.org,
      as_name: info.network.as_name,
      connection_type: 'HTTP/1.1',
      tls_version: '',
    });
    expect(data.privacy).toMatchObject({ score: 60, grade: 'B', label: 'Mostly clean' });
    // 8.8.8.8 has no PTR in the fixture: the reverse zone's SOA is the authority.
    expect(data.authority).toEqual([
      {
        name: '8.in-addr.arpa.',
        type: 6,
        ttl: 300,
        data: 'ns1.google.com. dns-admin.google.com. 2026112101 900 900 1800 60',
      },
    ]);
  });

  test('a loopback caller: authority is [] and no DNS is asked', async () => {
    const before = dns.queries.length;
    const res = await request(direct).get('/api/v1/ip');
    expectMatchesSchema('callerIpV1', res.body);
    expect(res.body.data).toMatchObject({ ip: '127.0.0.1', authority: [], bogon: true });
    expect(dns.queries.length).toBe(before);
  });
});

describe('GET /api/score', () => {
  test('SPEC 2.4 shape, flags and the evidence behind the score', async () => {
    const res = await request(proxied).get('/api/score').set(via('8.8.8.8'));
    expect(res.status).toBe(200);
    expectMatchesSchema('callerScore', res.body);
    const data = res.body.data;
    expect(Object.keys(data)).toEqual(['ip', 'location', 'network', 'privacy', 'ipv6', 'bogon']);
    expect(Object.keys(data.location)).toEqual(['city', 'country', 'timezone']);
    expect(data.network).toMatchObject({ asn: 15169, tls_version: '' });
    expect(typeof data.network.isp).toBe('string');
    expect(Object.keys(data.privacy)).toEqual([
      'type',
      'score',
      'grade',
      'label',
      'flags',
      'is_vpn',
      'is_datacenter',
      'is_residential',
      'evidence',
    ]);
    expect(data.privacy).toMatchObject({
      type: 'datacenter',
      score: 60,
      grade: 'B',
      label: 'Mostly clean',
      flags: ['Listed on 1 spam blacklist'],
    });
    const evidence = data.privacy.evidence as { signal: string; weight: number; source: string }[];
    expect(evidence.find((e) => e.signal === 'datacenter')).toMatchObject({ weight: -25 });
    expect(evidence.find((e) => e.signal === 'datacenter')?.source).toMatch(/15169|Google/);
    expect(evidence.find((e) => e.signal === 'dnsbl_listed')).toMatchObject({
      weight: -15,
      source: 'zen.spamhaus.org',
    });
    const unavailable = evidence.find((e) => e.signal === 'dnsbl_unavailable');
    expect(unavailable?.weight).toBe(0);
    expect(unavailable?.source).toContain('bl.spamcop.net');
    expect(evidence.reduce((sum, e) => sum + e.weight, 100)).toBe(60);
  });

  test('the score agrees with /api/blacklist', async () => {
    const res = await request(proxied).get('/api/blacklist?ip=8.8.8.8');
    expect(res.status).toBe(200);
    expectMatchesSchema('blacklist', res.body);
    expect(res.body.data).toMatchObject({ listed_count: 1, unavailable_count: 1 });
    const score = await request(proxied).get('/api/score').set(via('8.8.8.8'));
    expectMatchesSchema('callerScore', score.body);
    expect(score.body.data.privacy.flags).toEqual([
      `Listed on ${res.body.data.listed_count} spam blacklist`,
    ]);
  });

  test('a Tor exit: type vpn, the Tor flag, counted once', async () => {
    const res = await request(proxied).get('/api/score').set(via('185.220.101.1'));
    expectMatchesSchema('callerScore', res.body);
    const privacy = res.body.data.privacy;
    expect(privacy.type).toBe('vpn');
    expect(privacy).toMatchObject({ is_vpn: true, is_datacenter: false, is_residential: false });
    expect(privacy.flags).toContain('Tor exit node');
    const signals = (privacy.evidence as { signal: string }[]).map((e) => e.signal);
    expect(signals).toContain('tor_exit');
    expect(signals).not.toContain('proxy');
    expect(privacy.score).toBeLessThanOrEqual(50);
    expect(privacy.grade).toMatch(/[CD]/);
  });

  test('the same address gets the same score on every endpoint', async () => {
    for (const ip of ['8.8.8.8', '185.220.101.1', '2001:4860:4860::8888']) {
      const [a, b, c] = await Promise.all(
        ['/api/ip', '/api/v1/ip', '/api/score'].map((path) =>
          request(proxied).get(path).set(via(ip)),
        ),
      );
      expectMatchesSchema('callerIp', (a as request.Response).body);
      expectMatchesSchema('callerIpV1', (b as request.Response).body);
      expectMatchesSchema('callerScore', (c as request.Response).body);
      const pick = (r: request.Response) => [r.body.data.privacy.score, r.body.data.privacy.grade];
      expect(pick(b as request.Response)).toEqual(pick(a as request.Response));
      expect(pick(c as request.Response)).toEqual(pick(a as request.Response));
    }
  });
});

describe('TLS terminated by the server', () => {
  const { key, cert } = makeSelfSignedCert({
    names: ['localhost'],
    ips: ['127.0.0.1'],
    days: 1,
    organisation: 'Netdiag Test',
  });

  test.each([
    ['TLSv1.3', 'TLSv1.3'],
    ['TLSv1.2', 'TLSv1.2'],
  ] as const)('a %s client sees tls_version %s', async (maxVersion, expected) => {
    const server = https.createServer({ key, cert }, direct);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      for (const [path, op] of [
        ['/api/ip', 'callerIp'],
        ['/api/v1/ip', 'callerIpV1'],
        ['/api/score', 'callerScore'],
      ] as const) {
        const body = await getJson(`https://127.0.0.1:${port}${path}`, { ca: cert, maxVersion });
        expectMatchesSchema(op, body);
        expect(body.data.network.tls_version).toBe(expected);
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('NETDIAG_TLS_CERT / NETDIAG_TLS_KEY', () => {
  test('startServer speaks HTTPS and /api/ip reports the TLS version', async () => {
    const dir = tempDir('netdiag-tls-');
    const { key, cert } = makeSelfSignedCert({
      names: ['localhost'],
      ips: ['127.0.0.1'],
      days: 1,
      organisation: 'Netdiag Test',
    });
    writeFileSync(join(dir, 'cert.pem'), cert);
    writeFileSync(join(dir, 'key.pem'), key);
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      NETDIAG_LOG_LEVEL: 'silent',
      NETDIAG_TLS_CERT: join(dir, 'cert.pem'),
      NETDIAG_TLS_KEY: join(dir, 'key.pem'),
      NETDIAG_CACHE_DIR: cacheDir,
      NETDIAG_DNS_SERVERS: dns.address,
    });
    const started = await startServer({ ...config, engine: direct.locals.netdiag.engine });
    try {
      expect(started.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      // The HTTPS server too makes its requests with the app's prototypes (express-objects.ts).
      const arrived: unknown[] = [];
      started.server.prependListener('request', (req) => arrived.push(Object.getPrototypeOf(req)));
      const body = await getJson(`${started.url}/api/ip`, { ca: cert });
      expect(arrived).toHaveLength(1);
      expect(arrived[0]).toBe(started.app.request);
      expectMatchesSchema('callerIp', body);
      expect(body.data.network).toMatchObject({
        connection_type: 'HTTP/1.1',
        tls_version: 'TLSv1.3',
      });
    } finally {
      await started.close();
    }
  });

  test('both or neither; an unreadable file is a ConfigError naming the variable', async () => {
    expect(() => loadConfig({ NETDIAG_TLS_CERT: '/tmp/cert.pem' })).toThrow(
      /NETDIAG_TLS_CERT and NETDIAG_TLS_KEY go together/,
    );
    expect(() => loadConfig({ NETDIAG_TLS_KEY: '/tmp/key.pem' })).toThrow(/go together/);
    await expect(
      startServer({
        logLevel: 'silent',
        port: 0,
        host: '127.0.0.1',
        tlsCert: '/nonexistent/cert.pem',
        tlsKey: '/nonexistent/key.pem',
      }),
    ).rejects.toMatchObject({
      code: 'CONFIG_ERROR',
      message: expect.stringContaining('NETDIAG_TLS_CERT: cannot read "/nonexistent/cert.pem"'),
    });
  });
});

// --- helpers ---

interface CallerBody {
  data: Record<string, unknown> & { network: { connection_type: string; tls_version: string } };
}

function getJson(
  url: string,
  tls: { ca?: string; maxVersion?: 'TLSv1.2' | 'TLSv1.3' } = {},
): Promise<CallerBody> {
  return new Promise((resolve, reject) => {
    const client = url.startsWith('https:') ? https : http;
    const req = client.get(url, { ...tls, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
  });
}

function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}
