/**
 * `parseDictionaryKeys` on dictionaries made from the RFC 8941 §3.2 grammar (strings with
 * commas and escapes, inner lists, parameters, whitespace), and on examples.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseDictionaryKeys } from './structured-field.js';

const key = fc.stringMatching(/^[a-z*][a-z0-9_.*-]{0,4}$/);
const bare = fc.oneof(
  fc.stringMatching(/^[A-Za-z*][a-z:/.]{0,3}$/),
  fc.integer({ min: -999, max: 999 }).map(String),
  fc.constantFrom('"a,b"', '"x\\"y"', '"\\\\"', '"self, none"', '""', '?1', '?0', '1.5'),
);
const params = fc
  .array(fc.tuple(key, fc.option(bare, { nil: undefined })), { maxLength: 2 })
  .map((ps) => ps.map(([k, v]) => `;${k}${v === undefined ? '' : `=${v}`}`).join(''));
const value = fc.oneof(
  params,
  fc.tuple(bare, params).map(([b, p]) => `=${b}${p}`),
  fc
    .tuple(fc.array(bare, { maxLength: 3 }), params)
    .map(([items, p]) => `=(${items.join(' ')})${p}`),
);
const member = fc.tuple(key, value).map(([k, v]) => k + v);
const gap = fc.constantFrom(',', ', ', ' ,', '\t,\t', ',  ');
const dictionary = fc
  .tuple(fc.array(fc.tuple(member, gap), { maxLength: 6 }), member, fc.constantFrom('', ' ', '\t'))
  .map(([pairs, last, pad]) => pad + pairs.map(([m, g]) => m + g).join('') + last + pad);
describe('parseDictionaryKeys', () => {
  test('valid dictionaries give their keys in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(member, gap), { maxLength: 6 }), member, (pairs, last) => {
        const members = [...pairs.map(([m]) => m), last];
        const text = pairs.map(([m, g]) => m + g).join('') + last;
        const keys = members.map((m) => /^[a-z*][a-z0-9_.*-]*/.exec(m)?.[0]);
        expect(parseDictionaryKeys(text)).toEqual(keys);
      }),
      { numRuns: 2_000 },
    );
  });

  test('the generated dictionaries are valid ones', () => {
    fc.assert(
      fc.property(dictionary, (text) => {
        expect(parseDictionaryKeys(text)).not.toBeNull();
      }),
      { numRuns: 2_000 },
    );
  });

  test('examples', () => {
    expect(
      parseDictionaryKeys('camera=(), geolocation=(self "https://a.example"), fullscreen=*'),
    ).toEqual(['camera', 'geolocation', 'fullscreen']);
    expect(parseDictionaryKeys('camera=(), geolocation=(self "https://a,b.example")')).toEqual([
      'camera',
      'geolocation',
    ]);
    expect(parseDictionaryKeys(' a, b;x=1 ,c=?0 ')).toEqual(['a', 'b', 'c']);
    expect(parseDictionaryKeys('')).toEqual([]);
    expect(parseDictionaryKeys('a,,b')).toBeNull();
    expect(parseDictionaryKeys('a,b,c')).toEqual(['a', 'b', 'c']);
    expect(parseDictionaryKeys('ab;c=d,\t*e.f_g-h=(i j);k , l=?1')).toEqual([
      'ab',
      '*e.f_g-h',
      'l',
    ]);
  });
});
