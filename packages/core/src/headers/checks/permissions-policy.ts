/**
 * Permissions-Policy (W3C Permissions Policy §5.2; a netdiag addition, not an Observatory
 * test): the header is an RFC 8941 Dictionary of feature → allow-list. Present and valid
 * earns extra credit; missing or unparsable costs a little (score-table.ts).
 * @module
 */
import { parseDictionaryKeys } from './structured-field.js';
import { type CheckOutcome, joinedHeader, type ScanInput } from './types.js';

export function checkPermissionsPolicy(input: ScanInput): CheckOutcome {
  const value = joinedHeader(input.auto, 'permissions-policy');
  if (value === null) {
    return {
      result: 'permissions-policy-not-implemented',
      pass: false,
      present: false,
      value: null,
    };
  }
  const keys = parseDictionaryKeys(value);
  const result =
    keys && keys.length > 0
      ? 'permissions-policy-implemented'
      : 'permissions-policy-header-invalid';
  return {
    result,
    pass: result === 'permissions-policy-implemented',
    present: true,
    value: value.slice(0, 1024),
  };
}
