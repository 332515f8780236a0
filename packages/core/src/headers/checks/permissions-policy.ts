/**
 * Permissions-Policy (W3C Permissions Policy §5.2; a netdiag addition): an RFC 8941 Dictionary
 * of feature → allow-list.
 * @module
 */
import { parseDictionaryKeys } from './structured-field.js';
import { type CheckOutcome, joinedHeader, outcome, type ScanInput } from './types.js';

export function checkPermissionsPolicy(input: ScanInput): CheckOutcome {
  const value = joinedHeader(input.auto, 'permissions-policy');
  if (value === null) return outcome('permissions-policy-not-implemented', false, false, null);
  const valid = (parseDictionaryKeys(value)?.length ?? 0) > 0;
  return outcome(
    valid ? 'permissions-policy-implemented' : 'permissions-policy-header-invalid',
    valid,
    true,
    value.slice(0, 1024),
  );
}
