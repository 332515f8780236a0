/**
 * Strict-Transport-Security (RFC 6797 §6.1; Observatory `strict-transport-security.js`), on the
 * https response only. netdiag ships no preload list, so `hsts-preloaded` is never given.
 * @module
 */
import { HSTS_SIX_MONTHS_S } from '../score-table.js';
import { type CheckOutcome, headerValues, outcome, type ScanInput, shownValue } from './types.js';

export function checkHsts(input: ScanInput): CheckOutcome {
  const response = input.https;
  const values = headerValues(response, 'strict-transport-security');
  // Sent over plain HTTP only: there, but ignored by browsers (RFC 6797 §8.1). Reported present
  // with its value, still graded as not implemented; the grader adds a note.
  const shown =
    values.length > 0 || response ? values : headerValues(input.auto, 'strict-transport-security');
  const value = shownValue(shown);
  let result = 'hsts-not-implemented';
  if (!response) result = 'hsts-not-implemented-no-https';
  else if (!response.verified) result = 'hsts-invalid-cert';
  else if (value !== null) {
    const maxAge = value
      .split(';')
      .map((p) => p.trim().toLowerCase())
      .filter((p) => p.startsWith('max-age='))
      .map((p) => Number.parseInt(p.slice(8, 128), 10))
      .at(-1);
    // A comma means the header was sent twice (RFC 6797 §8.1: only the first is processed,
    // but a doubled header is a configuration error worth flagging).
    if (value.includes(',') || maxAge === undefined) result = 'hsts-header-invalid';
    else if (maxAge < HSTS_SIX_MONTHS_S) result = 'hsts-implemented-max-age-less-than-six-months';
    else result = 'hsts-implemented-max-age-at-least-six-months';
  }
  const pass = result === 'hsts-implemented-max-age-at-least-six-months';
  return outcome(result, pass, shown.length > 0, value);
}
