/**
 * `@netdiag/core/one-shot`: the IP lookup of a process that answers one question and exits (a
 * command-line lookup), with the errors it can raise, in an entry of its own so that importing
 * it costs a few milliseconds instead of the whole toolkit's 130-170 ms and 79 MB
 * (BENCHMARKS.md, "One-shot CLI lookup"). The same functions are exported by `@netdiag/core`.
 * @module
 */
export * from './errors.js';
export { lookupAnswer } from './ip/answers.js';
export type { DirectLookup } from './ip/direct/direct-lookup.js';
export { type OpenIpLookupOptions, openIpLookup } from './ip/direct/open-ip-lookup.js';
export type { IpInfo } from './ip/types.js';
export { requireIp } from './net/ip.js';
