import net from 'node:net';
import { createNetdiag, createScanLimiter } from '@netdiag/core';
import { freePort, type HttpTarget, startHttpTarget } from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectMatchesSchema } from '../../test/expect-schema.js';
import { createApp } from '../app.js';

const quiet = { logLevel: 'silent' } as const;
let target: HttpTarget;
let listener: net.Server;
let openPort: number;

beforeAll(async () => {
  target = await startHttpTarget({
    host: '127.0.0.2',
    routes: {
      '/': (_req, res) =>
        res
          .writeHead(200, {
            'content-type': 'text/html',
            server: 'fixture/2.1',
            'x-content-type-options': 'nosniff',
          })
          .end('<html></html>'),
      '/error': (_req, res) => res.writeHead(500).end(),
    },
  });
  listener = net.createServer((socket) => socket.destroy());
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  openPort = (listener.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await target.close();
  await new Promise((r) => listener.close(r));
});

const app = (allowedTargets: string[] = ['127.0.0.2/32']) =>
  createApp({ ...quiet, allowedTargets });

describe('GET /api/down', () => {
  test('up: SPEC 2.12 fields', async () => {
    const res = await request(app())
      .get('/api/down')
      .query({ url: `${target.url}/` });
    expect(res.status).toBe(200);
    expectMatchesSchema('checkSite', res.body);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      url: `${target.url}/`,
      is_up: true,
      status_code: 200,
      status_text: 'OK',
      server: 'fixture/2.1',
      content_type: 'text/html',
      powered_by: null,
      note: null,
      ip: '127.0.0.2',
      tls: null,
    });
    expect(res.body.data.checked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(typeof res.body.data.response_time_ms).toBe('number');
  });

  test('down is 200 with is_up false and a reason', async () => {
    const port = await freePort('127.0.0.2');
    const refused = await request(app())
      .get('/api/down')
      .query({ url: `http://127.0.0.2:${port}/` });
    expect(refused.status).toBe(200);
    expectMatchesSchema('checkSite', refused.body);
    expect(refused.body.data).toMatchObject({ is_up: false, status_code: null });
    expect(refused.body.data.note).toMatch(/^connection refused/);
    const error = await request(app())
      .get('/api/down')
      .query({ url: `${target.url}/error` });
    expectMatchesSchema('checkSite', error.body);
    expect(error.body.data).toMatchObject({ is_up: false, status_code: 500 });
  });

  test.each([
    [{}, /Missing required parameter "url"/],
    [{ url: 'ftp://127.0.0.2/' }, /must use http or https, not ftp/],
    [{ url: 'http://' }, /not a valid URL/],
  ])('400 for %j', async (query, message) => {
    const res = await request(app()).get('/api/down').query(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });
});

/** `127.0.0.2:PORT/aaa…` of exactly `length` characters: no scheme, as people type it. */
const withoutScheme = (length: number) => {
  const head = `${target.url.replace(/^http:\/\//, '')}/`;
  return head + 'a'.repeat(length - head.length);
};

describe('the 2,048-character limit is on the URL as given, not after https:// is added', () => {
  test('/api/down: 2,045 characters without a scheme are checked', async () => {
    const url = withoutScheme(2045);
    expect(url).toHaveLength(2045);
    const res = await request(app()).get('/api/down').query({ url });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expectMatchesSchema('checkSite', res.body);
    // https cannot connect to the plain-HTTP fixture; the fallback to http finds it up.
    expect(res.body.data).toMatchObject({ is_up: true, url: `http://${url}` });
  });

  test('/api/security-headers: 2,045 characters without a scheme are checked', async () => {
    const res = await request(app())
      .get('/api/security-headers')
      .query({ url: withoutScheme(2045) });
    // Accepted and probed: https (the default scheme) meets the plain-HTTP fixture, and the
    // grade says TLS failed — not that the URL is too long.
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(502);
    expect(res.body.error).toMatch(/TLS failed .*wrong version number/);
  });

  test.each(['/api/down', '/api/security-headers'])(
    '%s: 2,049 characters are refused',
    async (path) => {
      const res = await request(app())
        .get(path)
        .query({ url: withoutScheme(2049) });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/too long \(at most 2048 characters\)/);
    },
  );
});

describe('GET /api/security-headers', () => {
  test('grades, with the tool rate limit headers', async () => {
    const res = await request(app())
      .get('/api/security-headers')
      .query({ url: `${target.url}/` });
    expect(res.status).toBe(200);
    expectMatchesSchema('gradeSecurityHeaders', res.body);
    expect(res.headers['x-ratelimit-limit']).toBe('20');
    const data = res.body.data;
    expect(data.url).toBe(`${target.url}/`);
    expect(data.headers).toHaveLength(14);
    expect(data.observatory.tests_quantity).toBe(12);
    const xcto = data.headers.find((h: { test: string }) => h.test === 'x-content-type-options');
    expect(xcto).toMatchObject({
      present: true,
      value: 'nosniff',
      result: 'x-content-type-options-nosniff',
      pass: true,
    });
    expect(data.grade).toMatch(/^[A-F][+-]?$/);
  });
  test('403 for a loopback target outside the allowed set', async () => {
    const res = await request(app([]))
      .get('/api/security-headers')
      .query({ url: `${target.url}/` });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Target not allowed: 127.0.0.2 is a loopback (RFC 1122) address');
  });
});

describe('GET /api/ports', () => {
  test("no host: the caller's own IP (127.0.0.1 here) is refused unless allowed", async () => {
    const res = await request(app())
      .get('/api/ports')
      .query({ ports: String(openPort) });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/^Target not allowed: 127\.0\.0\.1 is a loopback/);
  });

  test('scanning yourself when your address is allowed', async () => {
    const res = await request(app(['127.0.0.1/32']))
      .get('/api/ports')
      .query({ ports: `${openPort},${await freePort()}` });
    expect(res.status).toBe(200);
    expectMatchesSchema('scanPorts', res.body);
    expect(res.headers['x-ratelimit-limit']).toBe('20');
    expect(res.body.data).toMatchObject({
      host: '127.0.0.1',
      ip: '127.0.0.1',
      ports_scanned: 2,
      open_count: 1,
      closed_count: 1,
      filtered_count: 0,
      open_ports: [openPort],
      accepts_everything: false,
    });
  });

  test.each([
    [{ ports: '1-101' }, /lists 101 ports; at most 100 per request/],
    [{ ports: '0' }, /outside 1-65535/],
    [{ ports: 'ssh' }, /invalid entry "ssh"/],
    [{ host: 'http://example.com/' }, /not a URL/],
  ])('400 for %j', async (query, message) => {
    const res = await request(app(['127.0.0.1/32']))
      .get('/api/ports')
      .query(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });
});

describe('server-wide scan cap', () => {
  test('503 with Retry-After through the API when the queue is full', async () => {
    const limiter = createScanLimiter(1, 0);
    const allowedTargets = ['127.0.0.1/32'];
    const engine = createNetdiag({ allowedTargets, scanLimiter: limiter });
    const application = createApp({ ...quiet, allowedTargets, engine });
    let release: () => void = () => {};
    const busy = limiter.run(() => new Promise<void>((r) => (release = r)));
    const res = await request(application)
      .get('/api/ports')
      .query({ ports: String(openPort) });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body.error).toMatch(/Too many port scans/);
    release();
    await busy;
  });
});
