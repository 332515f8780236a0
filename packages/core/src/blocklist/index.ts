/**
 * @module
 * DNS blocklists: `checkBlacklist` queries the 12 DNSBLs of `DNSBL_ZONES` concurrently.
 */
export {
  type BlacklistListResult,
  type BlacklistResult,
  type BlacklistStatus,
  type CheckBlacklistOptions,
  checkBlacklist,
} from './check-blacklist.js';
export { dnsblQueryName } from './query-name.js';
export { DNSBL_ZONES, type DnsblZone } from './zones.js';
