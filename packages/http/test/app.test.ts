import { InvalidInputError } from '@netdiag/core';
import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp } from '../src/app.js';
import { ROUTES } from '../src/routes/index.js';
import type { RouteDef } from '../src/routes/types.js';
import { expectMatchesSchema } from './expect-schema.js';

const quiet = { logLevel: 'silent' } as const;

/** Extra routes that exercise the error paths every real route shares. */
const probeRoutes: RouteDef[] = [
  ...ROUTES,
  {
    method: 'get',
    path: '/api/test/bad',
    operationId: 'bad',
    tag: 'Test',
    summary: 'always 400',
    data: { type: 'object' },
    errors: [400],
    handle() {
      throw new InvalidInputError('Missing required parameter "x": a number', 'x');
    },
  },
  {
    method: 'get',
    path: '/api/test/bug',
    operationId: 'bug',
    tag: 'Test',
    summary: 'always 500',
    data: { type: 'object' },
    errors: [],
    handle() {
      throw new TypeError('secret internal detail at /srv/app.js:12');
    },
  },
  {
    method: 'post',
    path: '/api/test/echo',
    operationId: 'echo',
    tag: 'Test',
    summary: 'echo body length',
    data: { type: 'object', properties: { bytes: { type: 'string' } } },
    errors: [400, 413],
    handle({ req }) {
      return { bytes: String((req.body as Buffer).length) };
    },
  },
];

const app = () => createApp({ ...quiet, routes: probeRoutes });

function expectEnvelope(res: request.Response, status: number, success: boolean) {
  expect(res.status).toBe(status);
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body.success).toBe(success);
  if (success) expect(res.body).toHaveProperty('data');
  else expect(typeof res.body.error).toBe('string');
}

describe('envelope and CORS', () => {
  test('200 wraps data', async () => {
    const res = await request(app()).get('/api/v1/headers');
    expectEnvelope(res, 200, true);
    expectMatchesSchema('echoHeaders', res.body);
  });
  test('400 carries the message', async () => {
    const res = await request(app()).get('/api/test/bad');
    expectEnvelope(res, 400, false);
    expect(res.body.error).toContain('"x"');
  });
  test('404 for unknown routes is JSON', async () => {
    const res = await request(app()).get('/api/nope');
    expectEnvelope(res, 404, false);
    expect(res.body.error).toMatch(/Not found/);
  });
  test('405 for a known path with another method, with Allow', async () => {
    const res = await request(app()).delete('/api/v1/headers');
    expectEnvelope(res, 405, false);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });
  test('413 for bodies over 16 KiB, 200 just below', async () => {
    const ok = await request(app())
      .post('/api/test/echo')
      .set('content-type', 'application/json')
      .send('x'.repeat(16 * 1024));
    expectEnvelope(ok, 200, true);
    const res = await request(app())
      .post('/api/test/echo')
      .set('content-type', 'application/json')
      .send('x'.repeat(16 * 1024 + 1));
    expectEnvelope(res, 413, false);
    expect(res.body.error).toContain('16 KiB');
  });
  test('500 hides the stack and the message', async () => {
    const logs: string[] = [];
    const pino = (await import('pino')).default;
    const logger = pino({ level: 'error' }, { write: (line: string) => logs.push(line) });
    const res = await request(createApp({ routes: probeRoutes, logger })).get('/api/test/bug');
    expectEnvelope(res, 500, false);
    expect(res.body.error).toBe('Internal server error');
    expect(JSON.stringify(res.body)).not.toContain('secret');
    expect(logs.join('')).toContain('secret internal detail');
    expect(logs.join('')).toContain(res.headers['x-request-id']);
  });
  test('OPTIONS preflight answers 204 with methods and Content-Type', async () => {
    const res = await request(app())
      .options('/api/bulk')
      .set('Origin', 'https://example.org')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain(
      'content-type',
    );
  });
});

