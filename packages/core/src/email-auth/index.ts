/**
 * @module
 * Email authentication: MX, SPF (RFC 7208 parsing, analysis and the full check_host()
 * evaluation), DMARC, DKIM, MTA-STS, TLS-RPT and BIMI.
 */

export { type AnalyseBimiOptions, analyseBimi, type BimiAnalysis } from './bimi.js';
export {
  type CheckEmailAuthInput,
  type CheckEmailAuthOptions,
  checkEmailAuth,
  EMAIL_AUTH_DEFAULT_TIMEOUT_MS,
  EMAIL_AUTH_SPF_EVALUATION_TIMEOUT_MS,
  type EmailAuthReport,
} from './check-email-auth.js';
export {
  type AnalyseDkimOptions,
  analyseDkim,
  COMMON_DKIM_SELECTORS,
  type DkimAnalysis,
  type DkimSelectorResult,
} from './dkim/analyse.js';
export {
  type DkimKeyRecord,
  looksLikeDkimKey,
  parseDkimKeyRecord,
} from './dkim/key-record.js';
export {
  type AnalyseDmarcOptions,
  analyseDmarc,
  type DmarcAnalysis,
  type DmarcReportDestination,
} from './dmarc/analyse.js';
export {
  type DmarcAlignment,
  type DmarcEffectivePolicy,
  type DmarcPolicy,
  type DmarcRecordParse,
  type DmarcTagError,
  type DmarcTags,
  type DmarcUri,
  effectivePolicy,
  parseDmarcRecord,
  parseDmarcUri,
} from './dmarc/parse.js';
export { type AnalyseMtaStsOptions, analyseMtaSts, type MtaStsAnalysis } from './mta-sts.js';
export {
  type FetchMtaStsPolicyOptions,
  fetchMtaStsPolicy,
  type MtaStsPolicy,
  mxMatchesPattern,
  parseMtaStsPolicy,
} from './mta-sts-policy.js';
export { type AnalyseMxOptions, analyseMx, type MxAnalysis, type MxHost } from './mx.js';
export {
  type AnalyseSpfOptions,
  analyseSpf,
  type SpfAnalysis,
  type SpfRecordVisit,
  type SpfTermAnalysis,
} from './spf/analyse.js';
export {
  SPF_LOOKUP_LIMIT,
  SPF_NAME_LIMIT,
  SPF_VOID_LOOKUP_LIMIT,
  type SpfResult,
  type SpfTraceStep,
} from './spf/check-host.js';
export {
  type EvaluateSpfInput,
  type EvaluateSpfOptions,
  evaluateSpf,
  SPF_DEFAULT_TIMEOUT_MS,
  type SpfEvaluation,
} from './spf/evaluate-spf.js';
export {
  type ParsedSpfRecord,
  parseSpfRecord,
  type SpfMechanism,
  type SpfMechanismName,
  type SpfModifier,
  type SpfQualifier,
  type SpfSyntaxError,
  type SpfTerm,
  selectSpfRecords,
} from './spf/record.js';
export {
  CAPPING_SECTIONS,
  EMAIL_AUTH_GRADES,
  EMAIL_AUTH_SECTION_LABELS,
  EMAIL_AUTH_SECTIONS,
  type EmailAuthGrade,
  type EmailAuthSection,
  type EmailAuthSummary,
  emailAuthGrade,
  FAILING_CORE_CAP,
  GRADE_MINIMUM_SCORES,
  GRADE_RULE,
  SECTION_POINTS,
  type SectionScore,
  summarise,
} from './summary.js';
export { type AnalyseTlsRptOptions, analyseTlsRpt, type TlsRptAnalysis } from './tls-rpt.js';
export type {
  EmailAuthDnsOptions,
  EmailAuthSectionOptions,
  Finding,
  FindingSeverity,
  SectionStatus,
} from './types.js';
