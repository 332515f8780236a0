/**
 * The server-wide cap on TLS checks (the port scans' limiter): a check makes its handshakes one
 * at a time, so at most 4 are in flight from this server, whatever the number of callers.
 * @module
 */
import { createScanLimiter, type ScanLimiter } from '../ports/scan-limiter.js';

/** TLS checks running at once on one server. */
export const MAX_CONCURRENT_TLS_CHECKS = 4;
/** Checks allowed to wait for a slot; beyond this callers get 503 at once. */
export const MAX_QUEUED_TLS_CHECKS = 16;
/** Retry-After for a refused check: about one check of ~45 handshakes at a 100 ms round trip. */
export const TLS_CHECK_RETRY_AFTER_S = 10;

/** The engine's default `tlsLimiter`; refusals say "Too many TLS checks" with Retry-After 10. */
export function createTlsCheckLimiter(
  max = MAX_CONCURRENT_TLS_CHECKS,
  maxQueued = MAX_QUEUED_TLS_CHECKS,
): ScanLimiter {
  return createScanLimiter(max, maxQueued, {
    what: 'TLS checks',
    retryAfterS: TLS_CHECK_RETRY_AFTER_S,
  });
}
