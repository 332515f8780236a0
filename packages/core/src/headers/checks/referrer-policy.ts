/**
 * Referrer-Policy (W3C Referrer Policy §4.1; Observatory `referrer-policy.js`): the last
 * recognised token of the header and `<meta>` values wins (§8.1).
 * @module
 */
import { type CheckOutcome, headerValues, outcome, type ScanInput } from './types.js';

const PRIVATE = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
const UNSAFE = ['origin', 'origin-when-cross-origin', 'unsafe-url', 'no-referrer-when-downgrade'];

export function checkReferrerPolicy(input: ScanInput): CheckOutcome {
  const values = [
    ...headerValues(input.auto, 'referrer-policy'),
    ...(input.auto?.httpEquiv['referrer-policy'] ?? []),
  ];
  if (values.length === 0) return outcome('referrer-policy-not-implemented', true, false, null);
  const value = values.join(', ');
  const policy =
    value
      .split(',')
      .map((token) => token.trim().toLowerCase())
      .filter((token) => PRIVATE.includes(token) || UNSAFE.includes(token))
      .at(-1) ?? '';
  const result = PRIVATE.includes(policy)
    ? 'referrer-policy-private'
    : UNSAFE.includes(policy)
      ? 'referrer-policy-unsafe'
      : 'referrer-policy-header-invalid';
  return outcome(result, result === 'referrer-policy-private', true, value.slice(0, 1024));
}
