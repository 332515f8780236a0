/**
 * Strict-Transport-Security (RFC 6797 §6.1; Observatory `strict-transport-security.js`):
 * judged on the https response only. max-age of at least 15552000 s passes. The HSTS preload
 * list is not consulted (netdiag ships no copy of Chromium's list), so `hsts-preloaded` is
 * never given.
 * @module
 */
import { HSTS_SIX_MONTHS_S } from '../score-table.js';
import { type CheckOutcome, headerValues, type ScanInput, shownValue } from './types.js';

export interface HstsOutcome extends CheckOutcome {
  maxAge: number | null;
  includeSubDomains: boolean;
  preload: boolean;
}

export function checkHsts(input: ScanInput): HstsOutcome {
  const response = input.https;
  const values = headerValues(response, 'strict-transport-security');
  // Sent over plain HTTP only: there, but ignored by browsers (RFC 6797 §8.1). Reported present
  // with its value, still graded as not implemented; the grader adds a note.
  const plain = response ? [] : headerValues(input.auto, 'strict-transport-security');
  const shown = values.length > 0 ? values : plain;
  const out: HstsOutcome = {
    result: 'hsts-not-implemented',
    pass: false,
    present: shown.length > 0,
    value: shownValue(shown),
    maxAge: null,
    includeSubDomains: false,
    preload: false,
  };
  if (!response) out.result = 'hsts-not-implemented-no-https';
  else if (!response.verified) out.result = 'hsts-invalid-cert';
  else if (values.length > 0) {
    const header = out.value ?? '';
    let maxAge: number | null = null;
    for (const parameter of header.split(';').map((p) => p.trim().toLowerCase())) {
      if (parameter.startsWith('max-age=')) maxAge = Number.parseInt(parameter.slice(8, 128), 10);
      else if (parameter === 'includesubdomains') out.includeSubDomains = true;
      else if (parameter === 'preload') out.preload = true;
    }
    // A comma means the header was sent twice (RFC 6797 §8.1: only the first is processed,
    // but a doubled header is a configuration error worth flagging).
    if (header.includes(',') || maxAge === null) out.result = 'hsts-header-invalid';
    else {
      out.maxAge = maxAge;
      out.result =
        maxAge < HSTS_SIX_MONTHS_S
          ? 'hsts-implemented-max-age-less-than-six-months'
          : 'hsts-implemented-max-age-at-least-six-months';
    }
  }
  out.pass = out.result === 'hsts-implemented-max-age-at-least-six-months';
  return out;
}
