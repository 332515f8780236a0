/**
 * The radix sorts of source-order.ts: plain words in `Intl.Collator('en')` order (as the
 * Observatory sorts CSP sources), any other words after them by code unit, consistently with
 * `compareSources`; and `sortCodeUnits` as `[...strings].sort()`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  compareSources,
  EXTENDS,
  endOfWord,
  inCodeUnitOrder,
  isOtherWhitespace,
  REPEAT,
  sortCodeUnits,
  sortSourceWords,
  wordEnd,
} from './source-order.js';

const collator = new Intl.Collator('en').compare;
const plainChars: string[] = [];
for (let code = 0x21; code <= 0x7e; code++) {
  if (code < 0x41 || code > 0x5a) plainChars.push(String.fromCharCode(code));
}

/**
 * The distinct words in source order, through the text the parser hands over; and that the
 * marks say which word repeats or extends the one before it.
 */
function sortWords(words: readonly string[], separator = ' '): string[] {
  const text = words.join(separator);
  const sorted = sortSourceWords(text);
  const { starts, marks } = sorted;
  const all = Array.from(starts, (start, i) => {
    const end = wordEnd(text, start);
    // The shortcuts (keys, texts of spaces only) end every word where the scan does.
    if (endOfWord(sorted, i) !== end) throw new Error(`endOfWord at ${start} of ${text}`);
    return text.slice(start, end);
  });
  all.forEach((word, i) => {
    const before = all[i - 1];
    const mark =
      before === undefined ? 0 : word === before ? REPEAT : word.startsWith(before) ? EXTENDS : 0;
    if (marks[i] !== mark)
      throw new Error(`mark ${marks[i]} for ${JSON.stringify([before, word])}`);
  });
  return all.filter((_, i) => marks[i] !== REPEAT);
}

const plainWord = fc.string({ unit: fc.constantFrom(...plainChars), minLength: 1, maxLength: 12 });
/** Few characters: long shared prefixes and many repeats. */
const narrowWord = fc.string({ unit: fc.constantFrom('a', 'b', '/'), minLength: 1, maxLength: 20 });
/** Any code units but whitespace (the parser splits words at it). */
const anyWord = fc
  .oneof(
    fc.string({ minLength: 1, maxLength: 6 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 5 }),
    fc.string({
      unit: fc.constantFrom('a', 'é', 'ä', '中', '\u0001', '\u007f', 'Z'),
      maxLength: 6,
    }),
  )
  .filter((w) => w.length > 0 && !/\s/.test(w));

