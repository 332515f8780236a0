/**
 * The SSRF battery (issue 7, CONTRACT §4): more than 40 attempts through the HTTP API to make
 * the server connect where it must not, each rejected (400 or 403) with no connection made.
 * Traps listen on 127.0.0.1 and ::1 and count every TCP connection; the allowed fixture is on
 * 127.0.0.2 (NETDIAG_ALLOWED_TARGETS=127.0.0.2/32). Names resolve through the netdiag resolver
 * against a loopback DNS fixture. Attempts aimed outside loopback must be refused before any
 * connect: the global test guard would fail the test otherwise.
 */
import {
  type DnsTestServer,
  type HttpTarget,
  startDnsServer,
  startHttpTarget,
} from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectMatchesSchema } from '../../test/expect-schema.js';
import { createApp } from '../app.js';

let dns: DnsTestServer;
let trap: HttpTarget;
let trap6: HttpTarget;
let allowed: HttpTarget;
let rebindQueries = 0;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  trap = await startHttpTarget({
    host: '127.0.0.1',
    routes: { '*': (_req, res) => res.end('you should not be here') },
  });
  trap6 = await startHttpTarget({
    host: '::1',
    routes: { '*': (_req, res) => res.end('you should not be here') },
  });
  const T = trap.port;
  dns = await startDnsServer({
    zone: {
      'ok.fixture.test': { A: ['127.0.0.2'] },
      'trap.fixture.test': { A: ['127.0.0.1'] },
      'trap6.fixture.test': { AAAA: ['::1'] },
      'private.fixture.test': { A: ['10.0.0.5'] },
      'metadata.fixture.test': { A: ['169.254.169.254'] },
      'mixed.fixture.test': { A: ['93.184.216.34', '127.0.0.1'] },
      'dual.fixture.test': { A: ['127.0.0.2'], AAAA: ['::1'] },
      'mapped.fixture.test': { AAAA: ['::ffff:127.0.0.1'] },
      'cname.fixture.test': { CNAME: 'trap.fixture.test' },
      'rebind.fixture.test': { A: ['127.0.0.2'], ttl: 0 },
    },
    onQuery: (query) => {
      // DNS rebinding: the first answer passes the guard, every later one points at the trap.
      if (query.name === 'rebind.fixture.test' && query.type === 'A') {
        rebindQueries++;
        const zone = dns.zone['rebind.fixture.test'];
        if (zone) zone.A = rebindQueries === 1 ? ['127.0.0.2'] : ['127.0.0.1'];
      }
      return undefined;
    },
  });
  allowed = await startHttpTarget({
    host: '127.0.0.2',
    routes: {
      '/': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('allowed'),
      '/to-trap': (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${T}/` }).end(),
      '/to-trap-name': (_req, res) =>
        res.writeHead(301, { location: `http://trap.fixture.test:${T}/` }).end(),
      '/to-trap6': (_req, res) =>
        res.writeHead(307, { location: `http://[::1]:${trap6.port}/` }).end(),
      '/to-metadata': (_req, res) =>
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      '/to-localhost': (_req, res) =>
        res.writeHead(302, { location: `http://localhost:${T}/` }).end(),
      '/to-userinfo': (_req, res) =>
        res.writeHead(302, { location: `http://127.0.0.2@127.0.0.1:${T}/` }).end(),
      '/to-decimal': (_req, res) =>
        res.writeHead(308, { location: `http://2130706433:${T}/` }).end(),
      '/to-file': (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
      '/hop': (_req, res) => res.writeHead(302, { location: '/to-trap' }).end(),
    },
  });
  app = createApp({
    logLevel: 'silent',
    dnsServers: [dns.address],
    allowedTargets: ['127.0.0.2/32'],
    // The battery sends far more than 20 requests from one client.
    rateLimit: 10_000,
    toolRateLimit: 10_000,
  });
});

afterAll(async () => {
  await Promise.all([trap.close(), trap6.close(), allowed.close(), dns.close()]);
});

const url = (path: string) => `http://127.0.0.2:${allowed.port}${path}`;

/** [endpoint, query, expected status, message pattern] */
type Attempt = [string, Record<string, string>, 400 | 403, RegExp];

