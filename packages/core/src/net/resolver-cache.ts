/**
 * How long a DNS response may be cached: the smallest TTL of its answers, negative answers by
 * the SOA in the authority section (RFC 2308 §5), failures not at all.
 * @module
 */
import type { DnsRecord, DnsResponse, SoaValue } from './dns-types.js';

/**
 * Longest positive TTL kept: one day, Unbound's `cache-max-ttl` default
 * (https://unbound.docs.nlnetlabs.nl/en/latest/manpages/unbound.conf.html).
 */
export const MAX_POSITIVE_TTL_S = 86_400;
/**
 * Longest negative TTL kept: three hours, the upper end RFC 2308 §5 recommends and BIND's
 * `max-ncache-ttl` default.
 */
export const MAX_NEGATIVE_TTL_S = 10_800;

/** Seconds `response` may be served from cache; 0 means do not cache. */
export function cacheTtlSeconds(response: DnsResponse): number {
  if (response.rcode !== 'NOERROR' && response.rcode !== 'NXDOMAIN') return 0;
  const negative = negativeTtl(response.authority);
  const hasAnswerOfType = response.answers.some((r) => r.type === response.type);
  if (response.rcode === 'NOERROR' && response.answers.length > 0) {
    const positive = Math.min(MAX_POSITIVE_TTL_S, ...response.answers.map((r) => r.ttl));
    // A CNAME chain that ends without the asked type is partly negative (RFC 2308 §2.2).
    return hasAnswerOfType || negative === undefined ? positive : Math.min(positive, negative);
  }
  // NXDOMAIN or NODATA: without an SOA the answer SHOULD NOT be cached (RFC 2308 §5).
  return negative ?? 0;
}

/** RFC 2308 §5: the negative TTL is the minimum of the SOA's own TTL and its MINIMUM field. */
function negativeTtl(authority: readonly DnsRecord[]): number | undefined {
  const soa = authority.find((r) => r.type === 'SOA');
  if (!soa) return undefined;
  const minimum = (soa.value as SoaValue).minimum;
  return Math.min(soa.ttl, minimum, MAX_NEGATIVE_TTL_S);
}

/** What the cache holds: the response and when it was stored, to age its TTLs. */
export interface CachedResponse {
  response: DnsResponse;
  storedAt: number;
}

/** A cached response with every TTL reduced by its age in whole seconds (RFC 1035 §7.3). */
export function fromCache(entry: CachedResponse, now: number): DnsResponse {
  const age = Math.max(0, Math.floor((now - entry.storedAt) / 1000));
  const age1 = (r: DnsRecord): DnsRecord => ({ ...r, ttl: Math.max(0, r.ttl - age) });
  return {
    ...entry.response,
    answers: entry.response.answers.map(age1),
    authority: entry.response.authority.map(age1),
    transport: 'cache',
  };
}
