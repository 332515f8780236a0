/**
 * `checkBreach` (SPEC 2.6): the address, validated and lower-cased, is looked up in the cache
 * under its SHA-256, then asked of XposedOrNot (identical checks in flight collapsed, paced by
 * the rate gate). Nothing here logs; the address only leaves this function masked.
 * @module
 */

import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { ThrottledError } from '../errors.js';
import type { Cache, createSingleFlight } from '../net/cache.js';
import type { DnsResolver } from '../net/dns-types.js';
import { parseJsonBody, throwForStatus, upstreamRequest } from '../net/http-client.js';
import { raceAbort, withTimeout } from '../net/signal.js';
import type { BaseOptions } from '../types.js';
import { maskEmail, normaliseEmail } from './email.js';
import type { RateGate } from './rate-gate.js';
import type { breachDataSchema } from './schema.js';
import {
  BREACH_UPSTREAM,
  type BreachSummary,
  breachAnalyticsUrl,
  emptySummary,
  mapBreachAnalytics,
  retryAfterFrom,
} from './xposedornot.js';

/** XposedOrNot's public API (CONTRACT §5 `NETDIAG_BREACH_API_URL`). */
export const DEFAULT_BREACH_API_URL = 'https://api.xposedornot.com';
/** One hour: the bound, well inside the upstream's 100-a-day budget. */
export const BREACH_CACHE_TTL_MS = 3_600_000;
/** Largest answer read; a heavily breached address is ~100 KiB of breach descriptions. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

export interface CheckBreachOptions extends BaseOptions {
  /** Base URL of the XposedOrNot API. @default 'https://api.xposedornot.com' */
  apiUrl?: string;
  /** Where answers are kept (keyed by a SHA-256 of the address). No cache when absent. */
  cache?: Cache;
  /** How long an answer is kept. @default 3600000 (1 h) */
  cacheTtlMs?: number;
  /** Collapses identical checks in flight (share one per app). */
  singleFlight?: ReturnType<typeof createSingleFlight>;
  /** Paces requests to the upstream's limits (share one per app). No pacing when absent. */
  gate?: RateGate;
  /** undici dispatcher (proxy, tests); wins over `resolver`. */
  dispatcher?: Dispatcher;
  /** Resolves the API's host name. @default the system resolver (getaddrinfo) */
  resolver?: DnsResolver;
}

/** SPEC 2.6 `data`: the masked address, `status: checked` and the provider's summary. */
export type BreachResult = z.output<typeof breachDataSchema>;

/** The cache key of an address: never the address itself (a cache may be shared, e.g. Redis). */
export function breachCacheKey(normalisedEmail: string): string {
  return `breach:xon:${createHash('sha256').update(normalisedEmail).digest('hex')}`;
}

/**
 * Checks one address. Throws `InvalidInputError`, `ThrottledError` (the upstream or our gate
 * says wait), `UpstreamError`, `TimeoutError` (after `timeout`, default 10 s), `AbortedError`.
 */
export async function checkBreach(
  email: string,
  options: CheckBreachOptions = {},
): Promise<BreachResult> {
  const address = normaliseEmail(email);
  const key = breachCacheKey(address);
  const lookup = async (): Promise<BreachSummary> => {
    const hit = await options.cache?.get<BreachSummary>(key);
    if (hit !== undefined) return hit;
    const run = async () => {
      const summary = await fetchSummary(address, options);
      await options.cache?.set(key, summary, options.cacheTtlMs ?? BREACH_CACHE_TTL_MS);
      return summary;
    };
    return options.singleFlight ? options.singleFlight(key, run) : run();
  };
  // The shared flight is not tied to one caller's signal: a caller that goes away stops
  // waiting, the others still get the answer.
  const summary = options.signal ? await raceAbort(lookup(), options.signal) : await lookup();
  return { email: maskEmail(address), status: 'checked', ...summary };
}

async function fetchSummary(email: string, options: CheckBreachOptions): Promise<BreachSummary> {
  const url = breachAnalyticsUrl(options.apiUrl ?? DEFAULT_BREACH_API_URL, email);
  return withTimeout({ timeout: options.timeout }, BREACH_UPSTREAM, async (signal) => {
    const wait = options.gate?.reserve() ?? 0;
    if (wait > 0) await sleep(wait, undefined, { signal });
    const response = await upstreamRequest(url, {
      upstream: BREACH_UPSTREAM,
      signal,
      timeout: false,
      maxBytes: MAX_ANSWER_BYTES,
      headers: { accept: 'application/json' },
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(options.resolver ? { resolver: options.resolver } : {}),
    });
    // 404 is XposedOrNot's "no such address" (older deployments) — an address in no breach.
    if (response.status === 404) return emptySummary();
    if (response.status === 429 || (response.status === 503 && response.headers['retry-after'])) {
      const retryAfterS = retryAfterFrom(response);
      options.gate?.block(retryAfterS);
      throw new ThrottledError(BREACH_UPSTREAM, retryAfterS);
    }
    throwForStatus(response, BREACH_UPSTREAM);
    return mapBreachAnalytics(parseJsonBody(response, BREACH_UPSTREAM));
  });
}