function attempts(): Attempt[] {
  const T = trap.port;
  const T6 = trap6.port;
  const down = (u: string, status: 400 | 403, msg: RegExp): Attempt => [
    '/api/down',
    { url: u },
    status,
    msg,
  ];
  const loop = /loopback/;
  const list: Attempt[] = [
    // IPv4 loopback in every literal form
    down(`http://127.0.0.1:${T}/`, 403, loop),
    down(`http://127.1:${T}/`, 403, loop),
    down(`http://0x7f000001:${T}/`, 403, loop),
    down(`http://0x7f.0.0.1:${T}/`, 403, loop),
    down(`http://2130706433:${T}/`, 403, loop),
    down(`http://0177.0.0.1:${T}/`, 403, loop),
    down(`http://127.0.0.1.:${T}/`, 403, loop),
    down(`http://%31%32%37.0.0.1:${T}/`, 403, loop),
    down(`http://１２７.０.０.１:${T}/`, 403, loop),
    down(`127.0.0.1:${T}`, 403, loop),
    down(`http://0.0.0.0:${T}/`, 403, /"this network"/),
    down(`http://0:${T}/`, 403, /"this network"/),
    // IPv6 loopback and embedded IPv4
    down(`http://[::1]:${T6}/`, 403, loop),
    down(`http://[0:0:0:0:0:0:0:1]:${T6}/`, 403, loop),
    down(`http://[::ffff:127.0.0.1]:${T}/`, 403, loop),
    down(`http://[0:0:0:0:0:ffff:7f00:1]:${T}/`, 403, loop),
    down(`http://[64:ff9b::7f00:1]:${T}/`, 403, loop),
    down(`http://[2002:7f00:1::]:${T}/`, 403, loop),
    down(`http://[::]:${T6}/`, 403, /unspecified/),
    // private, shared, link-local, metadata, multicast, broadcast
    down('http://10.0.0.1/', 403, /private network/),
    down('http://172.16.0.1/', 403, /private network/),
    down('http://192.168.1.1/', 403, /private network/),
    down('http://100.100.100.200/latest/meta-data/', 403, /carrier-grade NAT/),
    down('http://169.254.169.254/latest/meta-data/', 403, /link-local/),
    down('http://[::ffff:169.254.169.254]/', 403, /link-local/),
    down('http://[::ffff:a9fe:a9fe]/', 403, /link-local/),
    down('http://[fd00:ec2::254]/latest/meta-data/', 403, /unique local/),
    down('http://[fe80::1]/', 403, /link-local/),
    down('http://[fc00::1]/', 403, /unique local/),
    down('http://224.0.0.1/', 403, /multicast/),
    down('http://255.255.255.255/', 403, /reserved/),
    // names: internal, resolving inside, or mixed
    down(`http://localhost:${T}/`, 403, /internal name/),
    down(`http://app.localhost:${T}/`, 403, /internal name/),
    down(`http://trap.fixture.test:${T}/`, 403, /trap\.fixture\.test resolves to 127\.0\.0\.1/),
    down(`http://trap6.fixture.test:${T6}/`, 403, /resolves to ::1/),
    down('http://private.fixture.test/', 403, /resolves to 10\.0\.0\.5/),
    down('http://metadata.fixture.test/', 403, /resolves to 169\.254\.169\.254/),
    down(`http://mixed.fixture.test:${T}/`, 403, /resolves to 127\.0\.0\.1/),
    down(`http://dual.fixture.test:${allowed.port}/`, 403, /resolves to ::1/),
    down(`http://mapped.fixture.test:${T}/`, 403, /127\.0\.0\.1/),
    down(`http://cname.fixture.test:${T}/`, 403, /resolves to 127\.0\.0\.1/),
    // userinfo tricks
    down(`http://public.example.com@127.0.0.1:${T}/`, 403, loop),
    down(`http://127.0.0.2:${allowed.port}@127.0.0.1:${T}/`, 403, loop),
    down(`http://127.0.0.2%40127.0.0.1:${T}@127.0.0.1:${T}/`, 403, loop),
    // redirects from the allowed target to blocked ones
    down(url('/to-trap'), 403, loop),
    down(url('/to-trap-name'), 403, /trap\.fixture\.test resolves to 127\.0\.0\.1/),
    down(url('/to-trap6'), 403, loop),
    down(url('/to-metadata'), 403, /link-local/),
    down(url('/to-localhost'), 403, /internal name/),
    down(url('/to-userinfo'), 403, loop),
    down(url('/to-decimal'), 403, loop),
    down(url('/to-file'), 403, /to a file URL/),
    down(url('/hop'), 403, loop),
    // non-http schemes
    down('file:///etc/passwd', 400, /http or https, not file/),
    down(`ftp://127.0.0.2:${allowed.port}/`, 400, /not ftp/),
    down(`gopher://127.0.0.1:${T}/_GET%20/`, 400, /not gopher/),
    down(`dict://127.0.0.1:${T}/info`, 400, /not dict/),
    down('javascript:alert(1)', 400, /not javascript/),
    down(`ws://127.0.0.1:${T}/`, 400, /not ws/),
    // the header grader takes the same path
    ['/api/security-headers', { url: `http://127.0.0.1:${T}/` }, 403, loop],
    ['/api/security-headers', { url: `trap.fixture.test:${T}` }, 403, /resolves to 127\.0\.0\.1/],
    ['/api/security-headers', { url: url('/to-trap') }, 403, loop],
    ['/api/security-headers', { url: `http://[::ffff:7f00:1]:${T}/` }, 403, loop],
    // ports given as a target for a blocked address
    ['/api/ports', { host: '127.0.0.1', ports: String(T) }, 403, loop],
    ['/api/ports', { host: '127.1', ports: String(T) }, 403, loop],
    ['/api/ports', { host: '0x7f000001', ports: String(T) }, 403, loop],
    ['/api/ports', { host: '2130706433', ports: String(T) }, 403, loop],
    ['/api/ports', { host: '::1', ports: String(T6) }, 403, loop],
    ['/api/ports', { host: '[::1]', ports: String(T6) }, 403, loop],
    ['/api/ports', { host: '::ffff:127.0.0.1', ports: String(T) }, 403, loop],
    ['/api/ports', { host: 'localhost', ports: String(T) }, 403, /internal name/],
    [
      '/api/ports',
      { host: 'trap.fixture.test', ports: String(T) },
      403,
      /resolves to 127\.0\.0\.1/,
    ],
    [
      '/api/ports',
      { host: 'mixed.fixture.test', ports: String(T) },
      403,
      /resolves to 127\.0\.0\.1/,
    ],
    ['/api/ports', { host: '10.0.0.1', ports: '22' }, 403, /private network/],
    ['/api/ports', { host: '169.254.169.254', ports: '80' }, 403, /link-local/],
    ['/api/ports', { ports: String(T) }, 403, loop], // no host: the caller, 127.0.0.1
  ];
  return list;
}

