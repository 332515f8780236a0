/**
 * `parseDictionaryKeys` finds the keys of a valid dictionary in one pass over its commas when it
 * holds no string; it must give what the member pattern gives, on dictionaries made from the
 * whole RFC 8941 §3.2 grammar (strings with commas and escapes, inner lists, parameters,
 * whitespace).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseDictionaryKeys } from './structured-field.js';

/** The keys as the member pattern reads them (the implementation before the split). */
function keysByPattern(value: string): string[] | null {
  const KEY = '[a-z*][a-z0-9_\\-.*]*';
  const TOKEN = "[A-Za-z*][!#$%&'*+\\-.^_`|~0-9A-Za-z:/]*";
  const BARE = `(?:${TOKEN}|-?\\d{1,15}(?:\\.\\d{1,3})?|"(?:[ !#-\\[\\]-~]|\\\\["\\\\])*"|\\?[01])`;
  const PARAMS = `(?:; *${KEY}(?:=${BARE})?)*`;
  const INNER = `\\((?: *${BARE}${PARAMS}(?=[ )]))* *\\)${PARAMS}`;
  const VALUE = `(?:=(?:${INNER}|${BARE}${PARAMS})|${PARAMS})`;
  const text = value.replace(/^[ \t]+|[ \t]+$/g, '');
  if (!new RegExp(`^(?:${KEY}${VALUE}(?:[ \\t]*,[ \\t]*${KEY}${VALUE})*)?$`).test(text))
    return null;
  const next = new RegExp(`(${KEY})${VALUE}(?:[ \\t]*,[ \\t]*)?`, 'y');
  const keys: string[] = [];
  for (let m = next.exec(text); m; m = next.exec(text)) keys.push(m[1] as string);
  return keys;
}

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
/** Near misses too: what the pattern refuses must be refused. */
const anything = fc.string({
  unit: fc.constantFrom('a', 'b', '=', ',', ';', ' ', '"', '(', ')', '1', '?', '\\', '*', 'A'),
  maxLength: 16,
});

/**
 * Dictionaries without a string, read by the one pass over commas: keys of one character and
 * longer ones, members from a bare key to inner lists with parameters, runs of spaces and tabs.
 */
const noString = fc.oneof(
  fc.stringMatching(/^[A-Za-z*][a-z:/.]{0,3}$/),
  fc.integer({ min: -999, max: 999 }).map(String),
  fc.constantFrom('?1', '?0', '1.5', '*', 'a'),
);
const noStringParams = fc
  .array(fc.tuple(key, fc.option(noString, { nil: undefined })), { maxLength: 2 })
  .map((ps) =>
    ps
      .map(([k, v]) => `;${' '.repeat(k.length % 2)}${k}${v === undefined ? '' : `=${v}`}`)
      .join(''),
  );
const noStringMember = fc
  .tuple(
    fc.oneof(key, fc.constantFrom('a', '*', 'z')),
    fc.oneof(
      fc.constant(''),
      noStringParams,
      fc.tuple(noString, noStringParams).map(([b, p]) => `=${b}${p}`),
      fc
        .tuple(fc.array(noString, { maxLength: 3 }), noStringParams, fc.constantFrom('', ' ', '  '))
        .map(([items, p, sp]) => `=(${sp}${items.join(' ')}${sp})${p}`),
    ),
  )
  .map(([k, v]) => k + v);
const noStringGap = fc
  .tuple(fc.stringMatching(/^[ \t]{0,3}$/), fc.stringMatching(/^[ \t]{0,3}$/))
  .map(([before, after]) => `${before},${after}`);
const noStringDictionary = fc
  .tuple(
    fc.array(fc.tuple(noStringMember, noStringGap), { maxLength: 12 }),
    noStringMember,
    fc.stringMatching(/^[ \t]{0,2}$/),
  )
  .map(([pairs, last, pad]) => pad + pairs.map(([m, g]) => m + g).join('') + last + pad);

describe('parseDictionaryKeys', () => {
  test('the keys the member pattern finds, on dictionaries without a string', () => {
    fc.assert(
      fc.property(noStringDictionary, (text) => {
        expect(text).not.toContain('"');
        const keys = keysByPattern(text);
        expect(keys).not.toBeNull();
        expect(parseDictionaryKeys(text)).toEqual(keys);
      }),
      { numRuns: 20_000 },
    );
  });

  test('the keys the member pattern finds, on valid dictionaries and near misses', () => {
    fc.assert(
      fc.property(fc.oneof(dictionary, anything), (text) => {
        expect(parseDictionaryKeys(text)).toEqual(keysByPattern(text));
      }),
      { numRuns: 20_000 },
    );
  });

  test('the generated dictionaries are valid ones (the comparison above is not only of nulls)', () => {
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
