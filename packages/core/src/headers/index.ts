export {
  type GradeSecurityHeadersOptions,
  gradeSecurityHeaders,
  type HeaderFinding,
  type SecurityHeadersResult,
} from './grade-security-headers.js';
export { SECURITY_GRADES, type SecurityGrade } from './score-table.js';
