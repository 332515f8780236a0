/**
 * The shape of a DNSSEC validation result: the verdict (RFC 4033 §5 / RFC 4035 §4.3), the link
 * that failed, and the whole chain for people to read.
 * @module
 */
import type { RecordType } from '../net/dns-types.js';

/**
 * RFC 4035 §4.3: `secure` (a chain of signed DNSKEY and DS from a trust anchor to the answer),
 * `insecure` (proof that a delegation on the way has no DS), `bogus` (a chain should exist and
 * does not verify), `indeterminate` (no trust anchor covers the name, or the data could not be
 * had).
 */
export type DnssecStatus = 'secure' | 'insecure' | 'bogus' | 'indeterminate';

/** Why one RRSIG did or did not validate an RRset (RFC 4035 §5.3.1). */
export type SignatureOutcome =
  | 'valid'
  | 'expired'
  | 'not-yet-valid'
  | 'no-matching-key'
  | 'bad-signature'
  | 'unsupported-algorithm'
  | 'wrong-signer'
  | 'bad-labels';

export interface SignatureCheck {
  /** The RRset it signs: owner and type, `example. DNSKEY`. */
  rrset: string;
  key_tag: number;
  algorithm: number;
  signer: string;
  /** RRSIG inception and expiration, ISO 8601. */
  inception: string;
  expiration: string;
  outcome: SignatureOutcome;
}

export interface DnssecKey {
  key_tag: number;
  algorithm: number;
  flags: number;
  /** `KSK` when the SEP flag is set (RFC 4034 §2.1.1), else `ZSK`; `revoked` with REVOKE (RFC 5011). */
  role: 'KSK' | 'ZSK' | 'revoked';
  /** A DS (or the trust anchor) names this key and its digest matches. */
  matches_ds: boolean;
}

export interface DsInfo {
  key_tag: number;
  algorithm: number;
  digest_type: number;
  /** Lower-case hex. */
  digest: string;
  /** The outcome against the zone's DNSKEYs. */
  outcome: 'matched' | 'digest-mismatch' | 'no-such-key' | 'unsupported' | 'not-checked';
}

/** NSEC or NSEC3 records that prove a name or type does not exist (RFC 4035 §5.4, RFC 5155 §8). */
export interface DenialProof {
  kind: 'nsec' | 'nsec3';
  /** The covering NSEC3 has the Opt-Out flag (RFC 5155 §6): unsigned delegations may hide there. */
  opt_out: boolean;
  /** What the records prove, in words. */
  proves: string;
  /** The records in zone-file form (`owner TTL IN TYPE data`). */
  records: string[];
}

/** One zone of the chain, from the trust anchor down. */
export interface ZoneLink {
  /** `example.`; `.` for the root. */
  zone: string;
  status: 'secure' | 'insecure' | 'bogus';
  /** Where the DS came from: the configured trust anchor or the parent zone. */
  ds_source: 'trust-anchor' | 'parent';
  ds: DsInfo[];
  /** The RRSIGs over the DS RRset in the parent (none for a trust anchor). */
  ds_signatures: SignatureCheck[];
  dnskeys: DnssecKey[];
  dnskey_signatures: SignatureCheck[];
  /** For an insecure delegation: the proof that the parent has no DS for it. */
  no_ds_proof?: DenialProof;
}

export interface DnssecFailure {
  /** The zone whose link broke (`example.`). */
  zone: string;
  /** The RRset concerned (`example. DNSKEY`). */
  rrset: string;
  /** The rule that was broken, with its RFC section. */
  rule: string;
  /** The key concerned, when one is. */
  key_tag?: number;
  algorithm?: number;
  /** The signatures tried on that RRset and how each fared. */
  signatures?: SignatureCheck[];
}

export interface DnssecAnswer {
  rcode: string;
  /** Records of the answer section in zone-file form (RRSIGs apart). */
  records: string[];
  signatures: SignatureCheck[];
  /** Set when the answer was synthesised from a wildcard (RFC 4035 §5.3.4): the wildcard name. */
  wildcard?: string;
  /** For NXDOMAIN, NODATA and wildcard answers: the denial of existence. */
  denial?: DenialProof;
}

export interface DnssecResult {
  /** The question, normalised (`example.com.`). */
  name: string;
  type: RecordType;
  status: DnssecStatus;
  /** One sentence for people. */
  reason: string;
  /** For `bogus`: the link that failed. */
  failure?: DnssecFailure;
  /** The zones from the trust anchor down to the answer's zone. */
  chain: ZoneLink[];
  answer?: DnssecAnswer;
  /** The trust anchor used: its zone and records. */
  trust_anchor: { zone: string; source: 'iana-root' | 'configured'; records: string[] };
  /** The validation time (signature windows were judged against it), ISO 8601. */
  validated_at: string;
}
