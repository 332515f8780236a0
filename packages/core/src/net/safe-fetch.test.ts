import net from 'node:net';
import {
  type DnsTestServer,
  freePort,
  type HttpTarget,
  startDnsServer,
  startHttpTarget,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type HttpsTarget,
  opensslAvailable,
  startHttpsTarget,
} from '../../../../test-utils/src/https-target.js';
import { createResolver } from './resolver.js';
import { headerValue, safeFetch } from './safe-fetch.js';
import { ProbeError, ProbeTimeoutError } from './safe-fetch-errors.js';

const allowedTargets = ['127.0.0.2/32', '127.0.0.3/32'];
let target: HttpTarget;
let other: HttpTarget;

beforeAll(async () => {
  other = await startHttpTarget({
    host: '127.0.0.3',
    routes: { '/final': (_req, res) => res.writeHead(200, { 'x-hop': 'other' }).end('final') },
  });
  target = await startHttpTarget({
    host: '127.0.0.2',
    routes: {
      '/': (req, res) =>
        res
          .writeHead(200, {
            'content-type': 'text/html',
            'set-cookie': ['a=1; Secure', 'b=2'],
            'x-host': req.headers.host ?? '',
            'x-origin': req.headers.origin ?? '',
          })
          .end('<html>hello</html>'),
      '/dup': (_req, res) => {
        res.setHeader('cross-origin-opener-policy', ['same-origin', 'unsafe-none']);
        res.end();
      },
      '/redirect': (_req, res) => res.writeHead(301, { location: '/' }).end(),
      '/offsite': (_req, res) =>
        res.writeHead(302, { location: `${other.url}/final`, 'set-cookie': 'hop=1' }).end(),
      '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
      '/chain': (req, res) => {
        const n = Number(new URL(req.url ?? '', 'http://x').searchParams.get('n') ?? '0');
        if (n >= 5) return res.end('done');
        res.writeHead(307, { location: `/chain?n=${n + 1}` }).end();
      },
      '/to-blocked': (_req, res) =>
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
      '/to-file': (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
      '/big': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 97);
        let sent = 0;
        const pump = () => {
          while (sent < 3 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      },
      '/drip': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('.'), 50);
        res.on('close', () => clearInterval(timer));
      },
      '/stall': () => {
        /* never answers */
      },
    },
  });
});

afterAll(async () => {
  await target.close();
  await other.close();
});

