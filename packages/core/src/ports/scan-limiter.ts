/**
 * A server-wide cap on concurrent port scans: each scan holds up to 100 sockets, so without a
 * cap a burst of callers could exhaust file descriptors or turn the server into a scanning
 * cannon. The engine owns one limiter; every face's scans share it.
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

/** A counting semaphore with a bounded, abortable queue. */
export interface ScanLimiter {
  readonly active: number;
  readonly queued: number;
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export function createScanLimiter(
  max = MAX_CONCURRENT_SCANS,
  maxQueued = MAX_QUEUED_SCANS,
): ScanLimiter {
  let active = 0;
  const waiting: { start: () => void; fail: (error: unknown) => void }[] = [];
  const release = () => {
    active--;
    const next = waiting.shift();
    if (next) next.start();
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
            `Too many port scans are running on this server; retry in ${SCAN_RETRY_AFTER_S} s`,
            { retryAfterS: SCAN_RETRY_AFTER_S },
          );
        }
        await new Promise<void>((resolve, reject) => {
          const entry = {
            start: () => {
              signal?.removeEventListener('abort', onAbort);
              resolve();
            },
            fail: reject,
          };
          const onAbort = () => {
            const index = waiting.indexOf(entry);
            if (index !== -1) waiting.splice(index, 1);
            reject(toAbortError(signal?.reason));
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          waiting.push(entry);
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
