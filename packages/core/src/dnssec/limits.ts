/**
 * The work one DNSSEC validation may do: the limits resolvers adopted after KeyTrap
 * (CVE-2023-50387: many keys sharing a key tag, each tried against many signatures), and a
 * budget of DNS questions for long CNAME chains. Past a limit the verdict is `indeterminate`.
 * @module
 */

/** DNSKEYs of one zone with the same key tag and algorithm: PowerDNS Recursor 4.9.3's max-dnskeys. */
export const MAX_KEY_TAG_COLLISIONS = 2;

/** Signature checks on one RRset: Unbound 1.19.1's MAX_VALIDATE_RRSIGS (validator/val_sigcrypt.c). */
export const MAX_SIGNATURES_PER_RRSET = 8;

/** Signature checks in one validation per question of its budget (a denial needs up to 3). */
export const SIGNATURES_PER_QUESTION = 2;

/** Questions one validation asks by default: BIND 9.18's max-query-count (CNAMEs included). */
export const DEFAULT_MAX_QUERIES = 200;

/** The limits of one validation, for documentation and the faces. */
export const DNSSEC_LIMITS: Readonly<{
  /** At most this many DNSKEYs of a zone may share a key tag and algorithm. */
  keyTagCollisions: number;
  /** Signature verifications tried on one RRset. */
  signaturesPerRrset: number;
  /** Signature verifications in one validation, per question of `maxQueries`. */
  signaturesPerQuestion: number;
  /** The default of `maxQueries`: DNS questions asked in one validation. */
  maxQueries: number;
}> = {
  keyTagCollisions: MAX_KEY_TAG_COLLISIONS,
  signaturesPerRrset: MAX_SIGNATURES_PER_RRSET,
  signaturesPerQuestion: SIGNATURES_PER_QUESTION,
  maxQueries: DEFAULT_MAX_QUERIES,
};
