/**
 * Per-app context: the configuration, the logger, the engine (core's one resolver, datasets,
 * feeds and caches) and lazily created server pieces (metrics, Redis), without a global.
 * @module
 */

import { createNetdiag, type Netdiag } from '@netdiag/core';
import { dataDir as ipDataDir } from '@netdiag/ip-data';
import pino, { type Logger } from 'pino';
import type { AppConfig } from './config.js';
import { getCache } from './stores.js';

export interface AppContext {
  config: AppConfig;
  logger: Logger;
  /** The engine every route answers from; its caches are the app's (Redis when configured). */
  readonly engine: Netdiag;
  /** Lazily created server pieces, keyed by `service()` callers. */
  readonly services: Map<string, unknown>;
  /** Cleanup hooks run on shutdown (close sockets, timers, Redis). */
  readonly closers: (() => Promise<void> | void)[];
}

/**
 * `shared`: an engine made by the caller (one engine for the app and the caller's own code, or
 * for several apps); the context then neither configures nor closes it.
 */
export function createContext(config: AppConfig, logger?: Logger, shared?: Netdiag): AppContext {
  let engine: Netdiag | undefined = shared;
  const ctx: AppContext = {
    config,
    logger: logger ?? defaultLogger(config.logLevel),
    get engine() {
      // A long-running server refreshes feeds on their schedule.
      engine ??= createNetdiag({
        ipDataDir,
        ...config,
        cacheStore: (namespace) => getCache(ctx, namespace),
        logger: ctx.logger,
        feeds: 'schedule',
      });
      return engine;
    },
    services: new Map(),
    closers: shared ? [] : [() => engine?.close()],
  };
  return ctx;
}

/**
 * JSON lines on stdout, written asynchronously in 4 KiB batches: a synchronous write per
 * request costs ~10 % of throughput under load. A warning or worse is written at once (with
 * everything buffered before it), so "Redis unreachable" is seen when it happens; the server
 * flushes after its start-up lines too (`flushLogs`), and everything on shutdown.
 */
function defaultLogger(level: string): Logger {
  if (level === 'silent') return pino({ level });
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const logger = pino(
    {
      level,
      base: undefined,
      hooks: {
        logMethod(args, method, methodLevel) {
          method.apply(this, args);
          // pino levels: 40 warn, 50 error, 60 fatal.
          if (methodLevel >= 40) destination.flush();
        },
      },
    },
    destination,
  );
  (logger as Logger & { flushLogs?: () => void }).flushLogs = () => destination.flushSync();
  return logger;
}

/** Returns the context's instance of a service, creating it on first use. */
export function service<T>(ctx: AppContext, key: string, create: (ctx: AppContext) => T): T {
  if (ctx.services.has(key)) return ctx.services.get(key) as T;
  const instance = create(ctx);
  ctx.services.set(key, instance);
  return instance;
}

/** Runs every registered closer once. */
export async function closeContext(ctx: AppContext): Promise<void> {
  const closers = ctx.closers.splice(0, ctx.closers.length);
  await Promise.allSettled(closers.map((close) => close()));
  try {
    (ctx.logger as Logger & { flushLogs?: () => void }).flushLogs?.();
  } catch {
    /* stdout already closed */
  }
}
