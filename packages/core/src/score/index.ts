/** Cleanliness score (SPEC 2.3, CONTRACT §6): `scoreIp` and its one weights table. */
export {
  type IpScore,
  type PrivacySignals,
  type ScoreEvidence,
  type ScoreIpOptions,
  scoreIp,
} from './score-ip.js';
export { describeScoreTable, type Grade, type GradeLabel, SCORE_WEIGHTS } from './weights.js';
