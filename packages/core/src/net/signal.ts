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
 * Runs `task` with a signal that aborts with the caller's or when the budget runs out: a
 * timeout surfaces as `TimeoutError(upstream, ms)`, a caller abort as `AbortedError`.
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
  const signal = options.signal
    ? AbortSignal.any([controller.signal, options.signal])
    : controller.signal;
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
    const stop = whenAborted(signal, () => reject(toAbortError(signal.reason)));
    promise.then(resolve, reject).finally(stop);
  });
}

/** The callbacks waiting on one signal, and the one listener that calls them. */
interface Waiting {
  callbacks: Set<() => void>;
  listener: () => void;
}
const waiting = new WeakMap<AbortSignal, Waiting>();

/**
 * Calls `callback` when `signal` (not aborted yet) aborts; returns what stops waiting. The
 * callbacks of one signal share one 'abort' listener: each DNS query in flight waits on its
 * request's signal (dozens for a DKIM check), past Node's MaxListenersExceededWarning limit.
 */
export function whenAborted(signal: AbortSignal, callback: () => void): () => void {
  let entry = waiting.get(signal);
  if (entry === undefined) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      waiting.delete(signal);
      for (const waiter of callbacks) waiter();
    };
    entry = { callbacks, listener };
    waiting.set(signal, entry);
    signal.addEventListener('abort', listener, { once: true });
  }
  const mine = entry;
  // A function per registration, so that a callback registered twice is two waiters.
  const waiter = () => callback();
  mine.callbacks.add(waiter);
  return () => {
    if (!mine.callbacks.delete(waiter) || mine.callbacks.size > 0) return;
    if (waiting.get(signal) === mine) waiting.delete(signal);
    signal.removeEventListener('abort', mine.listener);
  };
}

/**
 * Lets the event loop run, then throws if `signal` aborted meanwhile: long work on remote input
 * is cut into steps with this between them (at most 50 ms per MiB), and stops when the caller
 * gives up.
 */
export async function nextTurn(signal?: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  throwIfAborted(signal);
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw toAbortError(signal.reason);
}

/** An abort reason as a netdiag error: itself when it is one, else an `AbortedError`. */
export function toAbortError(reason: unknown): Error {
  return isNetdiagError(reason) ? reason : new AbortedError(reason);
}
