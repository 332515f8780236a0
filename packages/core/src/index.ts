/**
 * @module
 * `@netdiag/core`: pure, typed network diagnostics. Every capability is one async function that
 * takes one options object (`signal`, `timeout` and injectable seams) and returns plain data.
 *
 * @example
 * ```ts
 * import { isPublicAddress, parseIp } from '@netdiag/core';
 * isPublicAddress('10.0.0.1'); // false
 * ```
 */

// --- Capabilities (each folder's index.ts decides what it makes public) ---
export * from './asn/index.js';
export * from './blocklist/index.js';
export * from './breach/index.js';
export * from './caller/index.js';
export * from './config/index.js';
export * from './dns/index.js';
export * from './email-auth/index.js';
export * from './engine/index.js';
// --- Errors ---
export {
  AbortedError,
  ConfigError,
  type ErrorCode,
  INVALID_IP_MESSAGE,
  InvalidInputError,
  InvalidIpError,
  isNetdiagError,
  NetdiagError,
  type NetdiagErrorOptions,
  NotFoundError,
  TargetNotAllowedError,
  ThrottledError,
  TimeoutError,
  UpstreamError,
} from './errors.js';
export * from './feeds/index.js';
export * from './headers/index.js';
export * from './ip/index.js';
export * from './myip/index.js';
// --- Shared seams ---
export {
  type Cache,
  type CachedOptions,
  cached,
  createMemoryCache,
  createSingleFlight,
  type MemoryCacheOptions,
} from './net/cache.js';
export type {
  CaaValue,
  DnsQueryOptions,
  DnsRecord,
  DnsResolver,
  DnsResponse,
  MxValue,
  Rcode,
  RecordType,
  SoaValue,
  SrvValue,
} from './net/dns-types.js';
export { type NormaliseDomainOptions, normaliseDomain, registrableDomain } from './net/domain.js';
export {
  formatHostPort,
  type HostPort,
  type ParseHostPortOptions,
  parseHostPort,
} from './net/host-port.js';
export {
  parseJsonBody,
  parseRetryAfter,
  throwForStatus,
  type UpstreamRequestOptions,
  type UpstreamResponse,
  USER_AGENT,
  upstreamRequest,
} from './net/http-client.js';
// --- Addresses and names ---
export {
  type IpVersion,
  normaliseSocketAddress,
  type ParsedIp,
  parseIp,
  parseIpLiteral,
  requireIp,
  reverseName,
} from './net/ip.js';
export {
  type AddressClass,
  type CidrSet,
  classifyAddress,
  IPV4_SPECIAL_RANGES,
  IPV6_SPECIAL_RANGES,
  isPublicAddress,
  parseCidrList,
  type SpecialRange,
} from './net/ranges.js';
export {
  type HostLookupError,
  type ResolvedAddress,
  resolveHost,
  resolverLookup,
} from './net/resolve-host.js';
export { DEFAULT_TIMEOUT_MS, withTimeout } from './net/signal.js';
export * from './ports/index.js';
export * from './schemas/index.js';
export * from './score/index.js';
export * from './site/index.js';
// --- Shared options ---
export type { BaseOptions } from './types.js';
export * from './whois/index.js';
