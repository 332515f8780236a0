/** Cleanliness score (SPEC 2.3, CONTRACT §6): `scoreIp` and its one weights table. */
export {
  type AddressType,
  type DnsblAnswer,
  type IpScore,
  type PrivacySignals,
  type ScoreEvidence,
  type ScoreIpOptions,
  scoreIp,
} from './score-ip.js';
export {
  BASE_SCORE,
  describeScoreTable,
  FLAG_TEXT,
  GRADES,
  type Grade,
  type GradeLabel,
  SCORE_WEIGHTS,
  type ScoreSignal,
  type ScoreWeight,
} from './weights.js';
