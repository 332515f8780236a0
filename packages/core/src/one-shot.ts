/**
 * `@netdiag/core/one-shot`: the IP lookup of a process that answers one question and exits (a
 * command-line lookup or bulk run), with the errors it can raise, in an entry of its own so that importing
 * it costs a few milliseconds instead of the whole toolkit's 130-170 ms and 79 MB
 * (BENCHMARKS.md, "CLI start and scripts"). The same functions are exported by `@netdiag/core`.
 * @module
 */
export * from './errors.js';
export { bulkAnswerItem, lookupAnswer } from './ip/answers.js';
export { type BulkEntryError, type BulkLookupResult, bulkLookup } from './ip/bulk-lookup.js';
export type { IpDatasets } from './ip/datasets.js';
export { type OpenIpLookupOptions, openIpLookup } from './ip/open-ip-lookup.js';
export type { IpInfo, IpPlace } from './ip/types.js';
export { requireIp } from './net/ip.js';