describe('rate limits', () => {
  test('the 61st request in a window gets 429 with Retry-After and the rate headers', async () => {
    const server = app();
    for (let i = 1; i <= 60; i++) {
      const res = await request(server).get('/api/v1/headers');
      expect(res.status).toBe(200);
      expectMatchesSchema('echoHeaders', res.body);
      expect(res.headers['x-ratelimit-limit']).toBe('60');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(60 - i));
      expect(res.headers['x-ratelimit-window']).toBe('60');
    }
    const res = await request(server).get('/api/v1/headers');
    expectEnvelope(res, 429, false);
    expect(res.body.error).toBe('Rate limit exceeded: maximum 60 requests per minute');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    // Health and the API description are never limited.
    const health = await request(server).get('/healthz');
    expect(health.status).toBe(200);
    expectMatchesSchema('health', health.body);
    expect((await request(server).get('/api/openapi.json')).status).toBe(200);
  });

  test('the 21st /api/ports request gets 429 with the tool limit in the headers', async () => {
    const server = app();
    for (let i = 1; i <= 20; i++) {
      const res = await request(server).get('/api/ports');
      expect(res.status).not.toBe(429);
      expect(res.headers['x-ratelimit-limit']).toBe('20');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(20 - i));
    }
    const res = await request(server).get('/api/ports');
    expectEnvelope(res, 429, false);
    expect(res.body.error).toBe('Rate limit exceeded: maximum 20 requests per minute');
    expect(res.headers['retry-after']).toBeDefined();
    // security-headers has its own tool counter; the global one still has room.
    expect((await request(server).get('/api/security-headers')).headers['x-ratelimit-limit']).toBe(
      '20',
    );
    expect((await request(server).get('/api/v1/headers')).headers['x-ratelimit-remaining']).toBe(
      String(60 - 23),
    );
  });

  test('clients are counted separately', async () => {
    const server = createApp({
      ...quiet,
      routes: probeRoutes,
      trustProxy: 'loopback',
      rateLimit: 2,
    });
    for (let i = 0; i < 2; i++)
      await request(server).get('/api/v1/headers').set('X-Forwarded-For', '203.0.113.1');
    expect(
      (await request(server).get('/api/v1/headers').set('X-Forwarded-For', '203.0.113.1')).status,
    ).toBe(429);
    const other = await request(server)
      .get('/api/v1/headers')
      .set('X-Forwarded-For', '203.0.113.2');
    expect(other.status).toBe(200);
    expectMatchesSchema('echoHeaders', other.body);
  });
});

describe('caller IP and trust proxy', () => {
  test('X-Forwarded-For is ignored by default', async () => {
    const res = await request(app()).get('/api/v1/headers').set('X-Forwarded-For', '8.8.8.8');
    expectMatchesSchema('echoHeaders', res.body);
    expect(res.body.data.ip).toBe('127.0.0.1');
  });
  test('with trust proxy, the forwarded address is the caller', async () => {
    const server = createApp({ ...quiet, trustProxy: 'loopback' });
    const res = await request(server).get('/api/v1/headers').set('X-Forwarded-For', '8.8.8.8');
    expectMatchesSchema('echoHeaders', res.body);
    expect(res.body.data.ip).toBe('8.8.8.8');
    const mapped = await request(server)
      .get('/api/v1/headers')
      .set('X-Forwarded-For', '::ffff:1.2.3.4');
    expectMatchesSchema('echoHeaders', mapped.body);
    expect(mapped.body.data.ip).toBe('1.2.3.4');
  });
});

describe('GET /api/v1/headers (SPEC 2.14)', () => {
  test('method, full URL, lower-cased headers, IP', async () => {
    const res = await request(app())
      .get('/api/v1/headers?x=1&y=%C3%A9')
      .set('X-Custom-Thing', 'Hello')
      .set('Accept', 'application/json');
    expect(res.status).toBe(200);
    expectMatchesSchema('echoHeaders', res.body);
    const data = res.body.data;
    expect(Object.keys(data).sort()).toEqual(['headers', 'ip', 'method', 'url']);
    expect(data.method).toBe('GET');
    expect(data.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/headers\?x=1&y=%C3%A9$/);
    expect(data.headers['x-custom-thing']).toBe('Hello');
    expect(data.headers.accept).toBe('application/json');
    for (const [name, value] of Object.entries(data.headers)) {
      expect(name).toBe(name.toLowerCase());
      expect(typeof value).toBe('string');
    }
    expect(data.ip).toBe('127.0.0.1');
  });
});

describe('OpenAPI', () => {
  test('/api/openapi.json is a valid OpenAPI 3.1 document covering every route', async () => {
    const res = await request(app()).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const route of probeRoutes) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(res.body.paths[path]?.[route.method]?.operationId).toBe(route.operationId);
    }
  });

  test('no security, tags described, rate headers, 405 with Allow, 431, 400 everywhere', async () => {
    const doc = (await request(app()).get('/api/openapi.json')).body;
    expect(doc.security).toEqual([]);
    for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\w/);
    const { responses, headers } = doc.components;
    expect(Object.keys(responses.E405.headers)).toContain('Allow');
    expect(headers.Allow.schema).toEqual({ type: 'string' });
    expect(responses.E431.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    for (const status of ['E429', 'E503']) {
      expect(Object.keys(responses[status].headers)).toContain('Retry-After');
    }
    for (const [path, methods] of Object.entries(doc.paths) as [string, object][]) {
      for (const op of Object.values(methods)) {
        expect(Object.keys(op.responses), path).toEqual(
          expect.arrayContaining(['200', '400', '405', '431', '500']),
        );
        const limited = path.startsWith('/api/') && path !== '/api/openapi.json';
        expect(Object.keys(op.responses['200'].headers ?? {}), path).toEqual(
          limited ? ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Window'] : [],
        );
      }
    }
  });
});

describe('healthz', () => {
  test('reports readiness, version and the data attribution', async () => {
    const res = await request(app()).get('/healthz');
    expectEnvelope(res, 200, true);
    expectMatchesSchema('health', res.body);
    expect(res.body.data.ready).toBe(true);
    expect(res.body.data.attribution.join(' ')).toContain('IP geolocation by DB-IP');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
