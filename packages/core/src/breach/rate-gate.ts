/**
 * A client-side gate for an upstream that limits us per calling IP. It spaces our requests so
 * that no window ever holds more than its limit, and after a 429 it stops every request until
 * the upstream's `Retry-After` has passed. Over-limit traffic is refused at once with
 * `ThrottledError` instead of being sent: XposedOrNot counts violations and then drops up to
 * 95% of a client's requests (custom_limiter.py `get_drop_percentage`).
 * @module
 */
import { ThrottledError } from '../errors.js';

export interface RateLimitWindow {
  /** Requests allowed in any window of `windowMs`. */
  limit: number;
  windowMs: number;
}

export interface RateGateOptions {
  /**
   * The upstream's limits.
   * @default XON_LIMITS — 2/s, 25/h, 100/day (XposedOrNot `breach-analytics`)
   */
  limits?: readonly RateLimitWindow[];
  /** Longest wait for a slot before refusing with ThrottledError. @default 3000 */
  maxWaitMs?: number;
  /** Added to every window, for clock skew and network jitter. @default 100 */
  marginMs?: number;
  /** Upstream name for errors. @default 'breach' */
  upstream?: string;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
}

export interface RateGate {
  /**
   * Reserves the next free slot and returns how many ms to wait for it; throws
   * `ThrottledError` (with the seconds until a slot frees) when that is over `maxWaitMs`.
   */
  reserve(): number;
  /** The upstream told us to stop for `retryAfterS` seconds. */
  block(retryAfterS: number): void;
}

/** XposedOrNot-API `api/v1/breaches.py`: "2 per second;25 per hour;100 per day" per client IP. */
const XON_LIMITS: readonly RateLimitWindow[] = [
  { limit: 2, windowMs: 1_000 },
  { limit: 25, windowMs: 3_600_000 },
  { limit: 100, windowMs: 86_400_000 },
];

/**
 * The gate refusing on its own pacing: still a `ThrottledError` (503 with Retry-After), but the
 * message says netdiag's limit refused, not the upstream (no `[netdiag] [x]` prefix).
 */
class OwnLimitError extends ThrottledError {
  constructor(upstream: string, retryAfterS: number, limits: readonly RateLimitWindow[]) {
    super(upstream, retryAfterS);
    const pace = limits.map((l) => `${l.limit} ${perWindow(l.windowMs)}`).join(', ');
    this.message =
      `netdiag's own limit on ${upstream} checks is reached (at most ${pace}, to stay within ` +
      `the ${upstream} service's limits per client); nothing was sent to it; retry in ${retryAfterS} s`;
  }
}

const WINDOW_WORDS: Record<number, string> = {
  1000: 'a second',
  60000: 'a minute',
  3600000: 'an hour',
  86400000: 'a day',
};

function perWindow(windowMs: number): string {
  return WINDOW_WORDS[windowMs] ?? `per ${windowMs / 1000} s`;
}

export function createRateGate(options: RateGateOptions = {}): RateGate {
  const limits = options.limits ?? XON_LIMITS;
  const maxWaitMs = options.maxWaitMs ?? 3_000;
  const marginMs = options.marginMs ?? 100;
  const upstream = options.upstream ?? 'breach';
  const now = options.now ?? Date.now;
  const longest = Math.max(0, ...limits.map((l) => l.windowMs + marginMs));
  /** Reserved slot times, ascending (appends are never earlier than the last slot). */
  const slots: number[] = [];
  let blockedUntil = 0;

  return {
    reserve() {
      const current = now();
      while (slots.length > 0 && (slots[0] as number) <= current - longest) slots.shift();
      let at = Math.max(current, blockedUntil, slots.at(-1) ?? 0);
      // With ascending slots, the new one respects a window iff the limit-th most recent slot
      // lies at least one window (plus margin) before it.
      for (const { limit, windowMs } of limits) {
        const older = slots[slots.length - limit];
        if (limit > 0 && older !== undefined) at = Math.max(at, older + windowMs + marginMs);
      }
      const wait = at - current;
      if (wait > maxWaitMs) {
        const retryAfterS = Math.max(1, Math.ceil(wait / 1000));
        // The upstream's own Retry-After holds us back, or only our pacing does: say which.
        if (blockedUntil >= at) throw new ThrottledError(upstream, retryAfterS);
        throw new OwnLimitError(upstream, retryAfterS, limits);
      }
      slots.push(at);
      return wait;
    },
    block(retryAfterS) {
      blockedUntil = Math.max(blockedUntil, now() + Math.max(1, retryAfterS) * 1000);
    },
  };
}
