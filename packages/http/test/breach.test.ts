import { createNetdiag } from '@netdiag/core';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  startXposedOrNotServer,
  type XonAction,
  type XonFakeServer,
} from '../../../test-utils/src/xposedornot-server.js';
import { createApp } from '../src/app.js';
import { expectMatchesSchema } from './expect-schema.js';

let fake: XonFakeServer;
let action: XonAction;
beforeAll(async () => {
  fake = await startXposedOrNotServer({
    accounts: {
      'johndoe@example.com': {
        breaches: ['Canva', 'LinkedIn', 'Adobe', 'RockYou', 'Collection1'],
        risk: { risk_label: 'Critical', risk_score: 81 },
      },
    },
    onRequest: () => action,
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  action = undefined;
  fake.requests.length = 0;
});

function app(extra: Parameters<typeof createApp>[0] = {}) {
  const breachApiUrl = extra.breachApiUrl ?? fake.url;
  const engine = createNetdiag({ breachApiUrl, timeouts: { breach: 500 } });
  return createApp({ logLevel: 'silent', ...extra, breachApiUrl, engine });
}

describe('GET /api/breach', () => {
  test('several breaches: SPEC 2.6 field by field, types included', async () => {
    const res = await request(app()).get('/api/breach').query({ email: 'JohnDoe@example.com' });
    expect(res.status).toBe(200);
    expectMatchesSchema('checkBreach', res.body);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body).toEqual({
      success: true,
      data: {
        email: 'joh***@example.com',
        status: 'checked',
        breaches: 5,
        services: ['Canva', 'LinkedIn', 'Adobe', 'RockYou', 'Collection1'],
        passwords: { plain_text: 1, weak_hash: 2, strong_hash: 1, unknown: 1, total: 5 },
        risk: { score: 81, level: 'critical' },
      },
    });
  });

  test.each([
    ['200 with nulls', undefined],
    ['404', 'legacy-not-found' as const],
  ])('no breach (%s) → 200 with zeros', async (_name, mode) => {
    action = mode;
    const res = await request(app()).get('/api/breach?email=clean.person@example.org');
    expect(res.status).toBe(200);
    expectMatchesSchema('checkBreach', res.body);
    expect(res.body.data).toEqual({
      email: 'cle***@example.org',
      status: 'checked',
      breaches: 0,
      services: [],
      passwords: { plain_text: 0, weak_hash: 0, strong_hash: 0, unknown: 0, total: 0 },
      risk: { score: 0, level: 'low' },
    });
  });

  test.each([
    ['', /Missing required parameter "email"/],
    ['?email=', /Missing required parameter "email"/],
    ['?email=nobody', /not a valid email address/],
    ['?email=a@b', /not a valid email address/],
    ['?email=a@example.com&email=b@example.com', /must be given once/],
  ])('invalid email %s → 400', async (query, message) => {
    const res = await request(app()).get(`/api/breach${query}`);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toMatch(message);
    expect(fake.requests).toEqual([]);
  });

  test('upstream 429 → 503 with the upstream Retry-After (not 429)', async () => {
    action = 'throttle';
    const res = await request(app()).get('/api/breach?email=x1@example.com');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.body.error).toBe(
      'Upstream breach failed: the upstream is rate limiting us; retry in 7 s',
    );
  });

  test('after a 429 the next check is refused without asking the upstream', async () => {
    const a = app();
    action = 'throttle';
    await request(a).get('/api/breach?email=x2@example.com').expect(503);
    action = undefined;
    const res = await request(a).get('/api/breach?email=x3@example.com');
    expect(res.status).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body.error).toMatch(/^Upstream breach failed: the upstream is rate limiting us/);
    expect(fake.requests).toEqual(['x2@example.com']);
  });

  test("netdiag's own pace refusing → 503 that says so, not that the upstream throttles", async () => {
    // The gate spaces checks at 2 a second (XposedOrNot's limit) and waits at most 3 s for a
    // slot: of 7 checks at once, 6 get slots at 0, 0, 1.1, 1.1, 2.2 and 2.2 s, the 7th none.
    // A budget longer than the waits (app()'s 500 ms would turn them into 504s).
    const engine = createNetdiag({ breachApiUrl: fake.url, timeouts: { breach: 5000 } });
    const a = createApp({ logLevel: 'silent', breachApiUrl: fake.url, engine });
    const emails = Array.from({ length: 7 }, (_, i) => `pace${i}@example.com`);
    const answers = await Promise.all(
      emails.map((email) => request(a).get('/api/breach').query({ email })),
    );
    const refused = answers.filter((res) => res.status === 503);
    expect(refused).toHaveLength(1);
    const res = refused[0] as (typeof answers)[number];
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body.error).toMatch(/^netdiag's own limit on breach checks is reached/);
    expect(res.body.error).toMatch(/nothing was sent to it; retry in \d+ s$/);
    expect(res.body.error).not.toMatch(/^Upstream|rate limiting us/);
    expect(fake.requests).toHaveLength(6);
  });

  test.each([
    ['malformed JSON', 'malformed' as const],
    ['an HTML page', 'html' as const],
    ['HTTP 500', 'down' as const],
    ['a reset', 'reset' as const],
  ])('upstream %s → 502', async (_name, mode) => {
    action = mode;
    const res = await request(app()).get('/api/breach?email=x4@example.com');
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(/^Upstream breach failed/);
    expect(res.body.error).not.toContain('x4@example.com');
  });

  test('upstream not listening → 502', async () => {
    const res = await request(app({ breachApiUrl: 'http://127.0.0.1:1' })).get(
      '/api/breach?email=x5@example.com',
    );
    expect(res.status).toBe(502);
  });

  test('slow upstream → 504 naming the upstream and the budget', async () => {
    action = 'hang';
    const res = await request(app()).get('/api/breach?email=x6@example.com');
    expect(res.status).toBe(504);
    expect(res.body.error).toMatch(/breach.*500 ms/);
  });

  test('a repeated check within the hour is served from the cache', async () => {
    const a = app();
    await request(a).get('/api/breach?email=johndoe@example.com').expect(200);
    const res = await request(a).get('/api/breach?email=JOHNDOE@example.com').expect(200);
    expectMatchesSchema('checkBreach', res.body);
    expect(res.body.data.breaches).toBe(5);
    expect(fake.requests).toHaveLength(1);
  });

  test('concurrent identical checks share one upstream request', async () => {
    action = { delayMs: 100 };
    const a = app();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => request(a).get('/api/breach?email=johndoe@example.com')),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      expectMatchesSchema('checkBreach', res.body);
    }
    expect(fake.requests).toHaveLength(1);
  });

  test('the OpenAPI document describes the endpoint and its errors', async () => {
    const res = await request(app()).get('/api/openapi.json');
    const op = res.body.paths['/api/breach'].get;
    expect(op.parameters[0]).toMatchObject({ name: 'email', in: 'query', required: true });
    expect(Object.keys(op.responses)).toEqual(
      expect.arrayContaining(['200', '400', '502', '503', '504']),
    );
  });
});

describe('no raw address in any log line', () => {
  test.each([
    ['success', undefined, 200],
    ['throttled', 'throttle' as const, 503],
    ['malformed', 'malformed' as const, 502],
    ['timeout', 'hang' as const, 504],
  ])('%s', async (_name, mode, status) => {
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => lines.push(line) });
    const engine = createNetdiag({ breachApiUrl: fake.url, timeouts: { breach: 300 } });
    const a = createApp({ logger, breachApiUrl: fake.url, engine });
    action = mode;
    const answer = await request(a)
      .get('/api/breach')
      .query({ email: 'Secret.Person+tag@Example.com' })
      .expect(status);
    if (status === 200) expectMatchesSchema('checkBreach', answer.body);
    await request(a).get('/api/breach?email=secret.person%40bad').expect(400);
    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(log.toLowerCase()).not.toContain('secret');
    expect(log).toContain('[redacted]');
  });
});
