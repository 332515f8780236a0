/**
 * The one place that combines a caller's `signal` with a time budget (ky's pattern:
 * AbortSignal.any + our own TimeoutError instead of a bare AbortError).
 * @module
 */
import { AbortedError, isNetdiagError, TimeoutError } from '../errors.js';
import type { BaseOptions } from '../types.js';

/** Default time budget of one capability call. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Runs `task` with a signal that aborts when the caller's signal aborts or when the budget
 * runs out. A timeout surfaces as `TimeoutError(upstream, ms)`, a caller abort as
 * `AbortedError`; the timer is always cleared.
 */
export async function withTimeout<T>(
  options: BaseOptions,
  upstream: string,
  task: (signal: AbortSignal) => Promise<T>,
  defaultMs: number = DEFAULT_TIMEOUT_MS,
): Promise<T> {
  const ms = options.timeout === undefined ? defaultMs : options.timeout;
  const controller = new AbortController();
  const timer =
    ms === false
      ? undefined
      : setTimeout(() => controller.abort(new TimeoutError(upstream, ms)), ms);
  const signals = [controller.signal];
  if (options.signal) signals.push(options.signal);
  const signal = signals.length === 1 ? controller.signal : AbortSignal.any(signals);
  try {
    throwIfAborted(signal);
    return await raceAbort(task(signal), signal);
  } catch (error) {
    if (signal.aborted) throw toAbortError(signal.reason);
    throw error;
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** Rejects as soon as `signal` aborts, even when `promise` ignores the signal. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(toAbortError(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(toAbortError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw toAbortError(signal.reason);
}

/** An abort reason as a netdiag error: itself when it is one, else an `AbortedError`. */
export function toAbortError(reason: unknown): Error {
  return isNetdiagError(reason) ? reason : new AbortedError(reason);
}
