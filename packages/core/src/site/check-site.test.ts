import { freePort, type HttpTarget, startHttpTarget } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FilteredPort, startFilteredPort } from '../../../../test-utils/src/filtered-port.js';
import {
  type HttpsTarget,
  opensslAvailable,
  startHttpsTarget,
} from '../../../../test-utils/src/https-target.js';
import { checkSite } from './check-site.js';

const allowedTargets = ['127.0.0.2/32', '127.0.0.3/32'];
const now = () => Date.parse('2026-11-21T10:00:00.000Z');
let target: HttpTarget;

beforeAll(async () => {
  target = await startHttpTarget({
    host: '127.0.0.2',
    routes: {
      '/': (_req, res) =>
        res
          .writeHead(200, {
            server: 'fixture/1.0',
            'content-type': 'text/html; charset=utf-8',
            'x-powered-by': 'Express',
          })
          .end('<html>up</html>'),
      '/plain': (_req, res) => res.writeHead(204).end(),
      '/moved': (_req, res) => res.writeHead(301, { location: '/' }).end(),
      '/missing': (_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('no'),
      '/broken': (_req, res) => res.writeHead(503, { server: 'fixture/1.0' }).end('down'),
      '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
      '/big': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.alloc(2 * 1024 * 1024, 1));
      },
      '/drip': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('.'), 50);
        res.on('close', () => clearInterval(timer));
      },
      '/stall': () => {},
      '/to-metadata': (_req, res) =>
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    },
  });
});
afterAll(() => target.close());

describe('checkSite: up', () => {
  test('every SPEC field, plus final_url, redirects, ip, tls', async () => {
    const result = await checkSite(`${target.url}/moved`, { allowedTargets, now });
    expect(result).toMatchObject({
      url: `${target.url}/moved`,
      is_up: true,
      status_code: 200,
      status_text: 'OK',
      server: 'fixture/1.0',
      content_type: 'text/html; charset=utf-8',
      powered_by: 'Express',
      note: null,
      checked_at: '2026-11-21T10:00:00.000Z',
      final_url: `${target.url}/`,
      redirects: 1,
      ip: '127.0.0.2',
      tls: null,
    });
    expect(result.response_time_ms).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(result.response_time_ms)).toBe(true);
  });

  test('absent headers keep their types', async () => {
    const result = await checkSite(`${target.url}/plain`, { allowedTargets });
    expect(result).toMatchObject({
      is_up: true,
      status_code: 204,
      server: '',
      content_type: '',
      powered_by: null,
    });
  });

  test('4xx is still up (an HTTP answer below 500)', async () => {
    const result = await checkSite(`${target.url}/missing`, { allowedTargets });
    expect(result).toMatchObject({ is_up: true, status_code: 404, status_text: 'Not Found' });
  });

  test('no scheme: https cannot connect, http is used and the note says so', async () => {
    const result = await checkSite(`127.0.0.2:${target.port}/`, { allowedTargets });
    expect(result.is_up).toBe(true);
    expect(result.url).toBe(`http://127.0.0.2:${target.port}/`);
    expect(result.note).toMatch(/^HTTPS did not answer \(TLS failed .*\); checked over HTTP$/);
  });

  test('an oversized body is capped at 1 MiB and noted; still up', async () => {
    const result = await checkSite(`${target.url}/big`, { allowedTargets });
    expect(result.is_up).toBe(true);
    expect(result.note).toBe('body larger than 1 MiB; stopped reading');
  });

  test('a slow-drip body is cut at the budget and noted; still up', async () => {
    const started = Date.now();
    const result = await checkSite(`${target.url}/drip`, { allowedTargets, timeout: 500 });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(result.is_up).toBe(true);
    expect(result.note).toMatch(/body still arriving/);
  });
});

