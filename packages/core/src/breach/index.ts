/** Breach check (SPEC 2.6): `checkBreach` over the XposedOrNot breach-analytics API. */
export {
  BREACH_CACHE_TTL_MS,
  type BreachResult,
  breachCacheKey,
  type CheckBreachOptions,
  checkBreach,
  DEFAULT_BREACH_API_URL,
} from './check-breach.js';
export { maskEmail, normaliseEmail } from './email.js';
export {
  createRateGate,
  type RateGate,
  type RateGateOptions,
  type RateLimitWindow,
  XON_LIMITS,
} from './rate-gate.js';
export {
  type BreachSummary,
  mapBreachAnalytics,
  type XonBreachAnalytics,
  type XonBreachDetail,
  type XonPasswordsStrength,
} from './xposedornot.js';
