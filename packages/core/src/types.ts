/**
 * Options and result pieces shared by every capability.
 * @module
 */

/**
 * Every async core function is `fn(input, options?)`: the thing asked about first (a string
 * when it is one value, an object when it is several), then an options object that extends
 * this with the function's seams (resolver, cache, datasets, dispatcher, allowedTargets, …).
 */
export interface BaseOptions {
  /** Abort the operation; the function rejects with `AbortedError`. */
  signal?: AbortSignal;
  /**
   * Overall time budget in milliseconds; on expiry the function rejects with `TimeoutError`.
   * `false` turns the budget off (the caller's `signal` still applies).
   * @default 10000 unless a capability documents otherwise
   */
  timeout?: number | false;
}
