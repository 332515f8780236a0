/**
 * The one cache seam of netdiag. Every cached answer (DNS, DNSBL, breach, RDAP bootstrap, WHOIS,
 * Tor list) goes through `Cache`: an in-memory LRU by default, a shared store (Redis) when the
 * server is scaled out. Values must be JSON-serialisable so that every store can hold them.
 * @module
 */

export interface Cache {
  /** The value, or `undefined` when absent or expired. */
  get<T>(key: string): Promise<T | undefined>;
  /** Stores a value for `ttlMs` milliseconds (≤ 0 stores nothing). */
  set<T>(key: string, value: T, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface MemoryCacheOptions {
  /** Most entries kept; the least recently used go first. @default 10000 */
  max?: number;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
}

interface Entry {
  value: unknown;
  expires: number;
}

/** An LRU with per-entry TTL (a Map keeps insertion order; a hit re-inserts the key). */
export function createMemoryCache(
  options: MemoryCacheOptions = {},
): Cache & { readonly size: number } {
  const max = options.max ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  return {
    get size() {
      return entries.size;
    },
    async get<T>(key: string): Promise<T | undefined> {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (entry.expires <= now()) return undefined;
      entries.set(key, entry);
      return entry.value as T;
    },
    async set<T>(key: string, value: T, ttlMs: number): Promise<void> {
      if (!(ttlMs > 0)) return;
      entries.delete(key);
      entries.set(key, { value, expires: now() + ttlMs });
      while (entries.size > max) entries.delete(entries.keys().next().value as string);
    },
    async delete(key: string): Promise<void> {
      entries.delete(key);
    },
  };
}

/** Collapses identical concurrent calls: while one for `key` is in flight, later ones share it. */
export function createSingleFlight() {
  const inFlight = new Map<string, Promise<unknown>>();
  return function singleFlight<T>(key: string, task: () => Promise<T>): Promise<T> {
    const pending = inFlight.get(key);
    if (pending) return pending as Promise<T>;
    const promise = task().finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  };
}

export interface CachedOptions<T> {
  cache: Cache;
  key: string;
  /** TTL for a computed value; may depend on it (DNS TTLs, negative caching). */
  ttlMs: number | ((value: T) => number);
  singleFlight?: ReturnType<typeof createSingleFlight>;
}

/** Read-through: the cached value, or `compute()` stored for its TTL (collapsed in flight). */
export async function cached<T>(options: CachedOptions<T>, compute: () => Promise<T>): Promise<T> {
  const hit = await options.cache.get<T>(options.key);
  if (hit !== undefined) return hit;
  const run = async () => {
    const value = await compute();
    const ttl = typeof options.ttlMs === 'function' ? options.ttlMs(value) : options.ttlMs;
    await options.cache.set(options.key, value, ttl);
    return value;
  };
  return options.singleFlight ? options.singleFlight(options.key, run) : run();
}
