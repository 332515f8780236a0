export {
  type CapturedResponse,
  CHECKS,
  type CheckDef,
  type CheckOutcome,
  type Cookie,
  checkCoep,
  checkCookies,
  checkCoop,
  checkCorp,
  checkCors,
  checkCsp,
  checkHsts,
  checkInformationDisclosure,
  checkPermissionsPolicy,
  checkRedirection,
  checkReferrerPolicy,
  checkSubresourceIntegrity,
  checkXContentTypeOptions,
  checkXFrameOptions,
  cookieJar,
  type ParsedCsp,
  parseCsp,
  parseCspMeta,
  parseSetCookie,
  type ScanInput,
} from './checks/index.js';
export { type GradedScore, gradeForScore, gradeScore } from './grade.js';
export {
  CORS_PROBE_ORIGIN,
  type GradeSecurityHeadersOptions,
  gradeSecurityHeaders,
  type HeaderFinding,
  type SecurityHeadersResult,
} from './grade-security-headers.js';
export { type HtmlFacts, type ScriptTag, scanHtml } from './html.js';
export {
  ALGORITHM_VERSION,
  GRADE_CHART,
  MINIMUM_SCORE_FOR_EXTRA_CREDIT,
  SCORE_TABLE,
  type ScoreEntry,
} from './score-table.js';
