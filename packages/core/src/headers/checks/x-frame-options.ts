/**
 * X-Frame-Options (RFC 7034) or CSP frame-ancestors (CSP3 §6.4.2), which supersedes it
 * (Observatory `x-frame-options.js`).
 * @module
 */
import { checkCsp } from './csp.js';
import { type CheckOutcome, joinedHeader, outcome, type ScanInput } from './types.js';

const PASSING = [
  'x-frame-options-allow-from-origin',
  'x-frame-options-sameorigin-or-deny',
  'x-frame-options-implemented-via-csp',
];

export function checkXFrameOptions(input: ScanInput): CheckOutcome {
  const header = joinedHeader(input.auto, 'x-frame-options');
  const value = header?.slice(0, 1024) ?? null;
  let result = 'x-frame-options-not-implemented';
  if (input.auto && value !== null) {
    const xfo = value.trim().toLowerCase();
    if (xfo === 'deny' || xfo === 'sameorigin') result = 'x-frame-options-sameorigin-or-deny';
    else if (xfo.startsWith('allow-from')) result = 'x-frame-options-allow-from-origin';
    else result = 'x-frame-options-header-invalid';
  }
  if (input.auto && checkCsp(input).policy?.['frame-ancestors']) {
    result = 'x-frame-options-implemented-via-csp';
  }
  return outcome(result, PASSING.includes(result), value !== null, value);
}
