/**
 * DNSSEC validation (RFC 4033–4035, RFC 5155) done by netdiag itself from a trust anchor.
 * @module
 */
export { SUPPORTED_ALGORITHMS } from './algorithms.js';
export { DNSSEC_LIMITS } from './limits.js';
export { IANA_ROOT_ANCHORS } from './trust-anchor.js';
export type {
  DenialProof,
  DnssecAnswer,
  DnssecFailure,
  DnssecKey,
  DnssecResult,
  DnssecStatus,
  DsInfo,
  SignatureCheck,
  SignatureOutcome,
  ZoneLink,
} from './types.js';
export { type ValidateDnssecOptions, validateDnssec } from './validate-dnssec.js';
