/**
 * The breach-check service of one app: one cache, one single-flight map and one rate gate, so
 * that every route and CLI call of the app shares the upstream's budget (XposedOrNot limits
 * per calling IP — all of our instances behind one address share it too).
 * @module
 */
import {
  type BreachResult,
  type Cache,
  checkBreach,
  createRateGate,
  createSingleFlight,
  type RateGate,
} from '@netdiag/core';
import { type AppContext, service } from '../context.js';
import { getCache } from './cache.js';

export interface BreachService {
  apiUrl: string;
  /** Answers for an hour, keyed by a SHA-256 of the address. */
  cache: Cache;
  singleFlight: ReturnType<typeof createSingleFlight>;
  gate: RateGate;
  /** Time budget of one upstream check. @default 10000 */
  timeoutMs: number;
}

export function getBreachService(ctx: AppContext): BreachService {
  return service(ctx, 'breach', (c) => ({
    apiUrl: c.config.breachApiUrl,
    // The app's `breach` cache (Redis-shared when REDIS_URL is set); the key never holds the
    // address, only its SHA-256.
    cache: getCache(c, 'breach'),
    singleFlight: createSingleFlight(),
    gate: createRateGate(),
    timeoutMs: 10_000,
  }));
}

/** Checks one address with the app's shared cache, flight map and gate. */
export function runBreachCheck(
  ctx: AppContext,
  email: string,
  options: { signal?: AbortSignal; timeout?: number } = {},
): Promise<BreachResult> {
  const svc = getBreachService(ctx);
  return checkBreach({
    email,
    apiUrl: svc.apiUrl,
    cache: svc.cache,
    singleFlight: svc.singleFlight,
    gate: svc.gate,
    timeout: svc.timeoutMs,
    ...options,
  });
}
