import { describe, expect, test } from 'vitest';
import { type Cache, cached, createMemoryCache, createSingleFlight } from './cache.js';

/** The contract every Cache implementation meets (memory here; Redis reuses it). */
export function testCache(name: string, make: (clock: { now: number }) => Cache) {
  describe(`Cache contract: ${name}`, () => {
    test('stores, expires and deletes', async () => {
      const clock = { now: 1_000 };
      const cache = make(clock);
      await cache.set('a', { x: 1 }, 100);
      expect(await cache.get('a')).toEqual({ x: 1 });
      clock.now += 101;
      expect(await cache.get('a')).toBeUndefined();
      await cache.set('b', [1, 2], 1000);
      await cache.delete('b');
      expect(await cache.get('b')).toBeUndefined();
      await cache.set('c', 'v', 0);
      expect(await cache.get('c')).toBeUndefined();
    });
  });
}

testCache('memory', (clock) => createMemoryCache({ now: () => clock.now }));

describe('memory cache', () => {
  test('evicts the least recently used entry', async () => {
    const cache = createMemoryCache({ max: 2 });
    await cache.set('a', 1, 1000);
    await cache.set('b', 2, 1000);
    await cache.get('a');
    await cache.set('c', 3, 1000);
    expect(await cache.get('a')).toBe(1);
    expect(await cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(2);
  });
});

describe('cached + singleFlight', () => {
  test('collapses concurrent computations and caches by computed TTL', async () => {
    const cache = createMemoryCache();
    const singleFlight = createSingleFlight();
    let calls = 0;
    const compute = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      return { n: calls };
    };
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        cached({ cache, key: 'k', ttlMs: (v) => v.n * 1000, singleFlight }, compute),
      ),
    );
    expect(calls).toBe(1);
    expect(results.every((r) => r.n === 1)).toBe(true);
    expect(await cached({ cache, key: 'k', ttlMs: 1000 }, compute)).toEqual({ n: 1 });
    expect(calls).toBe(1);
  });
});