describe('safeFetch on allowed loopback targets', () => {
  test('GET with Host from the URL, headers as lists, cookies collected', async () => {
    const res = await safeFetch(`${target.url}/`, {
      allowedTargets,
      headers: { origin: 'https://observer.example' },
    });
    expect(res.status).toBe(200);
    expect(res.statusText).toBe('OK');
    expect(res.body.toString()).toBe('<html>hello</html>');
    expect(res.headers['x-host']).toEqual([`127.0.0.2:${target.port}`]);
    expect(headerValue(res.headers, 'x-origin')).toBe('https://observer.example');
    expect(res.setCookies).toEqual(['a=1; Secure', 'b=2']);
    expect(res.address).toBe('127.0.0.2');
    expect(res.hops).toEqual([
      { url: `${target.url}/`, status: 200, address: '127.0.0.2', location: null },
    ]);
    expect(res.redirects).toBe(0);
    expect(res.tls).toBeNull();
    expect(res.bodyTruncated).toBeNull();
    expect(res.responseMs).toBeGreaterThan(0);
    expect(res.totalMs).toBeGreaterThanOrEqual(res.responseMs);
  });

  test('duplicate headers keep every value', async () => {
    const res = await safeFetch(`${target.url}/dup`, { allowedTargets });
    expect(res.headers['cross-origin-opener-policy']).toEqual(['same-origin', 'unsafe-none']);
  });

  test('redirects are followed and every hop recorded, across hosts', async () => {
    const res = await safeFetch(`${target.url}/offsite`, { allowedTargets });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${other.url}/final`);
    expect(res.redirects).toBe(1);
    expect(res.hops.map((h) => [h.status, h.address])).toEqual([
      [302, '127.0.0.2'],
      [200, '127.0.0.3'],
    ]);
    expect(res.setCookies).toEqual(['hop=1']);
  });

  test('exactly 5 redirects are fine; a loop stops with kind redirects', async () => {
    const ok = await safeFetch(`${target.url}/chain?n=0`, { allowedTargets });
    expect(ok.redirects).toBe(5);
    const error = await safeFetch(`${target.url}/loop`, { allowedTargets }).catch((e) => e);
    expect(error).toBeInstanceOf(ProbeError);
    expect(error).toMatchObject({ kind: 'redirects', lastStatus: 302 });
    expect(error.message).toMatch(/more than 5 redirects/);
  });

  test('a redirect to a blocked address is refused before connecting', async () => {
    await expect(safeFetch(`${target.url}/to-blocked`, { allowedTargets })).rejects.toThrow(
      /^Target not allowed: redirect 1 \(from http:\/\/127\.0\.0\.2:\d+\/to-blocked to http:\/\/169\.254\.169\.254\/.*\) was refused: 169\.254\.169\.254 is a link-local/,
    );
    await expect(safeFetch(`${target.url}/to-file`, { allowedTargets })).rejects.toThrow(
      /redirect from .* to a file URL/,
    );
  });

  test('the body is cut at maxBytes', async () => {
    const res = await safeFetch(`${target.url}/big`, { allowedTargets });
    expect(res.body.length).toBe(1024 * 1024);
    expect(res.bodyTruncated).toBe('max-bytes');
  });

  test('a slow-drip body is cut at the time budget, the answer kept', async () => {
    const started = Date.now();
    const res = await safeFetch(`${target.url}/drip`, { allowedTargets, timeout: 600 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(res.status).toBe(200);
    expect(res.bodyTruncated).toBe('timeout');
    expect(res.body.length).toBeGreaterThan(0);
  });

  test('no answer at all is a response timeout', async () => {
    const error = await safeFetch(`${target.url}/stall`, { allowedTargets, timeout: 400 }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ProbeTimeoutError);
    expect(error).toMatchObject({ code: 'UPSTREAM_TIMEOUT', phase: 'response' });
  });

  test('refused connections are kind refused', async () => {
    const port = await freePort('127.0.0.2');
    await expect(safeFetch(`http://127.0.0.2:${port}/`, { allowedTargets })).rejects.toMatchObject({
      kind: 'refused',
      code: 'UPSTREAM_ERROR',
    });
  });

  test('garbage instead of HTTP is kind protocol or reset', async () => {
    const server = net.createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
    const { port } = server.address() as net.AddressInfo;
    const error = await safeFetch(`http://127.0.0.2:${port}/`, { allowedTargets }).catch((e) => e);
    expect(error).toBeInstanceOf(ProbeError);
    expect(['protocol', 'reset']).toContain(error.kind);
    server.close();
  });

  test('the caller signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(
      safeFetch(`${target.url}/stall`, { allowedTargets, signal: controller.signal }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
  });

  test('loopback outside allowedTargets is refused and never contacted', async () => {
    const before = target.connections;
    await expect(safeFetch(`${target.url}/`, {})).rejects.toThrow(/127\.0\.0\.2 is a loopback/);
    expect(target.connections).toBe(before);
  });
});

