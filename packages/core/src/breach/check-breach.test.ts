import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  startXposedOrNotServer,
  type XonAction,
  type XonFakeServer,
} from '../../../../test-utils/src/xposedornot-server.js';
import { createMemoryCache, createSingleFlight } from '../net/cache.js';
import { breachCacheKey, checkBreach } from './check-breach.js';
import { createRateGate } from './rate-gate.js';

let fake: XonFakeServer;
let action: XonAction;
beforeAll(async () => {
  fake = await startXposedOrNotServer({
    accounts: {
      'johndoe@example.com': {
        breaches: ['Adobe', 'LinkedIn', 'RockYou', 'Canva'],
        risk: { risk_label: 'High', risk_score: 67 },
      },
      'single@example.org': ['Dropbox'],
    },
    onRequest: () => action,
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  action = undefined;
  fake.requests.length = 0;
});

const check = (email: string, extra: Partial<Parameters<typeof checkBreach>[1]> = {}) =>
  checkBreach(email, { apiUrl: fake.url, ...extra });

describe('checkBreach against a fake XposedOrNot', () => {
  test('several breaches: the full SPEC 2.6 shape', async () => {
    const result = await check('JohnDoe@Example.com');
    expect(result).toEqual({
      email: 'joh***@example.com',
      status: 'checked',
      breaches: 4,
      services: ['Adobe', 'LinkedIn', 'RockYou', 'Canva'],
      passwords: { plain_text: 1, weak_hash: 2, strong_hash: 1, unknown: 0, total: 4 },
      risk: { score: 67, level: 'high' },
    });
    // Sent lower-cased, once.
    expect(fake.requests).toEqual(['johndoe@example.com']);
  });

  test('the computed risk of the fake passes through with its label', async () => {
    const result = await check('single@example.org');
    expect(result.breaches).toBe(1);
    expect(result.passwords).toEqual({
      plain_text: 0,
      weak_hash: 0,
      strong_hash: 1,
      unknown: 0,
      total: 1,
    });
    // Dropbox exposes Email addresses (4) + Passwords (10): 14 → Low.
    expect(result.risk).toEqual({ score: 14, level: 'low' });
  });

  test.each([
    ['200 with nulls', undefined],
    ['legacy 404', 'legacy-not-found' as const],
  ])('no breach (%s) is a success with zeros', async (_name, mode) => {
    action = mode;
    expect(await check('nobody@example.net')).toEqual({
      email: 'nob***@example.net',
      status: 'checked',
      breaches: 0,
      services: [],
      passwords: { plain_text: 0, weak_hash: 0, strong_hash: 0, unknown: 0, total: 0 },
      risk: { score: 0, level: 'low' },
    });
  });

  test('an invalid address never reaches the upstream', async () => {
    await expect(check('not-an-email')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(fake.requests).toEqual([]);
  });

  test('429 with Retry-After → ThrottledError, and the gate then holds every request', async () => {
    const gate = createRateGate();
    action = 'throttle';
    await expect(check('a1@example.com', { gate })).rejects.toMatchObject({
      code: 'UPSTREAM_THROTTLED',
      upstream: 'breach',
      retryAfterS: 7,
    });
    action = undefined;
    await expect(check('a2@example.com', { gate })).rejects.toMatchObject({
      code: 'UPSTREAM_THROTTLED',
    });
    expect(fake.requests).toEqual(['a1@example.com']);
  });

  test('429 without Retry-After (request dropped) → throttled for the default 60 s', async () => {
    action = 'drop';
    await expect(check('a3@example.com')).rejects.toMatchObject({
      code: 'UPSTREAM_THROTTLED',
      retryAfterS: 60,
    });
  });

  test.each([
    ['malformed JSON', 'malformed' as const, /not valid JSON/],
    ['another JSON shape', 'wrong-shape' as const, /unexpected shape/],
    ['an HTML page', 'html' as const, /not valid JSON/],
    ['HTTP 500', 'down' as const, /HTTP 500/],
    ['a reset connection', 'reset' as const, /cannot reach/],
  ])('%s → UpstreamError naming the breach upstream', async (_name, mode, message) => {
    action = mode;
    const error = await check('a4@example.com').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'breach' });
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('a4@example.com');
  });

  test('nothing listening → UpstreamError', async () => {
    await expect(
      checkBreach('a5@example.com', { apiUrl: 'http://127.0.0.1:1' }),
    ).rejects.toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'breach' });
  });

  test('slow → TimeoutError after the budget', async () => {
    action = 'hang';
    const started = Date.now();
    await expect(check('a6@example.com', { timeout: 200 })).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      upstream: 'breach',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('a slow answer inside the budget succeeds', async () => {
    action = { delayMs: 100 };
    await expect(check('johndoe@example.com', { timeout: 2000 })).resolves.toMatchObject({
      breaches: 4,
    });
  });

  test('the caller aborting → AbortedError', async () => {
    action = 'hang';
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(
      check('a7@example.com', { signal: controller.signal, timeout: 5000 }),
    ).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

describe('cache and single flight', () => {
  test('answers are cached for an hour under a SHA-256 of the address, not the address', async () => {
    let t = 0;
    const cache = createMemoryCache({ now: () => t });
    await check('JohnDoe@example.com', { cache });
    await check('johndoe@EXAMPLE.com', { cache });
    expect(fake.requests).toHaveLength(1);
    const key = breachCacheKey('johndoe@example.com');
    expect(key).toMatch(/^breach:xon:[0-9a-f]{64}$/);
    expect(key).not.toContain('johndoe');
    expect(await cache.get(key)).toMatchObject({ breaches: 4 });
    // Nothing stored holds the address.
    expect(JSON.stringify(await cache.get(key))).not.toContain('johndoe');
    t += 3_600_000 - 1;
    await check('johndoe@example.com', { cache });
    expect(fake.requests).toHaveLength(1);
    t += 1;
    await check('johndoe@example.com', { cache });
    expect(fake.requests).toHaveLength(2);
  });

  test('no-breach answers are cached; failures are not', async () => {
    const cache = createMemoryCache();
    await check('nobody@example.net', { cache });
    await check('nobody@example.net', { cache });
    expect(fake.requests).toHaveLength(1);
    action = 'down';
    await expect(check('b1@example.com', { cache })).rejects.toThrow();
    action = undefined;
    await expect(check('b1@example.com', { cache })).resolves.toMatchObject({ breaches: 0 });
    expect(fake.requests).toHaveLength(3);
  });

  test('identical concurrent checks collapse into one request', async () => {
    action = { delayMs: 100 };
    const singleFlight = createSingleFlight();
    const cache = createMemoryCache();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => check('johndoe@example.com', { cache, singleFlight })),
    );
    expect(fake.requests).toHaveLength(1);
    for (const r of results) expect(r.breaches).toBe(4);
  });

  test('a follower is not hurt when the first caller of a flight goes away', async () => {
    action = { delayMs: 150 };
    const singleFlight = createSingleFlight();
    const controller = new AbortController();
    const first = check('johndoe@example.com', { singleFlight, signal: controller.signal });
    const second = check('johndoe@example.com', { singleFlight });
    setTimeout(() => controller.abort(), 20);
    await expect(first).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(second).resolves.toMatchObject({ breaches: 4 });
    expect(fake.requests).toHaveLength(1);
  });
});

describe('pacing', () => {
  test('the gate keeps a burst of distinct checks under the upstream 2/s limit', async () => {
    const strict = await startXposedOrNotServer({ limitPerSecond: 2 });
    try {
      const gate = createRateGate({ maxWaitMs: 5000 });
      const results = await Promise.allSettled(
        ['c1', 'c2', 'c3', 'c4', 'c5'].map((n) =>
          checkBreach(`${n}@example.com`, { apiUrl: strict.url, gate }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(5).fill('fulfilled'));
      expect(strict.requests).toHaveLength(5);
      for (const t of strict.arrivals) {
        expect(strict.arrivals.filter((u) => u > t - 1000 && u <= t).length).toBeLessThanOrEqual(2);
      }
    } finally {
      await strict.close();
    }
  });

  test('without the gate the same burst is throttled by the upstream', async () => {
    const strict = await startXposedOrNotServer({ limitPerSecond: 2 });
    try {
      const results = await Promise.allSettled(
        ['d1', 'd2', 'd3', 'd4', 'd5'].map((n) =>
          checkBreach(`${n}@example.com`, { apiUrl: strict.url }),
        ),
      );
      expect(results.filter((r) => r.status === 'rejected').length).toBeGreaterThan(0);
    } finally {
      await strict.close();
    }
  });

  test('a burst longer than the wait bound is refused locally with Retry-After', async () => {
    const gate = createRateGate({ maxWaitMs: 600 });
    const results = await Promise.allSettled(
      ['e1', 'e2', 'e3', 'e4', 'e5'].map((n) => check(`${n}@example.com`, { gate })),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.length).toBe(3);
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        code: 'UPSTREAM_THROTTLED',
        retryAfterS: 2,
      });
    }
    expect(fake.requests).toHaveLength(2);
  });
});
