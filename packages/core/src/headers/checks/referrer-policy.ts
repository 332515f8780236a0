/**
 * Referrer-Policy (W3C Referrer Policy §4.1; Observatory `referrer-policy.js`): the last
 * recognised token of the header and `<meta name=referrer>`-style http-equiv values wins
 * (§8.1 "the last recognized policy"), unknown tokens are skipped.
 * @module
 */
import { type CheckOutcome, headerValues, type ScanInput } from './types.js';

const PRIVATE = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
const UNSAFE = ['origin', 'origin-when-cross-origin', 'unsafe-url', 'no-referrer-when-downgrade'];

export function checkReferrerPolicy(input: ScanInput): CheckOutcome {
  const values = [
    ...headerValues(input.auto, 'referrer-policy'),
    ...(input.auto?.httpEquiv['referrer-policy'] ?? []),
  ];
  if (values.length === 0) {
    return { result: 'referrer-policy-not-implemented', pass: true, present: false, value: null };
  }
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
  return {
    result,
    pass: result === 'referrer-policy-private',
    present: true,
    value: value.slice(0, 1024),
  };
}