describe.skipIf(!opensslAvailable())('safeFetch over TLS (self-signed loopback target)', () => {
  let secure: HttpsTarget;
  beforeAll(async () => {
    secure = await startHttpsTarget({
      host: '127.0.0.3',
      names: ['secure.fixture.test'],
      ips: ['127.0.0.3'],
      routes: { '/': (_req, res) => res.writeHead(200, { server: 'fixture/1.0' }).end('tls ok') },
    });
  });
  afterAll(() => secure.close());

  test('a trusted certificate: facts reported', async () => {
    const res = await safeFetch(`${secure.url}/`, { allowedTargets, ca: secure.cert });
    expect(res.status).toBe(200);
    expect(res.tls).toMatchObject({
      authorized: true,
      authorizationError: null,
      issuer: 'Netdiag Test CA',
      subject: 'secure.fixture.test',
    });
    expect(res.tls?.protocol).toMatch(/^TLSv1\.[23]$/);
    expect(res.tls?.daysLeft).toBeGreaterThanOrEqual(29);
    expect(res.tls?.daysLeft).toBeLessThanOrEqual(30);
    expect(res.tls?.subjectAltName).toContain('IP Address:127.0.0.3');
    expect(Date.parse(res.tls?.validTo ?? '')).toBeGreaterThan(Date.now());
  });

  test('an untrusted certificate fails before the request under verify', async () => {
    const requests = secure.requests.length;
    const error = await safeFetch(`${secure.url}/`, { allowedTargets }).catch((e) => e);
    expect(error).toBeInstanceOf(ProbeError);
    expect(error.kind).toBe('tls');
    expect(error.message).toMatch(/not trusted: .*(SELF_SIGNED|self-signed)/i);
    expect(secure.requests.length).toBe(requests);
  });

  test('report policy goes on and says why it is not trusted', async () => {
    const res = await safeFetch(`${secure.url}/`, { allowedTargets, tlsPolicy: 'report' });
    expect(res.status).toBe(200);
    expect(res.tls?.authorized).toBe(false);
    expect(res.tls?.authorizationError).toMatch(/SELF_SIGNED/);
  });

  test('plain HTTP against a TLS port is a protocol failure, TLS against HTTP is tls', async () => {
    await expect(
      safeFetch(`http://127.0.0.3:${secure.port}/`, { allowedTargets }),
    ).rejects.toBeInstanceOf(ProbeError);
    const error = await safeFetch(`https://127.0.0.2:${target.port}/`, { allowedTargets }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ kind: 'tls' });
  });
});

describe.skipIf(!opensslAvailable())(
  'safeFetch by host name (netdiag resolver, loopback DNS)',
  () => {
    let dns: DnsTestServer;
    let named: HttpsTarget;
    beforeAll(async () => {
      dns = await startDnsServer({
        zone: {
          'named.fixture.test': { A: ['127.0.0.3'] },
          'other-name.fixture.test': { A: ['127.0.0.3'] },
        },
      });
      // A certificate for the name only: the check can pass only if SNI and verification use it.
      named = await startHttpsTarget({
        host: '127.0.0.3',
        names: ['named.fixture.test'],
        ips: [],
        routes: {
          '/': (req, res) =>
            res
              .writeHead(200, {
                'x-host': req.headers.host ?? '',
                'x-sni': (req.socket as import('node:tls').TLSSocket).servername || '',
              })
              .end(),
        },
      });
    });
    afterAll(async () => {
      await named.close();
      await dns.close();
    });

    test('connects to the resolved address with SNI and Host = the URL host', async () => {
      const resolver = createResolver({ servers: [dns.address] });
      const res = await safeFetch(`https://named.fixture.test:${named.port}/`, {
        resolver,
        allowedTargets,
        ca: named.cert,
      });
      expect(res.address).toBe('127.0.0.3');
      expect(res.tls?.authorized).toBe(true);
      expect(res.headers['x-sni']).toEqual(['named.fixture.test']);
      expect(res.headers['x-host']).toEqual([`named.fixture.test:${named.port}`]);
      expect(
        dns.queries
          .filter((q) => q.name === 'named.fixture.test')
          .map((q) => q.type)
          .sort(),
      ).toEqual(['A', 'AAAA']);
    });

    test('a certificate for another name fails verification', async () => {
      const resolver = createResolver({ servers: [dns.address] });
      const error = await safeFetch(`https://other-name.fixture.test:${named.port}/`, {
        resolver,
        allowedTargets,
        ca: named.cert,
      }).catch((e) => e);
      expect(error).toMatchObject({ kind: 'tls' });
      expect(error.message).toMatch(/ALTNAME|Hostname\/IP does not match/i);
    });
  },
);
