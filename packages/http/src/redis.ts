/**
 * The Redis connection shared by the limiter store and the cache. netdiag keeps serving when
 * Redis is unreachable: every command has a short deadline, and callers fall back to local state
 * (documented in the README: limits become per instance and a warning is logged).
 * @module
 */
import { createRequire } from 'node:module';
import type { LookupFunction } from 'node:net';
import type { Logger } from 'pino';

// Required when a Redis URL is configured, not at start: loading the client and its modules
// was ~15 % of the server's start (a CPU profile of bench/production/start.bench.ts).
const require = createRequire(import.meta.url);

/** How long one Redis command may take before we use local state instead. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;

export interface RedisHandle {
  /** True while connected. */
  readonly ready: boolean;
  /** Sends one command with the deadline; rejects when disconnected or slow. */
  send<T = unknown>(args: string[]): Promise<T>;
  close(): Promise<void>;
}

/**
 * `lookup`: how the Redis host name is resolved (the engine's resolver, so NETDIAG_DNS_SERVERS
 * covers it too). @default the system resolver
 */
export function connectRedis(url: string, logger: Logger, lookup?: LookupFunction): RedisHandle {
  const { createClient } = require('redis') as typeof import('redis');
  const client = createClient({
    url,
    // Fail fast while disconnected instead of queueing: callers have a local fallback.
    disableOfflineQueue: true,
    socket: {
      ...(lookup ? { lookup } : {}),
      connectTimeout: 2_000,
      // Keep trying forever, at most every 2 s, so that a restarted Redis is picked up again.
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000),
    },
  });
  let warned = false;
  client.on('error', (error: Error) => {
    if (!warned) {
      warned = true;
      logger.warn(
        { err: error.message },
        'Redis unreachable: using per-instance limits and caches until it is back',
      );
    }
  });
  client.on('ready', () => {
    if (warned) logger.info('Redis reachable again: shared limits and caches resumed');
    warned = false;
  });
  client.connect().catch(() => {
    /* reported by the 'error' listener; reconnects on its own */
  });
  return {
    get ready() {
      return client.isReady;
    },
    async send<T>(args: string[]): Promise<T> {
      if (!client.isReady) throw new Error('Redis is not connected');
      let timer: NodeJS.Timeout | undefined;
      try {
        return (await Promise.race([
          client.sendCommand(args),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error('Redis command timed out')),
              REDIS_COMMAND_TIMEOUT_MS,
            );
          }),
        ])) as T;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      try {
        if (client.isOpen) await client.quit();
      } catch {
        client.destroy();
      }
    },
  };
}
