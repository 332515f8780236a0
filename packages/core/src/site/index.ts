/**
 * Site probes and the outbound-safety layer they share with the header grader, the port
 * scanner and MTA-STS: the SSRF guard and the SSRF-safe HTTP client (CONTRACT §4).
 * @module
 */
export {
  allowedSet,
  assertAddressAllowed,
  type CheckedHost,
  type GuardOptions,
  hostOfUrl,
  normaliseHost,
  type ParseProbeUrlOptions,
  parseProbeUrl,
  resolveAndCheck,
} from '../net/guard.js';
export {
  CONNECT_TIMEOUT_MS,
  headerValue,
  MAX_BODY_BYTES,
  MAX_REDIRECTS,
  type SafeFetchHop,
  type SafeFetchOptions,
  type SafeFetchResponse,
  safeFetch,
  TOTAL_TIMEOUT_MS,
} from '../net/safe-fetch.js';
export type { TlsFacts } from '../net/safe-fetch-connect.js';
export {
  ProbeError,
  type ProbeFailureKind,
  ProbeTimeoutError,
  TARGET_UPSTREAM,
} from '../net/safe-fetch-errors.js';
export {
  type CheckSiteOptions,
  checkSite,
  type SiteCheckResult,
  type SiteTls,
} from './check-site.js';
