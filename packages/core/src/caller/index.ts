/**
 * The caller endpoints' answers (`/api/ip`, `/api/v1/ip`, `/api/score`) from an address report
 * and a description of the connection.
 * @module
 */
export {
  type AddressReport,
  type CallerAnswer,
  type CallerAnswerV1,
  callerAnswer,
  callerAnswerV1,
  type ScoreAnswer,
  scoreAnswer,
  type V1Record,
} from './answers.js';
export {
  type CallerConnection,
  type ConnectionInfo,
  formatHttpVersion,
  isTlsVersionName,
} from './connection.js';
export { privacySignalsOf } from './signals.js';
