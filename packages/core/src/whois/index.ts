/**
 * WHOIS and RDAP: `rdapLookup` (RDAP only, v1), `whois` (RDAP then classic WHOIS), and
 * `rdapLookupResource` (IP networks and AS numbers). The parsers are public too, for callers
 * that already hold a document: `parseJCard`, `parseWhoisText`, `parseBootstrapFile`.
 * @module
 */

// --- RDAP bootstrap (RFC 9224) ---
export {
  BOOTSTRAP_FRESH_MS,
  type BootstrapFile,
  type BootstrapLoader,
  type BootstrapLoaderOptions,
  type BootstrapRegistry,
  type BootstrapService,
  createBootstrapLoader,
  DEFAULT_RDAP_BOOTSTRAP_URL,
  findAsnService,
  findDomainService,
  findIpService,
  parseBootstrapFile,
} from './bootstrap.js';
// --- Parsers ---
export { toIsoDate } from './dates.js';
export {
  flattenValue,
  getAddress,
  getProperties,
  getTel,
  getText,
  JCardError,
  type JCardScalar,
  type JCardValue,
  type ParseJCardOptions,
  parseJCard,
  type VCard,
  type VCardAddress,
  type VCardProperty,
} from './jcard.js';
// --- Lookups ---
export {
  DEFAULT_WHOIS_TIMEOUT_MS,
  RDAP_NOT_FOUND_MESSAGE,
  type RdapLookupOptions,
  type RdapResourceOptions,
  rdapLookup,
  rdapLookupResource,
  type WhoisOptions,
  whois,
  whoisDomain,
} from './lookup.js';
export type { RdapResourceResult } from './rdap-normalise.js';
export { toRdapStatus } from './status.js';
export type {
  WhoisClientOptions,
  WhoisLookupResult,
  WhoisResult,
  WhoisSeams,
} from './types.js';
// --- WHOIS over TCP (RFC 3912) ---
export { DEFAULT_WHOIS_SERVER, lookupWhoisChain, type WhoisChainOptions } from './whois-chain.js';
export {
  decodeWhois,
  parseWhoisServer,
  queryWhoisServer,
  type WhoisAnswer,
  type WhoisQueryInput,
  type WhoisQueryOptions,
  type WhoisServer,
} from './whois-client.js';
export {
  type ParsedWhois,
  parseWhoisText,
  WHOIS_MAX_LINES,
  type WhoisOutcome,
} from './whois-parser.js';
