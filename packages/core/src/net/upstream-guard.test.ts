/**
 * Issue 20 item 5, HTTP side: a trusted upstream's redirect to another origin, and a URL named by
 * a remote answer, go through the SSRF guard. Trap listeners on 127.0.0.2 count connections: a
 * refused hop must not reach them at all.
 */
import { createServer, type Server } from 'node:net';
import { type DnsTestServer, startDnsServer, startHttpTarget } from '@netdiag/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { upstreamRequest } from './http-client.js';
import { createResolver } from './resolver.js';

let trusted: Awaited<ReturnType<typeof startHttpTarget>>;
let other: Awaited<ReturnType<typeof startHttpTarget>>;
let trap: Server;
let trapPort: number;
let trapped = 0;
let dns: DnsTestServer;

beforeAll(async () => {
  trap = createServer((socket) => {
    trapped++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.2', resolve));
  trapPort = (trap.address() as { port: number }).port;
  other = await startHttpTarget({
    host: '127.0.0.3',
    routes: { '/ok': (_q, r) => void r.writeHead(200).end('other') },
  });
  trusted = await startHttpTarget({
    routes: {
      '/same': (_q, r) => void r.writeHead(302, { location: '/ok' }).end(),
      '/ok': (_q, r) => void r.writeHead(200).end('ok'),
      '/to-trap': (_q, r) =>
        void r.writeHead(302, { location: `http://127.0.0.2:${trapPort}/x` }).end(),
      '/to-trap-name': (_q, r) =>
        void r.writeHead(302, { location: `http://trap.example:${trapPort}/x` }).end(),
      '/to-other': (_q, r) => void r.writeHead(302, { location: `${other.url}/ok` }).end(),
    },
  });
  dns = await startDnsServer({ zone: { 'trap.example': { A: ['127.0.0.2'] } } });
});

afterAll(async () => {
  await Promise.all([trusted.close(), other.close(), dns.close()]);
  await new Promise((resolve) => trap.close(resolve));
});

beforeEach(() => {
  trapped = 0;
});

describe('upstreamRequest through the guard', () => {
  test('a redirect on the configured origin is followed (configuration is trusted)', async () => {
    const res = await upstreamRequest(`${trusted.url}/same`, { upstream: 'breach' });
    expect(res.body.toString()).toBe('ok');
  });

  test('a redirect to a loopback address on another origin is refused, naming hop and reason', async () => {
    const error = await upstreamRequest(`${trusted.url}/to-trap`, { upstream: 'breach' }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'breach' });
    expect(error.message).toContain(`refused to follow a redirect to http://127.0.0.2:${trapPort}`);
    expect(error.message).toMatch(/loopback/i);
    expect(trapped).toBe(0);
  });

  test('a redirect to a name that resolves to loopback is refused at connect time', async () => {
    const resolver = createResolver({ servers: [dns.address] });
    const error = await upstreamRequest(`${trusted.url}/to-trap-name`, {
      upstream: 'rdap',
      resolver,
    }).catch((e) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'rdap' });
    expect(error.message).toMatch(/refused to follow a redirect to http:\/\/trap\.example/);
    expect(error.message).toContain('127.0.0.2');
    expect(trapped).toBe(0);
    expect(dns.queries.some((q) => q.name === 'trap.example')).toBe(true);
  });

  test('NETDIAG_ALLOWED_TARGETS is the one exemption', async () => {
    const res = await upstreamRequest(`${trusted.url}/to-other`, {
      upstream: 'breach',
      guard: { scope: 'redirects', allowedTargets: ['127.0.0.3/32'] },
    });
    expect(res.body.toString()).toBe('other');
    await expect(
      upstreamRequest(`${trusted.url}/to-other`, { upstream: 'breach' }),
    ).rejects.toThrow(/refused to follow a redirect/);
  });

  test("scope 'all': a URL from a remote answer is checked before the first byte", async () => {
    const error = await upstreamRequest(`http://127.0.0.2:${trapPort}/rdap/domain/x`, {
      upstream: 'rdap',
      guard: { scope: 'all' },
    }).catch((e) => e);
    expect(error.message).toMatch(
      /refused to follow http:\/\/127\.0\.0\.2:\d+ \(named by a remote answer\)/,
    );
    expect(trapped).toBe(0);
    const allowed = await upstreamRequest(`${other.url}/ok`, {
      upstream: 'rdap',
      guard: { scope: 'all', allowedTargets: ['127.0.0.3/32'] },
    });
    expect(allowed.status).toBe(200);
  });
});
