/**
 * The status key (`compactStatus`) is the letters of the lower-cased value, as the replacement
 * it stands for gave them, on text made of what can change the answer: both cases, separators,
 * characters outside ASCII whose lower case is or holds an ASCII letter, and lengths around the
 * cut.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compactStatus, STATUS_KEY_LETTERS, toRdapStatus } from './status.js';

const piece = fc.constantFrom(
  'client',
  'Transfer',
  'PROHIBITED',
  'ok',
  ' ',
  '_',
  '-',
  '\t',
  '1',
  'İ', // lower case "i̇": an ASCII i and a combining dot
  'K', // Kelvin sign: lower case "k"
  'ß',
  'Σ',
  'é',
  '\ud83d', // half a surrogate pair
  '中',
  'a'.repeat(STATUS_KEY_LETTERS - 2),
);
const value = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

describe('compactStatus', () => {
  test('the letters a-z of the lower-cased value, or "" past the longest key', () => {
    fc.assert(
      fc.property(value, (v) => {
        const letters = v.toLowerCase().replace(/[^a-z]/g, '');
        expect(compactStatus(v)).toBe(letters.length > STATUS_KEY_LETTERS ? '' : letters);
        expect(compactStatus(v, Number.POSITIVE_INFINITY)).toBe(letters);
      }),
      { numRuns: 2_000 },
    );
  });

  test('the longest key is a real one, and statuses map through the keys', () => {
    expect(STATUS_KEY_LETTERS).toBe('clienttransferprohibited'.length);
    expect(toRdapStatus('CLIENT_TRANSFER_PROHIBITED')).toBe('client transfer prohibited');
    expect(toRdapStatus('serverUpdateProhibited')).toBe('server update prohibited');
    expect(toRdapStatus('Delete Prohibited by Registrar')).toBe('client delete prohibited');
    expect(toRdapStatus(`ok${' '.repeat(300_000)}`)).toBe('active');
    expect(toRdapStatus(`clientHold${'x'.repeat(20)}`)).toBe(`clientHold${'x'.repeat(20)}`);
  });
});
