/**
 * A server-wide cap on concurrent port scans: each scan holds up to 100 sockets, so without a
 * cap a burst of callers could exhaust file descriptors or turn the server into a scanning
 * cannon. The engine owns one limiter; every face's scans share it. TLS checks (about 45
 * handshakes each) have a second limiter of the same kind, with their own figures.
 * @module
 */
import { NetdiagError } from '../errors.js';
import { toAbortError } from '../net/signal.js';

/** Port scans running at once on one server. */
export const MAX_CONCURRENT_SCANS = 4;
/** Scans allowed to wait for a slot; beyond this callers get 503 at once. */
export const MAX_QUEUED_SCANS = 16;
/** Retry-After for a refused scan: about one scan's worst-case duration (100 ports, 1.5 s). */
export const SCAN_RETRY_AFTER_S = 5;

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

export function createScanLimiter(
  max = MAX_CONCURRENT_SCANS,
  maxQueued = MAX_QUEUED_SCANS,
  label: ScanLimiterLabel = { what: 'port scans', retryAfterS: SCAN_RETRY_AFTER_S },
): ScanLimiter {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    active--;
    waiting.shift()?.();
  };
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
        release();
      }
    },
  };
}