describe('checkSite: down is a result, not an error', () => {
  const down = (result: Awaited<ReturnType<typeof checkSite>>) =>
    expect(result).toMatchObject({
      is_up: false,
      status_text: expect.any(String),
      server: '',
      content_type: '',
      powered_by: null,
    });

  test('5xx', async () => {
    const result = await checkSite(`${target.url}/broken`, { allowedTargets });
    expect(result).toMatchObject({
      is_up: false,
      status_code: 503,
      status_text: 'Service Unavailable',
      server: 'fixture/1.0',
      note: 'server error: HTTP 503 Service Unavailable',
    });
  });

  test('connection refused', async () => {
    const port = await freePort('127.0.0.2');
    const result = await checkSite(`http://127.0.0.2:${port}/`, { allowedTargets });
    down(result);
    expect(result.status_code).toBeNull();
    expect(result.response_time_ms).toBeNull();
    expect(result.note).toBe(`connection refused: connection refused by 127.0.0.2:${port}`);
  });

  test('connect timeout (a filtered port)', async () => {
    const filtered: FilteredPort = await startFilteredPort('127.0.0.2');
    try {
      const started = Date.now();
      const result = await checkSite(`http://127.0.0.2:${filtered.port}/`, {
        allowedTargets,
        connectTimeout: 300,
      });
      expect(Date.now() - started).toBeLessThan(1_500);
      down(result);
      expect(result.note).toMatch(/^timeout: no TCP connection to 127\.0\.0\.2:\d+ within 300 ms$/);
    } finally {
      await filtered.close();
    }
  });

  test('response timeout', async () => {
    const result = await checkSite(`${target.url}/stall`, { allowedTargets, timeout: 400 });
    down(result);
    expect(result.note).toMatch(/^timeout: no complete answer within 400 ms$/);
  });

  test('redirect loop keeps the last status', async () => {
    const result = await checkSite(`${target.url}/loop`, { allowedTargets });
    down(result);
    expect(result.status_code).toBe(302);
    expect(result.note).toMatch(/^redirect loop: more than 5 redirects/);
    // The loop was answered: the count of redirects followed and the address connected to.
    expect(result.redirects).toBe(5);
    expect(result.ip).toBe('127.0.0.2');
    expect(result.final_url).toBe(`${target.url}/loop`);
  });

  test('a redirect to a blocked address is a 403 naming the hop and the reason', async () => {
    const error = await checkSite(`${target.url}/to-metadata`, { allowedTargets }).catch((e) => e);
    expect(error).toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
    expect(error.message).toContain(
      `Target not allowed: redirect 1 (from ${target.url}/to-metadata to http://169.254.169.254/latest/meta-data/) was refused: 169.254.169.254 is a link-local`,
    );
  });

  test('bad input is an error', async () => {
    await expect(checkSite('ftp://127.0.0.2/')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(checkSite('')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  test.each(['http://127.0.0.2:0/', 'https://example.com:0', '127.0.0.2:0'])(
    'port 0 (%s) is refused as input, not probed on the default port',
    async (url) => {
      const error = await checkSite(url, { allowedTargets }).catch((e) => e);
      expect(error).toMatchObject({ code: 'INVALID_INPUT', param: 'url' });
      expect(error.message).toMatch(/port 0: a port must be 1 to 65535/);
    },
  );
});

describe.skipIf(!opensslAvailable())('checkSite over TLS', () => {
  let secure: HttpsTarget;
  beforeAll(async () => {
    secure = await startHttpsTarget({
      host: '127.0.0.3',
      names: ['secure.fixture.test'],
      ips: ['127.0.0.3'],
      days: 45,
      routes: { '/': (_req, res) => res.writeHead(200, { server: 'tls-fixture' }).end('ok') },
    });
  });
  afterAll(() => secure.close());

  test('certificate facts: issuer, expiry, days left', async () => {
    const result = await checkSite(`${secure.url}/`, { allowedTargets, ca: secure.cert });
    expect(result.is_up).toBe(true);
    expect(result.tls).toMatchObject({
      issuer: 'Netdiag Test CA',
      subject: 'secure.fixture.test',
      trusted: true,
      error: null,
    });
    expect(result.tls?.days_left).toBeGreaterThanOrEqual(44);
    expect(result.tls?.days_left).toBeLessThanOrEqual(45);
    expect(Date.parse(result.tls?.valid_to ?? '')).toBeGreaterThan(Date.now());
    expect(result.tls?.protocol).toMatch(/^TLSv1/);
  });

  test('an untrusted certificate: down with a TLS note and the facts; no request sent', async () => {
    const before = secure.requests.length;
    const result = await checkSite(`${secure.url}/`, { allowedTargets });
    expect(result.is_up).toBe(false);
    expect(result.note).toMatch(/^TLS error: the certificate of 127\.0\.0\.3 is not trusted: /);
    expect(result.tls).toMatchObject({ trusted: false, issuer: 'Netdiag Test CA' });
    expect(secure.requests.length).toBe(before);
  });
});
