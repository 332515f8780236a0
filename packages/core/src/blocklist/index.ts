/**
 * @module
 * DNS blocklists: `checkBlacklist` queries the 12 DNSBLs of `DNSBL_ZONES` concurrently.
 */
export {
  BLACKLIST_CACHE_TTL_MS,
  BLACKLIST_TIMEOUT_MS,
  type BlacklistListResult,
  type BlacklistResult,
  type BlacklistStatus,
  type CheckBlacklistOptions,
  checkBlacklist,
} from './check-blacklist.js';
export { type AnswerVerdict, classifyAnswer, isListingCode } from './listing.js';
export { controlAddress, dnsblQueryName } from './query-name.js';
export { DNSBL_ZONES, type DnsblZone, SPAMHAUS_ERROR_CODES } from './zones.js';