describe('sortSourceWords', () => {
  test('plain words: collator order, each once', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(plainWord, narrowWord), { maxLength: 400 }), (words) => {
        expect(sortWords(words)).toEqual([...new Set(words)].sort(collator));
      }),
      { numRuns: 500 },
    );
  });

  test('words between spaces, tabs and other whitespace end where they end', () => {
    const separator = fc.constantFrom(' ', '  ', '\t', ' \n ', '\u00a0', '\u2003 ');
    fc.assert(
      fc.property(fc.array(fc.tuple(plainWord, separator), { maxLength: 200 }), (pairs) => {
        const words = pairs.map(([word]) => word);
        const text = pairs.map(([word, gap]) => word + gap).join('');
        const sorted = sortSourceWords(text);
        expect(sorted.spacesOnly).toBe(!/[^\S ]/.test(sorted.text));
        sorted.starts.forEach((start, i) => {
          expect(endOfWord(sorted, i)).toBe(wordEnd(sorted.text, start));
        });
        expect(sorted.starts.length).toBe(words.length);
      }),
      { numRuns: 300 },
    );
  });

  test('every plain word of one and two characters', () => {
    const all = [...plainChars, ...plainChars.flatMap((a) => plainChars.map((b) => a + b))];
    expect(sortWords([...all].reverse(), '\t\n')).toEqual(all.sort(collator));
  });

  test('any words: the order of compareSources, plain ones before the others', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyWord, plainWord), { maxLength: 300 }), (words) => {
        const sorted = sortWords(words);
        expect(sorted).toEqual([...new Set(words)].sort(compareSources));
        for (let i = 1; i < sorted.length; i++) {
          expect(compareSources(sorted[i - 1] as string, sorted[i] as string)).toBeLessThan(0);
        }
      }),
      { numRuns: 500 },
    );
    expect(compareSources('~', '\u0001')).toBeLessThan(0);
    expect(compareSources('z\u007f', 'é')).toBeLessThan(0);
    expect(compareSources('é', '中')).toBeLessThan(0);
  });

  test('words of one to six code units, ASCII or not at any place (the scan by fours)', () => {
    // The scan takes four code units at once when all are ASCII, whatever follows the word
    // (whitespace of any kind, the next word, the end of the text); otherwise one at a time.
    const unit = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('a', 'b', 'z', '0', '-', '/', ':', 'A', '\u0001') },
      fc.constantFrom('é', 'ä', '中', '\u007f', '\u0080', '\uffff'),
    );
    const word = fc.string({ unit, minLength: 1, maxLength: 6 });
    const separator = fc.constantFrom(' ', ' ', '  ', '\t', '\n', '\u00a0', '\u3000', ' \u2028');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, separator), { maxLength: 300 }),
        fc.constantFrom('', ' ', '\t'),
        (pairs, tail) => {
          const words = pairs.map(([w]) => w);
          const text = pairs.map(([w, gap], i) => w + (i < pairs.length - 1 ? gap : tail)).join('');
          // The words as the scan splits them: at whitespace outside ASCII too.
          const split = text.split(/\s+/).filter((w) => w !== '');
          expect(split).toEqual(words);
          const sorted = sortSourceWords(text);
          sorted.starts.forEach((start, i) => {
            expect(endOfWord(sorted, i)).toBe(wordEnd(sorted.text, start));
          });
          expect(sortWords(words, ' ')).toEqual([...new Set(words)].sort(compareSources));
        },
      ),
      { numRuns: 500 },
    );
  });

  test('thousands of words over many code units (sorted by high byte, then low)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }), {
          minLength: 2000,
          maxLength: 4000,
        }),
        (raw) => {
          const words = raw.filter((w) => !/\s/.test(w));
          expect(sortWords(words)).toEqual([...new Set(words)].sort(compareSources));
        },
      ),
      { numRuns: 10 },
    );
  });

  test('more words than the scratch arrays take (ASCII keys sorted by 14-bit halves)', () => {
    // Over 8,192 words of ASCII text, or of text with at most five code units outside ASCII
    // (every key byte below 128), are sorted by two 7-bit digits at a time; a half that all
    // keys share (words of one or two characters, or with the same first two) moves nothing.
    const few = fc.constantFrom('é', 'ä', '中', '\u0001', '\u007f');
    const word = fc.oneof(
      { weight: 4, arbitrary: plainWord },
      { weight: 2, arbitrary: narrowWord },
      fc.string({
        unit: fc.oneof(fc.constantFrom(...plainChars), few),
        minLength: 1,
        maxLength: 6,
      }),
      fc.string({ unit: fc.constantFrom('a', 'b', 'é'), minLength: 1, maxLength: 2 }),
    );
    const start = fc.constantFrom('', '', 'ab', 'https://', 'x');
    fc.assert(
      fc.property(
        start,
        fc.array(word, { minLength: 8193, maxLength: 9500 }),
        fc.array(word, { maxLength: 40 }),
        fc.constantFrom(' ', '\t', '  '),
        (shared, many, others, separator) => {
          const words = [...many.map((w) => shared + w), ...others];
          expect(sortWords(words, separator)).toEqual([...new Set(words)].sort(compareSources));
        },
      ),
      { numRuns: 25 },
    );
  });

  test('more words than the scratch arrays take: plain ones in collator order', () => {
    const short = fc.string({ unit: fc.constantFrom(...plainChars), minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(short, plainWord), { minLength: 8193, maxLength: 10_000 }),
        (words) => {
          expect(sortWords(words)).toEqual([...new Set(words)].sort(collator));
        },
      ),
      { numRuns: 15 },
    );
    // Every key the same in its low half (words of two characters at most), then in its high
    // half (words that share their first two characters).
    const pairs = plainChars.flatMap((a) => plainChars.map((b) => a + b));
    expect(sortWords([...pairs, ...plainChars].reverse())).toEqual(
      [...pairs, ...plainChars].sort(collator),
    );
    const tails = pairs.map((pair) => `ab${pair}`);
    expect(sortWords([...tails, 'ab'].reverse())).toEqual([...tails, 'ab'].sort(collator));
  });

  test('thousands of words of more than five code units outside ASCII (sorted by bytes)', () => {
    const wide = fc.constantFrom('é', 'ä', '中', 'ö', 'ü', 'ñ', 'ç', '\u0001');
    const word = fc.string({
      unit: fc.oneof(fc.constantFrom(...plainChars), wide),
      minLength: 1,
      maxLength: 5,
    });
    fc.assert(
      fc.property(fc.array(word, { minLength: 8193, maxLength: 9000 }), (words) => {
        expect(sortWords(words)).toEqual([...new Set(words)].sort(compareSources));
      }),
      { numRuns: 10 },
    );
  });

  test('endOfWord from the keys: words of any length, with 8- and 16-bit keys', () => {
    // Over 133 distinct code units outside ASCII make the keys 16-bit (two digits each).
    const wide = Array.from({ length: 300 }, (_, i) => String.fromCharCode(0x4e00 + i));
    const unit = fc.oneof(fc.constantFrom(...plainChars), fc.constantFrom(...wide));
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit, minLength: 1, maxLength: 30 }), { maxLength: 400 }),
        fc.boolean(),
        fc.constantFrom(' ', '  ', '\t'),
        (words, withWide, separator) => {
          const all = withWide ? [...words, ...wide] : words;
          // sortWords checks endOfWord against wordEnd for every word.
          expect(sortWords(all, separator)).toEqual([...new Set(all)].sort(compareSources));
        },
      ),
      { numRuns: 300 },
    );
  });

  test('long shared prefixes', () => {
    const long = 'x'.repeat(50_000);
    const words = [
      `${long}b`,
      `${long}a`,
      long,
      `${long}a`,
      ...Array.from({ length: 500 }, (_, i) => `https://www.example.com/a/long/path/${i}`),
    ];
    expect(sortWords(words)).toEqual([...new Set(words)].sort(collator));
  });
});

