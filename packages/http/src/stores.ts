/**
 * The app's stores. Caches: every capability asks `getCache(ctx, namespace)` and gets the one `Cache`
 * for that namespace: Redis-backed (shared by all instances) when `REDIS_URL` is set, else an
 * in-memory LRU. Hits and misses are counted for the metrics.
 * @module
 */
import type { LookupFunction } from 'node:net';
import { type Cache, createMemoryCache, resolverLookup } from '@netdiag/core';
import { type AppContext, service } from './context.js';
import { getMetrics } from './metrics.js';
import { connectRedis, type RedisHandle } from './redis.js';
import { createRedisCache } from './redis-cache.js';

/** Entries kept per namespace in memory (a DNSBL result is ~2 KiB, so ~20 MiB at worst). */
const MEMORY_ENTRIES = 10_000;

export function getCache(ctx: AppContext, namespace: string): Cache {
  return service(ctx, `cache:${namespace}`, () => {
    const local = createMemoryCache({ max: MEMORY_ENTRIES });
    const redis = getRedis(ctx);
    const store = redis ? createRedisCache(redis, namespace, local) : local;
    const lookups = getMetrics(ctx).cacheLookups;
    return {
      async get<T>(key: string) {
        const value = await store.get<T>(key);
        lookups.inc({ cache: namespace, result: value === undefined ? 'miss' : 'hit' });
        return value;
      },
      set: (key, value, ttlMs) => store.set(key, value, ttlMs),
      delete: (key) => store.delete(key),
    };
  });
}

/** The app's Redis connection, when `REDIS_URL` is set. */
export function getRedis(ctx: AppContext): RedisHandle | undefined {
  return service(ctx, 'redis', () => {
    if (!ctx.config.redisUrl) return undefined;
    // Resolved by the engine's resolver, asked once the engine exists (the engine's caches are
    // made with it, so the first connect must not ask for the engine synchronously).
    const lookup: LookupFunction = (host, options, callback) =>
      queueMicrotask(() => resolverLookup(ctx.engine.resolver)(host, options, callback));
    const redis = connectRedis(ctx.config.redisUrl, ctx.logger, lookup);
    ctx.closers.push(() => redis.close());
    return redis;
  });
}
