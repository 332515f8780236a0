/** The one AS-number grammar, used by the ASN search, RDAP resource lookups and the signal lists. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isAsnLike, MAX_ASN, parseAsn } from './as-number.js';

describe('parseAsn', () => {
  test.each([
    ['AS15169', 15169],
    ['as15169', 15169],
    ['As 15169', 15169],
    [' 15169 ', 15169],
    ['AS0', 0],
    ['AS4294967295', MAX_ASN],
    ['0013335', 13335],
  ])('%j → %d', (text, asn) => {
    expect(parseAsn(text)).toBe(asn);
    expect(isAsnLike(text)).toBe(true);
  });

  test.each([
    '',
    'AS',
    'ASN15169',
    'AS-15169',
    'AS  15169',
    '15169a',
    '1.5',
    'AS15169.1',
    'google',
  ])('%j is no AS number', (text) => {
    expect(parseAsn(text)).toBeUndefined();
    expect(isAsnLike(text)).toBe(false);
  });

  test('past 4294967295 it is written like one but is none (RFC 6793)', () => {
    expect(isAsnLike('AS4294967296')).toBe(true);
    expect(parseAsn('AS4294967296')).toBeUndefined();
    expect(parseAsn('99999999999999999999')).toBeUndefined();
  });

  test('every 32-bit number, in every spelling, reads back', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_ASN }),
        fc.constantFrom('', 'AS', 'as', 'AS '),
        (asn, prefix) => {
          expect(parseAsn(`${prefix}${asn}`)).toBe(asn);
        },
      ),
    );
  });
});
