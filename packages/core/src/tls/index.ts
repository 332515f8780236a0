export { type CertificateFacts, signatureAlgorithm } from './certificates.js';
export {
  createTlsCheckLimiter,
  MAX_CONCURRENT_TLS_CHECKS,
  MAX_QUEUED_TLS_CHECKS,
  TLS_CHECK_RETRY_AFTER_S,
} from './check-limiter.js';
export {
  type AcceptedSuite,
  type CheckTlsOptions,
  checkTls,
  MAX_HANDSHAKES_PER_CHECK,
  type ProtocolSupport,
  type TlsCheckResult,
} from './check-tls.js';
export { type CipherStrength, type CipherSuiteInfo, describeCipherSuite } from './cipher-suites.js';
export {
  type GradeCap,
  type GradeInput,
  rateTls,
  rsaEquivalentBits,
  type TlsGrade,
  type TlsRating,
} from './grade.js';
export type { TlsVersion } from './handshake.js';
export { NON_TLS_PORTS } from './non-tls-ports.js';
export { MAX_CERTIFICATE_MESSAGE, MAX_REPORTED_CERTIFICATES } from './served-chain.js';
