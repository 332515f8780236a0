/**
 * `parseCsp` as the Observatory's `cspParser.js` behaves (its own cases are in
 * observatory-conformance.test.ts): splitting, lower-casing, sorting with `Intl.Collator('en')`,
 * the prefix rule, duplicates, several policies, and the limit on directives.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { InvalidInputError } from '../../errors.js';
import {
  MAX_DIRECTIVES,
  MAX_MERGED_SOURCES,
  MAX_SOURCES,
  parseCsp,
  parseCspMeta,
} from './csp-parser.js';

/** The sources of `directive`, in the order the parse gives them. */
const sources = (policies: string[], directive = 'img-src') => [
  ...(parseCsp(policies).directives.get(directive) ?? []),
];

describe('parseCsp: directives and sources', () => {
  test('line breaks are removed, CR alone and LF alone too', () => {
    expect(sources(['img-src a\rb'])).toEqual(['ab']);
    expect(sources(['img-src a\nb'])).toEqual(['ab']);
    expect(sources(['img-src a\r\nb; x-src\r c'], 'x-src')).toEqual(['c']);
  });

  test('sources split at any whitespace, as /\\s+/ does', () => {
    expect(sources(['img-src e\u00a0d\u3000c\u2028b\ufeffa\t\f\vz'])).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'z',
    ]);
  });

  test('names lower-cased, sources lower-cased word by word (Final_Sigma at each end)', () => {
    expect(sources(['IMG-SRC HTTPS://A.Example'])).toEqual(['https://a.example']);
    expect(sources(['img-src AΣ\ufeffB'])).toEqual(['aς', 'b']);
    expect(sources(['img-src AΣ\u3000B ΣΣ'])).toEqual(['aς', 'b', 'σς']);
  });

  test("a -src directive without sources is 'none'; another directive has none", () => {
    const { directives } = parseCsp(['img-src; upgrade-insecure-requests']);
    expect([...(directives.get('img-src') ?? [])]).toEqual(["'none'"]);
    expect([...(directives.get('upgrade-insecure-requests') ?? [])]).toEqual(["'none'"]);
  });

  test('parseCspMeta drops the header-only directives', () => {
    const { directives } = parseCspMeta([
      "default-src 'self'; report-uri /r; sandbox; frame-ancestors 'none'",
    ]);
    expect([...directives.keys()]).toEqual(['default-src']);
  });
});

describe('parseCsp: sorted with Intl.Collator("en"), non-ASCII included', () => {
  test('accented letters next to their base letter, Han after Latin', () => {
    expect(sources(['img-src f é e z a ä 中 b'])).toEqual([
      'a',
      'ä',
      'b',
      'e',
      'é',
      'f',
      'z',
      '中',
    ]);
  });

  test('any distinct sources that are no prefix of one another: the collator order', () => {
    const unit = fc.constantFrom(..."aAzé中ßø0-./:*'%".split(''), 'ä', 'İ', 'ǅ');
    const word = fc.string({ unit, minLength: 1, maxLength: 5 }).map((w) => w.toLocaleLowerCase());
    const collator = new Intl.Collator('en');
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 40 }), (words) => {
        const free = words.filter((w) => !words.some((o) => o !== w && w.startsWith(o)));
        // Distinct for the collator too: a tie keeps the order of appearance.
        const sorted = [...free].sort(collator.compare);
        if (sorted.some((w, i) => i > 0 && collator.compare(sorted[i - 1] as string, w) === 0))
          return;
        expect(sources([`img-src ${free.join(' ')}`])).toEqual(sorted);
      }),
      { numRuns: 2000 },
    );
  });

  test('a source that starts with the one before it in that order is dropped', () => {
    expect(
      sources(['img-src https://a.example/ä https://a.example/ https://a.example/äb']),
    ).toEqual(['https://a.example/']);
    // "httä" sorts before "http://a" (ä is an a), so "http://a" follows it and stays.
    expect(sources(["img-src 'self' htt httä http://a"])).toEqual(["'self'", 'htt', 'http://a']);
  });
});

describe('parseCsp: duplicates and several policies', () => {
  test('report-uri and report-to may repeat (a warning; the last wins), others may not', () => {
    const parsed = parseCsp(["default-src 'self'; report-uri /a; report-uri /b"]);
    expect([...(parsed.directives.get('report-uri') ?? [])]).toEqual(['/b']);
    expect([...parsed.duplicateWarnings]).toEqual(['report-uri']);
    expect(() => parseCsp(["script-src 'self'; SCRIPT-SRC 'none'"])).toThrow(
      'Duplicate directive script-src in policy 0',
    );
    expect(() => parseCsp(["img-src 'self'", 'img-src a; img-src b'])).toThrow(
      'Duplicate directive img-src in policy 1',
    );
  });

  test('a source survives a later policy only when that policy allows it', () => {
    expect(sources(['img-src a b c', 'img-src b c d'])).toEqual(['b', 'c']);
    // A path under an earlier policy's path is allowed by both.
    expect(sources(['img-src https://a.example/', 'img-src https://a.example/x'])).toEqual([
      'https://a.example/x',
    ]);
    // A directive that only a later policy has keeps nothing.
    expect(sources(["default-src 'self'", 'img-src a'])).toEqual(["'none'"]);
  });

  test('a malformed %-escape that meets another policy throws URIError, as upstream', () => {
    expect(() => parseCsp(['img-src https://a.example/%', 'img-src https://a.example/%'])).toThrow(
      URIError,
    );
  });

  test('a policy shorter than "img-src" less a letter is invalid', () => {
    expect(() => parseCsp(['a b'])).toThrow(InvalidInputError);
    expect(() => parseCsp(["img-src 'self'", ''])).toThrow('Invalid policy: ');
  });
});

