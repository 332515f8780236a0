/**
 * The shape of a DNSSEC validation result (RFC 4033 §5 / RFC 4035 §4.3): each type is its
 * schema's output, since `validateDnssec` returns the `GET /api/dnssec` data as it is.
 * @module
 */
import type { z } from 'zod';
import type {
  denialProofSchema,
  dnssecAnswerSchema,
  dnssecDataSchema,
  dnssecFailureSchema,
  dnssecKeySchema,
  dsInfoSchema,
  signatureCheckSchema,
  zoneLinkSchema,
} from './schema.js';

/** An RRSIG over an RRset (`example. DNSKEY`) and how it fared. */
export type SignatureCheck = z.output<typeof signatureCheckSchema>;

/** Why one RRSIG did or did not validate an RRset (RFC 4035 §5.3.1). */
export type SignatureOutcome = SignatureCheck['outcome'];

/** A DNSKEY of a zone: `KSK` with the SEP flag (RFC 4034 §2.1.1), `revoked` with REVOKE (RFC 5011). */
export type DnssecKey = z.output<typeof dnssecKeySchema>;

/** A DS of a zone and its outcome against the zone's DNSKEYs. */
export type DsInfo = z.output<typeof dsInfoSchema>;

/** NSEC or NSEC3 records that prove a name or type does not exist (RFC 4035 §5.4, RFC 5155 §8). */
export type DenialProof = z.output<typeof denialProofSchema>;

/** One zone of the chain, from the trust anchor down. */
export type ZoneLink = z.output<typeof zoneLinkSchema>;

/** For `bogus`: the zone, RRset, rule and signatures of the link that broke. */
export type DnssecFailure = z.output<typeof dnssecFailureSchema>;

/** The answer and how it was proven (a wildcard, a denial of existence). */
export type DnssecAnswer = z.output<typeof dnssecAnswerSchema>;

/** The `GET /api/dnssec` data: verdict, reason, chain, answer, trust anchor. */
export type DnssecResult = z.output<typeof dnssecDataSchema>;

/**
 * RFC 4035 §4.3: `secure` (a chain of signed DNSKEY and DS from a trust anchor to the answer),
 * `insecure` (proof that a delegation on the way has no DS), `bogus` (a chain should exist and
 * does not verify), `indeterminate` (no trust anchor covers the name, or the data could not be
 * had).
 */
export type DnssecStatus = DnssecResult['status'];
