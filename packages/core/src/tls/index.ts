export { type CertificateFacts, certificateFacts, signatureAlgorithm } from './certificates.js';
export {
  type AcceptedSuite,
  type CheckTlsOptions,
  checkTls,
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
