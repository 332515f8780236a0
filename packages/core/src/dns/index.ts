/**
 * @module
 * DNS: the built-in resolver (UDP/TCP/DoH over dns-packet with a TTL cache) that every DNS
 * lookup in netdiag goes through, record lookups in the two API shapes, and reverse DNS.
 */
export { createResolver, getDefaultResolver } from '../net/resolver.js';
export {
  type DnsExtendedErrorV1,
  type DnsLookupResult,
  type DnsLookupV1Result,
  type DnsQueryInput,
  type DnsRecordV0,
  type DnsRecordV1,
  type LookupDnsOptions,
  lookupDns,
  lookupDnsV1,
} from './lookup-dns.js';
export { DNS_TYPES, DNS_TYPES_V1 } from './record-types.js';
export { type ReverseDnsOptions, type ReverseDnsResult, reverseDns } from './reverse-dns.js';