describe('parseCsp: a limit on directives (a deliberate difference from upstream)', () => {
  const policy = (count: number) =>
    Array.from({ length: count }, (_, i) => `x${i.toString(36)}-src a`).join('; ');

  test(`up to ${MAX_DIRECTIVES} directives parse; one more is invalid`, () => {
    expect(parseCsp([policy(MAX_DIRECTIVES)]).directives.size).toBe(MAX_DIRECTIVES);
    expect(() => parseCsp([policy(MAX_DIRECTIVES + 1)])).toThrow(InvalidInputError);
    // Per policy: two policies of the limit each are fine.
    expect(parseCsp([policy(MAX_DIRECTIVES), policy(MAX_DIRECTIVES)]).directives.size).toBe(
      MAX_DIRECTIVES,
    );
    expect(() => parseCsp(["img-src 'self'", policy(MAX_DIRECTIVES + 1)])).toThrow(
      InvalidInputError,
    );
  });

  test('empty directives do not count', () => {
    const padded = `${policy(MAX_DIRECTIVES)}${' ;'.repeat(5000)}`;
    expect(parseCsp([padded]).directives.size).toBe(MAX_DIRECTIVES);
  });
});

describe('parseCsp: a limit on the merges of later policies (a deliberate difference)', () => {
  /** Two policies of `count` distinct img-src sources: the second merges 2 × count. */
  const twice = (count: number) => {
    const policy = `img-src ${Array.from({ length: count }, (_, i) => `${i.toString(36)}.`).join(' ')}`;
    return [policy, policy];
  };

  test(`up to ${MAX_SOURCES} sources in all the policies; more is invalid`, () => {
    expect(sources(twice(MAX_SOURCES / 2))).toHaveLength(MAX_SOURCES / 2);
    expect(() => parseCsp(twice(MAX_SOURCES / 2 + 1))).toThrow(`more than ${MAX_SOURCES} sources`);
    const one = `img-src ${Array.from({ length: MAX_SOURCES + 1 }, (_, i) => `${i}.`).join(' ')}`;
    expect(() => parseCsp([one])).toThrow(InvalidInputError);
  });

  test(`up to ${MAX_MERGED_SOURCES} sources merged; each later policy, and each repeat of a directive in one, merges again`, () => {
    // Two policies of the same 500 sources merge 1,000 and leave 500 (a source allowed by both
    // is kept once); each "img-src x" after them merges those 500 and its one.
    const sources500 = Array.from({ length: 500 }, (_, i) => `${i.toString(36)}.`).join(' ');
    const times = Math.floor((MAX_MERGED_SOURCES - 1000) / 501) + 1;
    const fewer = Array.from({ length: times - 1 }, () => 'img-src x');
    expect(() =>
      parseCsp([`img-src ${sources500}`, `img-src ${sources500}`, ...fewer]),
    ).not.toThrow();
    const later = Array.from({ length: times }, () => 'img-src x');
    expect(() => parseCsp([`img-src ${sources500}`, `img-src ${sources500}`, ...later])).toThrow(
      'sources to merge',
    );
    const first = `report-uri ${sources500}`;
    const repeated = `${first}${'; report-uri x'.repeat(times)}`;
    expect(() => parseCsp([first, repeated])).toThrow('sources to merge');
  });

  test('policies people write are far from it', () => {
    // A header and a <meta> policy of 30 directives of 20 hosts each.
    const policy = Array.from(
      { length: 30 },
      (_, d) =>
        `x${d}-src ${Array.from({ length: 20 }, (_, i) => `https://h${i}.example`).join(' ')}`,
    ).join('; ');
    expect(parseCsp([policy, policy]).directives.size).toBe(30);
    // A whole 16 KiB header of 8-byte sources ("a.b.com") stays under MAX_SOURCES.
    const short = Array.from(
      { length: 16 * 1024 },
      (_, i) => `${i.toString(36).padStart(3, 'a')}.b.io`,
    );
    let header = 'img-src';
    for (const source of short) {
      if (header.length + source.length + 1 > 16 * 1024) break;
      header += ` ${source}`;
    }
    expect(parseCsp([header]).directives.get('img-src')?.size).toBeGreaterThan(1500);
  });
});
