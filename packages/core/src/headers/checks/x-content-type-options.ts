/**
 * X-Content-Type-Options: exactly `nosniff` (Fetch §3.5.2; Observatory
 * `x-content-type-options.js`). "nosniff, nosniff" (two headers) is invalid.
 * @module
 */
import { type CheckOutcome, joinedHeader, outcome, type ScanInput } from './types.js';

export function checkXContentTypeOptions(input: ScanInput): CheckOutcome {
  const header = joinedHeader(input.auto, 'x-content-type-options');
  const value = header?.slice(0, 256) ?? null;
  let result = 'x-content-type-options-not-implemented';
  if (input.auto && value !== null) {
    result =
      value.trim().toLowerCase() === 'nosniff'
        ? 'x-content-type-options-nosniff'
        : 'x-content-type-options-header-invalid';
  }
  return outcome(result, result === 'x-content-type-options-nosniff', value !== null, value);
}
