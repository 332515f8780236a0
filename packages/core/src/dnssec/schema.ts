/** `GET /api/dnssec`: the shape `validateDnssec` returns. @module */
import { z } from 'zod';
import { DNS_TYPES_V1 } from '../dns/record-types.js';
import { domainInput } from '../schemas/common.js';
import { parameters } from '../schemas/param.js';

export const validateDnssecParamsSchema = parameters({
  domain: domainInput().describe('Domain name to validate (IDNs accepted)'),
  type: z
    .enum(DNS_TYPES_V1)
    .default('A')
    .describe(
      `Record type whose answer is validated, case-insensitive, default A. One of ${DNS_TYPES_V1.join(', ')}.`,
    ),
});
export type ValidateDnssecParams = z.input<typeof validateDnssecParamsSchema>;

/** One RRSIG over an RRset and how it fared (RFC 4035 §5.3.1). */
export const signatureCheckSchema = z.strictObject({
  rrset: z.string().describe('The RRset signed: owner and type, e.g. "example.com. DNSKEY"'),
  key_tag: z.int().describe('Key tag the RRSIG names (RFC 4034 §3.1.6)'),
  algorithm: z
    .int()
    .describe('DNSSEC algorithm number (8 RSA/SHA-256, 13 P-256, 14 P-384, 15 Ed25519)'),
  signer: z.string().describe('Signer name of the RRSIG'),
  inception: z.iso.datetime(),
  expiration: z.iso.datetime(),
  outcome: z
    .enum([
      'valid',
      'expired',
      'not-yet-valid',
      'no-matching-key',
      'bad-signature',
      'unsupported-algorithm',
      'wrong-signer',
      'bad-labels',
    ])
    .describe('How this RRSIG fared against the rules of RFC 4035 §5.3.1 and the signature check'),
});

/** NSEC or NSEC3 records that prove a name or type does not exist (RFC 4035 §5.4, RFC 5155 §8). */
export const denialProofSchema = z.strictObject({
  kind: z.enum(['nsec', 'nsec3']),
  opt_out: z
    .boolean()
    .describe('The covering NSEC3 has the Opt-Out flag: unsigned delegations may exist there'),
  proves: z.string().describe('What the records prove, in words'),
  records: z.array(z.string()).describe('The NSEC/NSEC3 records in zone-file form'),
});

/** A DS of a zone link against the zone's DNSKEYs. */
export const dsInfoSchema = z.strictObject({
  key_tag: z.int(),
  algorithm: z.int(),
  digest_type: z.int().describe('1 SHA-1, 2 SHA-256, 4 SHA-384; 0 for a DNSKEY trust anchor'),
  digest: z.string().describe('Lower-case hex'),
  outcome: z
    .enum(['matched', 'digest-mismatch', 'no-such-key', 'unsupported', 'not-checked'])
    .describe('This DS against the zone’s DNSKEYs'),
});

/** A DNSKEY of a zone link: `KSK` with the SEP flag (RFC 4034 §2.1.1), `revoked` (RFC 5011). */
export const dnssecKeySchema = z.strictObject({
  key_tag: z.int(),
  algorithm: z.int(),
  flags: z.int().describe('256 zone key, 257 zone key with SEP (KSK)'),
  role: z.enum(['KSK', 'ZSK', 'revoked']),
  matches_ds: z.boolean().describe('A DS (or the trust anchor) authenticates this key'),
});

/** One zone of the chain, from the trust anchor down. */
export const zoneLinkSchema = z.strictObject({
  zone: z.string().describe('Zone name with trailing dot; "." is the root'),
  status: z.enum(['secure', 'insecure', 'bogus']),
  ds_source: z
    .enum(['trust-anchor', 'parent'])
    .describe('Whether the DS came from the trust anchor or from the parent zone'),
  ds: z.array(dsInfoSchema),
  ds_signatures: z.array(signatureCheckSchema).describe('RRSIGs over the DS RRset in the parent'),
  dnskeys: z.array(dnssecKeySchema),
  dnskey_signatures: z.array(signatureCheckSchema).describe('RRSIGs over the DNSKEY RRset'),
  no_ds_proof: denialProofSchema
    .optional()
    .describe('For an unsigned delegation: the parent’s proof that it has no DS'),
});

/** For `bogus`: the link that broke, which key, which signatures, which rule. */
export const dnssecFailureSchema = z.strictObject({
  zone: z.string().describe('The zone whose link broke'),
  rrset: z.string().describe('The RRset concerned'),
  rule: z.string().describe('The rule broken, with its RFC section'),
  key_tag: z.int().optional().describe('The key concerned'),
  algorithm: z.int().optional(),
  signatures: z
    .array(signatureCheckSchema)
    .optional()
    .describe('The RRSIGs tried and how each fared'),
});

/** The answer validated: its records, their RRSIGs and, for a negative answer, the denial. */
export const dnssecAnswerSchema = z.strictObject({
  rcode: z.string(),
  records: z.array(z.string()).describe('Answer records in zone-file form (RRSIGs apart)'),
  signatures: z.array(signatureCheckSchema),
  wildcard: z.string().optional().describe('The wildcard the answer was synthesised from'),
  denial: denialProofSchema.optional().describe('For NXDOMAIN, NODATA and wildcard answers'),
});

export const dnssecDataSchema = z.strictObject({
  name: z.string().describe('The name validated, with trailing dot'),
  type: z.enum(DNS_TYPES_V1).describe('The record type validated'),
  status: z
    .enum(['secure', 'insecure', 'bogus', 'indeterminate'])
    .describe(
      'RFC 4035 §4.3: secure (signed chain from the trust anchor), insecure (a delegation on the way provably has no DS), bogus (a link does not verify; see failure), indeterminate (no trust anchor covers the name, the resolver answered SERVFAIL/REFUSED on the way, or the validation passed one of its limits — keys sharing a key tag, signature checks, DNS questions; reason names it)',
    ),
  reason: z.string().describe('One sentence for people'),
  failure: dnssecFailureSchema
    .optional()
    .describe('For bogus: which key, which signature, which rule'),
  chain: z
    .array(zoneLinkSchema)
    .describe('The zones from the trust anchor down to the answer’s zone'),
  answer: dnssecAnswerSchema.optional().describe('The answer and how it was proven'),
  trust_anchor: z.strictObject({
    zone: z.string(),
    source: z.enum(['iana-root', 'configured']),
    records: z.array(z.string()).describe('DS or DNSKEY records of the anchor'),
  }),
  validated_at: z.iso.datetime().describe('The time signature windows were judged against'),
});
export type DnssecData = z.infer<typeof dnssecDataSchema>;
