/**
 * A `Cache` (core's seam) in Redis, so N instances share DNS, DNSBL, breach, RDAP and WHOIS
 * answers. Values are JSON; TTLs are Redis PX expiries. When Redis is unreachable the local LRU
 * answers instead, so a Redis outage costs hit rate, never availability.
 * @module
 */
import { type Cache, createMemoryCache } from '@netdiag/core';
import type { RedisHandle } from './redis.js';

export function createRedisCache(
  redis: RedisHandle,
  namespace: string,
  fallback: Cache = createMemoryCache(),
): Cache {
  const prefix = `netdiag:cache:${namespace}:`;
  return {
    async get<T>(key: string): Promise<T | undefined> {
      try {
        const text = await redis.send<string | null>(['GET', prefix + key]);
        return text === null ? undefined : (JSON.parse(text) as T);
      } catch {
        return fallback.get<T>(key);
      }
    },
    async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
      if (!(ttlMs > 0)) return;
      try {
        await redis.send([
          'SET',
          prefix + key,
          JSON.stringify(value),
          'PX',
          String(Math.ceil(ttlMs)),
        ]);
      } catch {
        await fallback.set(key, value, ttlMs);
      }
    },
    async delete(key: string): Promise<void> {
      await Promise.allSettled([redis.send(['DEL', prefix + key]), fallback.delete(key)]);
    },
  };
}
