import { afterEach, describe, expect, test, vi } from 'vitest';
import { MemoryLimitStore } from '../src/limit-stores.js';

afterEach(() => {
  vi.useRealTimers();
});

function storeWithWindow(windowMs: number): MemoryLimitStore {
  const store = new MemoryLimitStore();
  store.init({ windowMs });
  return store;
}

describe('MemoryLimitStore', () => {
  test('counts synchronously, per key, within a fixed window from the first hit', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const store = storeWithWindow(60_000);
    const first = store.increment('all:192.0.2.1');
    expect(first).not.toBeInstanceOf(Promise);
    expect(first.totalHits).toBe(1);
    expect(first.resetTime?.getTime()).toBe(1_060_000);
    vi.setSystemTime(1_030_000);
    expect(store.increment('all:192.0.2.1')).toMatchObject({ totalHits: 2 });
    expect(store.increment('all:192.0.2.2')).toMatchObject({ totalHits: 1 });
    // The window is the first hit's: it does not slide with later hits.
    expect(store.get('all:192.0.2.1')?.resetTime?.getTime()).toBe(1_060_000);
    vi.setSystemTime(1_060_000);
    const renewed = store.increment('all:192.0.2.1');
    expect(renewed.totalHits).toBe(1);
    expect(renewed.resetTime?.getTime()).toBe(1_120_000);
    store.shutdown();
  });

  test('get, decrement and resetKey', () => {
    vi.useFakeTimers({ now: 0 });
    const store = storeWithWindow(1_000);
    expect(store.get('k')).toBeUndefined();
    store.increment('k');
    store.increment('k');
    store.decrement('k');
    expect(store.get('k')?.totalHits).toBe(1);
    store.decrement('k');
    store.decrement('k');
    expect(store.get('k')?.totalHits).toBe(0);
    store.resetKey('k');
    expect(store.get('k')).toBeUndefined();
    store.increment('k');
    vi.setSystemTime(1_000);
    expect(store.get('k')).toBeUndefined();
    store.shutdown();
  });

  test('expired windows are swept, so memory follows the active clients', () => {
    vi.useFakeTimers({ now: 0 });
    const store = storeWithWindow(1_000);
    for (let i = 0; i < 100; i++) store.increment(`all:198.51.100.${i}`);
    vi.advanceTimersByTime(500);
    store.increment('all:203.0.113.7');
    vi.advanceTimersByTime(600); // the sweep at 1,000 ms: the first 100 have expired
    expect(store.size).toBe(1);
    expect(store.get('all:203.0.113.7')?.totalHits).toBe(1);
    store.shutdown();
    expect(store.size).toBe(0);
  });
});