describe('isOtherWhitespace', () => {
  test('is /\\s/ on every code unit outside ASCII', () => {
    for (let u = 0x80; u <= 0xffff; u++) {
      expect(isOtherWhitespace(u), `U+${u.toString(16)}`).toBe(/\s/.test(String.fromCharCode(u)));
    }
  });
});

describe('inCodeUnitOrder', () => {
  test('lists in source order come out as the default sort orders them', () => {
    // Alphabets on which the two orders agree (letters and digits) and on which they do not
    // (":", "/", "'", capitals, controls), with code units outside ASCII.
    const unit = fc.constantFrom(..."ab09z-.:/*'A~", '\u0001', '\u007f', 'é', '中');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 16 }).chain((k) =>
          fc.uniqueArray(
            fc.string({
              unit: fc.constantFrom(..."ab09z-.:/*'A~".slice(0, k), 'é'),
              minLength: 1,
              maxLength: 6,
            }),
            { maxLength: 300 },
          ),
        ),
        fc.uniqueArray(fc.string({ unit, minLength: 1, maxLength: 6 }), { maxLength: 300 }),
        (some, any) => {
          for (const strings of [some, any]) {
            const expected = [...strings].sort();
            expect(inCodeUnitOrder([...strings].sort(compareSources))).toEqual(expected);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('sortCodeUnits', () => {
  test('as the default sort, for any distinct strings', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.oneof(anyWord, plainWord, fc.string({ maxLength: 4 })), {
          maxLength: 300,
        }),
        (strings) => {
          expect(sortCodeUnits(strings)).toEqual([...strings].sort());
        },
      ),
      { numRuns: 500 },
    );
    // Whitespace or empty strings: the default sort.
    expect(sortCodeUnits(['b', 'a c', ''])).toEqual(['', 'a c', 'b']);
  });
});
