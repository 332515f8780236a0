/**
 * Presentation rules, with the strings `dig +short` (BIND 9.18.49) printed for the same data
 * (see resolver-dig.test.ts for the live comparison when dig is installed).
 */
import { describe, expect, test } from 'vitest';
import { presentIPv6, presentName, presentUnknown, quoteString } from './resolver-present.js';

describe('presentIPv6 (inet_ntop)', () => {
  test.each([
    ['0:0:0:0:0:0:0:0', '::'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['::ffff:1.2.3.4', '::ffff:1.2.3.4'],
    ['::2:3', '::0.2.0.3'],
    ['1:0:0:2:0:0:0:3', '1:0:0:2::3'],
    ['fe80:0:0:0:0:0:0:0', 'fe80::'],
    ['2001:db8:0:0:1:0:0:0', '2001:db8:0:0:1::'],
    ['2001:DB8:0:1:0:0:0:1', '2001:db8:0:1::1'],
    ['2001:db8:1:0:1:1:1:1', '2001:db8:1:0:1:1:1:1'],
  ])('%s → %s', (input, expected) => {
    expect(presentIPv6(input)).toBe(expected);
  });
});

describe('presentName (dns_name_totext)', () => {
  test.each([
    ['example.test', 'example.test.'],
    ['example.test.', 'example.test.'],
    ['', '.'],
    ['.', '.'],
    ['_sip._tcp.example.test', '_sip._tcp.example.test.'],
    ['a b.test', 'a\\032b.test.'],
    ['semi;colon.test', 'semi\\;colon.test.'],
    ['at@dollar$.test', 'at\\@dollar\\$.test.'],
    ['john\\.doe.example.test', 'john\\.doe.example.test.'],
    ['caf\u00e9.test', 'caf\\195\\169.test.'],
  ])('%j → %s', (input, expected) => {
    expect(presentName(input)).toBe(expected);
  });
});

describe('quoteString (txt_totext)', () => {
  test.each([
    ['v=spf1 -all', '"v=spf1 -all"'],
    ['part "two"', '"part \\"two\\""'],
    ['back\\slash; semi @at $dollar (paren)', '"back\\\\slash; semi @at $dollar (paren)"'],
    ['tab\there', '"tab\\009here"'],
    ['caf\u00e9 \u2603', '"caf\\195\\169 \\226\\152\\131"'],
    ['', '""'],
  ])('%j → %s', (input, expected) => {
    expect(quoteString(Buffer.from(input, 'utf8'))).toBe(expected);
  });
});

test('unknown types use the RFC 3597 generic form', () => {
  expect(presentUnknown(Uint8Array.from([10, 0, 0, 1]))).toBe('\\# 4 0A000001');
  expect(presentUnknown(new Uint8Array())).toBe('\\# 0');
});

test('presentName: plain names and escaped specials', () => {
  expect(presentName('host1.bench.test')).toBe('host1.bench.test.');
  expect(presentName('a(b).test')).toBe('a\\(b\\).test.');
});
