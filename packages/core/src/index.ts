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
export { type NormaliseDomainOptions, normaliseDomain, registrableDomain } from './net/domain.js';
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
export { DEFAULT_TIMEOUT_MS, withTimeout } from './net/signal.js';
// --- Shared options ---
export type { BaseOptions } from './types.js';
