/**
 * @module
 * Email authentication: MX, SPF (RFC 7208 parsing, analysis and the full check_host()
 * evaluation), DMARC, DKIM, MTA-STS, TLS-RPT and BIMI.
 */
export {
  type DkimKeyRecord,
  looksLikeDkimKey,
  parseDkimKeyRecord,
} from './dkim/key-record.js';
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
export {
  SPF_LOOKUP_LIMIT,
  SPF_NAME_LIMIT,
  SPF_VOID_LOOKUP_LIMIT,
  type SpfResult,
  type SpfTraceStep,
} from './spf/check-host.js';
export {
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
export type { EmailAuthDnsOptions, Finding, FindingSeverity, SectionStatus } from './types.js';
