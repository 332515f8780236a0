/**
 * A server-wide cap on concurrent port scans (each holds up to 100 sockets), shared by every
 * face through the engine; TLS checks have a second limiter of the same kind.
 * @module
 */
import { NetdiagError } from '../errors.js';
import { toAbortError } from '../net/signal.js';

/** What a limiter's refusal names, and the Retry-After it gives (port scans: 5 s). */
export interface ScanLimiterLabel {
  /** Plural, as in "Too many port scans are running on this server". */
  what: string;
  /** Seconds, sent as Retry-After with the 503. */
  retryAfterS: number;
}

/** A counting semaphore with a bounded, abortable queue. */
export interface ScanLimiter {
  readonly active: number;
  readonly queued: number;
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/**
 * `max` running at once, `maxQueued` waiting (beyond: 503 at once); the Retry-After of a port
 * scan is about one scan's worst case (100 ports, 1.5 s).
 */
export function createScanLimiter(
  max = 4,
  maxQueued = 16,
  label: ScanLimiterLabel = { what: 'port scans', retryAfterS: 5 },
): ScanLimiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    get active() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
    async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (active >= max) {
        if (waiting.length >= maxQueued) {
          throw new NetdiagError(
            'UPSTREAM_THROTTLED',
            `Too many ${label.what} are running on this server; retry in ${label.retryAfterS} s`,
            { retryAfterS: label.retryAfterS },
          );
        }
        await new Promise<void>((resolve, reject) => {
          const start = () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          };
          const onAbort = () => {
            const index = waiting.indexOf(start);
            if (index !== -1) waiting.splice(index, 1);
            reject(toAbortError(signal?.reason));
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          waiting.push(start);
        });
      }
      active++;
      try {
        return await task();
      } finally {
        active--;
        waiting.shift()?.();
      }
    },
  };
}
