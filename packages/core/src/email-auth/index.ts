/**
 * @module
 * Email authentication: MX, SPF (RFC 7208 parsing, analysis and the full check_host()
 * evaluation), DMARC, DKIM, MTA-STS, TLS-RPT and BIMI. What `capabilities.ts` makes public.
 */

export {
  type CheckEmailAuthInput,
  type CheckEmailAuthOptions,
  checkEmailAuth,
  type EmailAuthReport,
} from './check-email-auth.js';
export { COMMON_DKIM_SELECTORS } from './dkim/analyse.js';
export { parseDmarcRecord } from './dmarc/parse.js';
export {
  type EvaluateSpfInput,
  type EvaluateSpfOptions,
  evaluateSpf,
  type SpfEvaluation,
} from './spf/evaluate-spf.js';
export { parseSpfRecord } from './spf/record.js';
export {
  EMAIL_AUTH_GRADES,
  EMAIL_AUTH_SECTION_LABELS,
  EMAIL_AUTH_SECTIONS,
  type EmailAuthGrade,
  type EmailAuthSection,
  GRADE_RULE,
} from './summary.js';
export type { Finding, FindingSeverity, SectionStatus } from './types.js';