describe('SSRF battery', () => {
  test('at least 40 attempts', () => {
    expect(attempts().length).toBeGreaterThanOrEqual(40);
  });

  test('every attempt is rejected and no connection reaches a trap', async () => {
    const failures: string[] = [];
    for (const [path, query, status, message] of attempts()) {
      const res = await request(app).get(path).query(query);
      if (res.status !== status || !message.test(res.body.error ?? '')) {
        failures.push(
          `${path} ${JSON.stringify(query)} → ${res.status} ${res.body.error ?? JSON.stringify(res.body)}`,
        );
      }
    }
    expect(failures).toEqual([]);
    expect(trap.connections).toBe(0);
    expect(trap6.connections).toBe(0);
    expect(trap.requests).toEqual([]);
  });

  test('control: an allowed name resolves through the fixture and is reached', async () => {
    const res = await request(app)
      .get('/api/down')
      .query({ url: `http://ok.fixture.test:${allowed.port}/` });
    expect(res.status).toBe(200);
    expectMatchesSchema('checkSite', res.body);
    expect(res.body.data).toMatchObject({ is_up: true, ip: '127.0.0.2' });
  });

  test('DNS rebinding does not matter: one lookup, the checked address is the one connected', async () => {
    const before = trap.connections;
    const res = await request(app)
      .get('/api/down')
      .query({ url: `http://rebind.fixture.test:${allowed.port}/` });
    expect(res.status).toBe(200);
    expectMatchesSchema('checkSite', res.body);
    expect(res.body.data).toMatchObject({ is_up: true, ip: '127.0.0.2' });
    expect(rebindQueries).toBe(1);
    expect(trap.connections).toBe(before);
    // The next lookup (TTL 0, nothing cached) gets the trap address and is refused.
    const again = await request(app)
      .get('/api/down')
      .query({ url: `http://rebind.fixture.test:${allowed.port}/` });
    expect(again.status).toBe(403);
    expect(trap.connections).toBe(before);
  });

  test('a name that does not exist is 404 for the grader and a DNS note for /api/down', async () => {
    const graded = await request(app)
      .get('/api/security-headers')
      .query({ url: 'https://nope.fixture.test/' });
    expect(graded.status).toBe(404);
    expect(graded.body.error).toMatch(/nope\.fixture\.test does not exist/);
    const down = await request(app).get('/api/down').query({ url: 'https://nope.fixture.test/' });
    expect(down.status).toBe(200);
    expectMatchesSchema('checkSite', down.body);
    expect(down.body.data).toMatchObject({ is_up: false });
    expect(down.body.data.note).toMatch(/^DNS failure: nope\.fixture\.test does not exist/);
  });
});
