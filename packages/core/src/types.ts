/**
 * Options and result pieces shared by every capability.
 * @module
 */

/** Every core function takes one options object that extends this. */
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
