import {
  prerequisite,
  type RedisTestServer,
  redisAvailable,
  startRedis,
} from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app.js';
import { closeContext } from '../src/context.js';
import { getCache } from '../src/stores.js';
import { expectMatchesSchema } from './expect-schema.js';

const hasRedis = prerequisite('redis-server', redisAvailable(), 'apt-get install redis-server');

describe.skipIf(!hasRedis)('Redis-shared limits and caches', () => {
  let redis: RedisTestServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  /** A new app on the shared Redis, returned once its connection is up. */
  const instance = async (options: Parameters<typeof createApp>[0] = {}) => {
    const app = createApp({
      logLevel: 'silent',
      redisUrl: redis.url,
      trustProxy: 'loopback',
      ...options,
    });
    // The Redis connection is opened by the first use of the limiter store.
    await request(app).get('/api/v1/headers').set('X-Forwarded-For', '192.0.2.250');
    const handle = app.locals.netdiag.services.get('redis') as { ready: boolean };
    for (let i = 0; i < 100 && !handle.ready; i++) await new Promise((r) => setTimeout(r, 20));
    expect(handle.ready).toBe(true);
    return app;
  };
  const twoInstances = async () => [await instance(), await instance()] as const;

  test('two instances sharing one Redis allow exactly 60 requests per client per window', async () => {
    const [a, b] = await twoInstances();
    let ok = 0;
    let limited = 0;
    for (let i = 0; i < 70; i++) {
      const res = await request(i % 2 ? a : b)
        .get('/api/v1/headers')
        .set('X-Forwarded-For', '198.51.100.77');
      if (res.status === 200) ok++;
      else if (res.status === 429) limited++;
    }
    expect(ok).toBe(60);
    expect(limited).toBe(10);
    for (const app of [a, b]) await closeContext(app.locals.netdiag);
  });

  test('caches are shared between instances', async () => {
    const [a, b] = await twoInstances();
    const ca = getCache(a.locals.netdiag, 'test');
    const cb = getCache(b.locals.netdiag, 'test');
    await ca.set('k', { answer: 42 }, 10_000);
    expect(await cb.get('k')).toEqual({ answer: 42 });
    for (const app of [a, b]) await closeContext(app.locals.netdiag);
  });

  test('when Redis dies mid-test the API keeps answering with local limits, then resumes', async () => {
    const app = await instance({ rateLimit: 1000, trustProxy: false });
    expect((await request(app).get('/api/v1/headers')).status).toBe(200);
    await redis.kill();
    const started = Date.now();
    for (let i = 0; i < 5; i++) {
      const res = await request(app).get('/api/v1/headers');
      expect(res.status).toBe(200);
      expectMatchesSchema('echoHeaders', res.body);
      expect(res.headers['x-ratelimit-limit']).toBe('1000');
    }
    // Five requests within the 250 ms command deadline each, at most.
    expect(Date.now() - started).toBeLessThan(5 * 400);
    const cache = getCache(app.locals.netdiag, 'outage');
    await cache.set('k', 'v', 10_000);
    expect(await cache.get('k')).toBe('v');
    await redis.restart();
    const handle = app.locals.netdiag.services.get('redis') as { ready: boolean };
    for (let i = 0; i < 100 && !handle.ready; i++) await new Promise((r) => setTimeout(r, 50));
    expect(handle.ready).toBe(true);
    expect((await request(app).get('/api/v1/headers')).status).toBe(200);
    await closeContext(app.locals.netdiag);
  });
});
