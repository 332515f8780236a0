import http from 'node:http';
import net from 'node:net';
import { UpstreamError } from '@netdiag/core';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp } from '../src/app.js';
import { ROUTES } from '../src/routes/index.js';
import type { RouteDef } from '../src/routes/types.js';
import { startServer } from '../src/server.js';
import { expectMatchesSchema } from './expect-schema.js';

const slowRoute: RouteDef = {
  method: 'get',
  path: '/api/test/slow',
  operationId: 'slow',
  tag: 'Test',
  summary: 'answers after 300 ms',
  data: { type: 'object' },
  errors: [],
  handle: () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), 300)),
};
/** Long enough that waiting for it cannot be mistaken for cutting it, on a loaded machine. */
const stuckRoute: RouteDef = {
  ...slowRoute,
  path: '/api/test/stuck',
  operationId: 'stuck',
  summary: 'answers after 5 s',
  handle: () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), 5_000).unref()),
};
const failingRoute: RouteDef = {
  method: 'get',
  path: '/api/test/upstream',
  operationId: 'upstream',
  tag: 'Test',
  summary: 'an upstream failure',
  data: { type: 'object' },
  errors: [502],
  handle() {
    throw new UpstreamError('rdap', 'answered HTTP 500');
  },
};

describe('GET /metrics', () => {
  test('counts requests by route and status, rejections and upstream failures', async () => {
    const app = createApp({ logLevel: 'silent', rateLimit: 2, routes: [...ROUTES, failingRoute] });
    await request(app).get('/api/v1/headers');
    await request(app).get('/api/test/upstream');
    await request(app).get('/api/v1/headers');
    const text = (await request(app).get('/metrics')).text;
    expect(text).toMatch(
      /netdiag_http_requests_total\{method="GET",route="\/api\/v1\/headers",status="200"\} 1/,
    );
    expect(text).toMatch(
      /netdiag_http_requests_total\{method="GET",route="\/api\/v1\/headers",status="429"\} 1/,
    );
    expect(text).toMatch(/netdiag_rate_limited_total\{limiter="all"\} 1/);
    expect(text).toMatch(/netdiag_upstream_errors_total\{upstream="rdap",kind="error"\} 1/);
    expect(text).toContain('netdiag_http_request_duration_seconds_bucket');
    expect(text).toContain('netdiag_probes_in_flight');
    expect(text).toContain('netdiag_process_resident_memory_bytes');
  });
  test('labels requests by route pattern, never by raw URL', async () => {
    const app = createApp({ logLevel: 'silent', rateLimit: 1 });
    await request(app).get('/API/V1/Headers/'); // case and one trailing slash, as routing
    await request(app).get('/api/v1/ip/192.0.2.1'); // limited (429) before routing
    await request(app).post('/api/v1/headers'); // method not allowed: the path's pattern
    await request(app).get('/no/such/path/4f1c');
    const text = (await request(app).get('/metrics')).text;
    const count = (method: string, route: string, status: number) =>
      new RegExp(
        `netdiag_http_requests_total\\{method="${method}",route="${route.replace(/\//g, '\\/')}",status="${status}"\\} 1\n`,
      );
    expect(text).toMatch(count('GET', '/api/v1/headers', 200));
    expect(text).toMatch(count('GET', '/api/v1/ip/:address', 429));
    expect(text).toMatch(count('POST', '/api/v1/headers', 429));
    expect(text).toMatch(count('GET', 'other', 404));
    expect(text).not.toContain('192.0.2.1');
    expect(text).not.toContain('4f1c');
  });
  test('can be turned off', async () => {
    const app = createApp({ logLevel: 'silent', metrics: false });
    expect((await request(app).get('/metrics')).status).toBe(404);
  });
});

describe('graceful shutdown', () => {
  test('finishes in-flight requests, stops accepting, turns readiness false', async () => {
    const started = await startServer({
      logLevel: 'silent',
      port: 0,
      host: '127.0.0.1',
      routes: [...ROUTES, slowRoute],
    });
    const readiness = started.app.locals.netdiag.services.get('readiness') as { ready: boolean };
    const inFlight = fetch(`${started.url}/api/test/slow`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    await new Promise((r) => setTimeout(r, 50));
    const closed = started.close();
    expect(readiness.ready).toBe(false);
    const refused = await new Promise<string>((resolve) => {
      const socket = net.connect({
        host: '127.0.0.1',
        port: started.server.address()
          ? (started.server.address() as net.AddressInfo).port
          : Number(new URL(started.url).port),
      });
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
    expect(refused).toBe('ECONNREFUSED');
    expect(await inFlight).toEqual({ status: 200, body: { success: true, data: { done: true } } });
    await closed;
  });
  test('healthz answers 503 draining while not ready', async () => {
    const app = createApp({ logLevel: 'silent' });
    (app.locals.netdiag.services.get('readiness') as { ready: boolean }).ready = false;
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(503);
    // Documented as the success envelope (dataStatuses), not the error one.
    expectMatchesSchema('health', res.body);
    expect(res.body.data).toMatchObject({ ready: false, status: 'draining' });
  });
  test('cuts requests that outlive the deadline', async () => {
    const started = await startServer({
      logLevel: 'silent',
      port: 0,
      host: '127.0.0.1',
      shutdownTimeoutS: 0,
      routes: [...ROUTES, stuckRoute],
    });
    const outcome = new Promise<string>((resolve) => {
      http
        .get(`${started.url}/api/test/stuck`, (res) => resolve(String(res.statusCode)))
        .on('error', (e) => resolve(e.message));
    });
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    await started.close();
    // Waiting for the route would take ~5 s; cutting it takes milliseconds (the bound leaves
    // room for a loaded machine: it was 250 ms against a 300 ms route).
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(await outcome).toMatch(/socket hang up|ECONNRESET/);
  });
});

describe('request id and access log', () => {
  test('one line per request with the id echoed, email redacted', async () => {
    const lines: string[] = [];
    const pino = (await import('pino')).default;
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const app = createApp({ logger });
    const res = await request(app).get('/api/v1/headers?email=alice%40example.com&x=1');
    expectMatchesSchema('echoHeaders', res.body);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    const requestLines = lines.filter((l) => l.includes('"msg":"request"'));
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toContain(id);
    expect(lines.join('')).not.toContain('alice');
    expect(requestLines[0]).toContain('email=[redacted]');
  });
});
