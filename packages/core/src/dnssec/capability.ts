/**
 * `GET /api/dnssec`: netdiag's own DNSSEC validation, a tool endpoint. The queries go to the
 * server-wide resolver; nothing connects to a target the caller names.
 * @module
 */
import { defineCapability } from '../descriptor.js';
import { dnssecDataSchema, validateDnssecParamsSchema } from './schema.js';

const signature = (rrset: string, keyTag: number, algorithm: number, signer: string) => ({
  rrset,
  key_tag: keyTag,
  algorithm,
  signer,
  inception: '2026-11-24T09:31:39.000Z',
  expiration: '2026-12-24T09:31:39.000Z',
  outcome: 'valid',
});

/** A real answer from the tests' signed hierarchy (a DS whose digest was altered), shortened. */
const EXAMPLE = {
  name: 'www.baddigest.example.',
  type: 'A',
  status: 'bogus',
  reason:
    'RFC 4035 §5.2: the SHA-256 digest of DNSKEY 1186 (ECDSAP256SHA256) does not match the DS that names it',
  failure: {
    zone: 'baddigest.example.',
    rrset: 'baddigest.example. DNSKEY',
    rule: 'RFC 4035 §5.2: the SHA-256 digest of DNSKEY 1186 (ECDSAP256SHA256) does not match the DS that names it',
    key_tag: 1186,
    algorithm: 13,
  },
  chain: [
    {
      zone: '.',
      status: 'secure',
      ds_source: 'trust-anchor',
      ds: [
        {
          key_tag: 20326,
          algorithm: 8,
          digest_type: 2,
          digest: 'e06d44b80b8f1d39a95c0b0d7c65d08458e880409bbc683457104237c7f8ec8d',
          outcome: 'matched',
        },
      ],
      ds_signatures: [],
      dnskeys: [
        { key_tag: 20326, algorithm: 8, flags: 257, role: 'KSK', matches_ds: true },
        { key_tag: 23746, algorithm: 8, flags: 256, role: 'ZSK', matches_ds: false },
      ],
      dnskey_signatures: [signature('. DNSKEY', 20326, 8, '.')],
    },
    {
      zone: 'example.',
      status: 'secure',
      ds_source: 'parent',
      ds: [
        {
          key_tag: 52840,
          algorithm: 13,
          digest_type: 2,
          digest: '46c20f00e8d7c7e5c6e35eb684db3cce8c7eae718d4946f86a5b8167e6755c48',
          outcome: 'matched',
        },
      ],
      ds_signatures: [signature('example. DS', 23746, 8, '.')],
      dnskeys: [
        { key_tag: 41156, algorithm: 13, flags: 256, role: 'ZSK', matches_ds: false },
        { key_tag: 52840, algorithm: 13, flags: 257, role: 'KSK', matches_ds: true },
      ],
      dnskey_signatures: [signature('example. DNSKEY', 52840, 13, 'example.')],
    },
  ],
  trust_anchor: {
    zone: '.',
    source: 'iana-root',
    records: [
      '. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D',
      '. IN DS 38696 8 2 683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16',
    ],
  },
  validated_at: '2026-11-24T10:31:39.767Z',
};

export const validateDnssec = defineCapability({
  id: 'validateDnssec',
  params: validateDnssecParamsSchema,
  data: dnssecDataSchema,
  limit: 'tool',
  run: (engine, params, context) => engine.validateDnssec(params, context),
  http: {
    method: 'get',
    path: '/api/dnssec',
    tag: 'DNS',
    summary: 'DNSSEC validation of a name and type, from the root trust anchor down',
    description:
      'Validation done by netdiag itself (RFC 4033–4035, RFC 5155), not a copy of the ' +
      "resolver's AD flag: from the IANA root KSKs, the DS of each zone cut is checked against " +
      "the child's DNSKEY RRset (digest and self-signature), each RRset's RRSIGs are verified " +
      '(RSA/SHA-256, ECDSA P-256/P-384, Ed25519) within their validity windows, and negative ' +
      'answers and wildcard answers are checked against their NSEC or NSEC3 proofs (opt-out ' +
      'included). `status` is secure, insecure (a delegation on the way provably has no DS; the ' +
      'proof is in the chain), bogus (`failure` names the zone, RRset, key and rule; the ' +
      'signatures tried are listed) or indeterminate. `chain` lists every zone from the root ' +
      'down with its DS, keys and signatures. The queries go to the server-wide resolver with ' +
      'the DO and CD bits, so a validating resolver still hands over bogus data to examine. A ' +
      'resolver that answers SERVFAIL on the way gives `indeterminate` with the rcode in ' +
      '`reason`; so does a zone past the validation limits that resolvers adopted after KeyTrap ' +
      '(CVE-2023-50387): more than 2 DNSKEYs sharing a key tag, more than 8 signature checks on ' +
      'one RRset or 400 in the validation, more than 200 DNS questions (long CNAME chains), the ' +
      'limit named in `reason`. No answer in time is 504. Limited like the other tool endpoints.',
    paramExamples: { domain: 'example.com', type: 'A' },
    example: EXAMPLE,
    errors: [400, 502, 504],
  },
  tool: {
    name: 'validate_dnssec',
    title: 'Validate DNSSEC',
    description:
      'Validates the answer to a name and record type with DNSSEC, from the IANA root trust ' +
      'anchor down (DS → DNSKEY → RRSIG, NSEC/NSEC3 denial): secure, insecure (with the proof ' +
      'that a delegation has no DS), bogus (naming the failing key, signature and rule) or ' +
      'indeterminate, with the whole chain. type defaults to A. Same answer as GET /api/dnssec.',
    probe: false,
    openWorld: true,
  },
  cli: { command: 'dnssec', operand: 'domain' },
});
