/**
 * WHOIS and RDAP: `rdapLookup` (RDAP only, v1), `whois` (RDAP then classic WHOIS), and
 * `rdapLookupResource` (IP networks and AS numbers).
 * @module
 */
export {
  type RdapLookupOptions,
  type RdapResourceOptions,
  rdapLookup,
  rdapLookupResource,
  type WhoisOptions,
  whois,
} from './lookup.js';
export type { RdapResourceResult } from './rdap-normalise.js';
export type { WhoisLookupResult, WhoisResult } from './types.js';
export { queryWhoisServer } from './whois-client.js';
