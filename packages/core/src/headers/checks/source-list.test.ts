import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { SourceList } from './source-list.js';
import {
  compareSources,
  compareWordWith,
  REPEAT,
  sortSourceWords,
  wordSpans,
  wordStrings,
} from './source-order.js';

describe('SourceList behaves as a Set of its sources', () => {
  test('has, delete, size and iteration agree with a Set on random lists and operations', () => {
    const source = fc.oneof(
      fc.constantFrom(
        "'self'",
        "'none'",
        "'unsafe-inline'",
        'https:',
        '*',
        'data:',
        'é',
        'a\u0001',
      ),
      fc.string({ minLength: 1, maxLength: 6 }),
    );
    const op = fc.tuple(fc.constantFrom('has', 'delete'), source);
    fc.assert(
      fc.property(
        fc.array(source, { maxLength: 40 }),
        fc.array(op, { maxLength: 30 }),
        (raw, ops) => {
          const sorted = [...raw].sort(compareSources);
          const list = new SourceList(sorted);
          const set = new Set(sorted);
          expect([...list]).toEqual([...set]);
          for (const [name, value] of ops) {
            expect(list[name](value)).toBe(set[name](value));
            expect(list.size).toBe(set.size);
          }
          expect([...list]).toEqual([...set]);
          expect(list.toArray()).toEqual([...set]);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  test('hasPrefix agrees with a test of every source left, after any deletions', () => {
    // Prefixes of the sources themselves, and near misses, over a small alphabet so that many
    // sources share starts (and deleted ones sit between those that are left).
    const unit = fc.constantFrom('a', 'b', "'", ':', '/', '*', 'é', 'A', '\u0001');
    const source = fc.string({ unit, minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(source, { maxLength: 40 }),
        fc.array(source, { maxLength: 10 }),
        fc.array(fc.string({ unit, maxLength: 4 }), { maxLength: 12 }),
        (raw, deleted, prefixes) => {
          const sorted = [...raw].sort(compareSources);
          // One source alone is held as a string: both forms.
          const list = new SourceList(sorted.length === 1 ? (sorted[0] as string) : sorted);
          for (const source of deleted) list.delete(source);
          const left = [...list];
          for (const prefix of [...prefixes, ...raw.map((s) => s.slice(0, 2))]) {
            expect(list.hasPrefix(prefix)).toBe(left.some((s) => s.startsWith(prefix)));
          }
        },
      ),
      { numRuns: 5_000 },
    );
  });

  test('a list of the words of a text answers as the list of those words as strings', () => {
    // Words over an alphabet with the grammar's punctuation, capitals, non-ASCII letters and a
    // control character; texts between every kind of whitespace; questions with whitespace in
    // them too (no word has any: never found, never a prefix across a word's end).
    const unit = fc.constantFrom('a', 'b', "'", ':', '/', '*', 'é', '中', '\u0001', '-');
    const word = fc.string({ unit, minLength: 1, maxLength: 5 });
    const space = fc.constantFrom(' ', '  ', '\t', '\n ', '\u00a0', '\u2003');
    const question = fc.oneof(
      word,
      fc.string({ unit, maxLength: 3 }),
      fc.constantFrom('a b', 'a ', ''),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, space), { minLength: 1, maxLength: 60 }),
        fc.array(fc.tuple(fc.constantFrom('has', 'delete', 'hasPrefix'), question), {
          maxLength: 30,
        }),
        (pieces, ops) => {
          const sorted = sortSourceWords(pieces.map(([w, s]) => w + s).join(''));
          const strings = wordStrings(sorted, 1 << REPEAT);
          const words = SourceList.ofWords(sorted.text, wordSpans(sorted, 1 << REPEAT));
          const list = new SourceList(strings, true);
          expect(words.toArray()).toEqual(strings);
          for (const [name, value] of ops) {
            expect(words[name](value)).toBe(list[name](value));
            expect(words.size).toBe(list.size);
          }
          expect([...words]).toEqual([...list]);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  test('compareWordWith orders a word of a text as compareSources orders it as a string', () => {
    const unit = fc.constantFrom('a', 'b', "'", ':', '/', 'é', '中', '\u0001', 'A');
    const word = fc.string({ unit, minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(word, fc.string({ unit, maxLength: 5 }), word, (a, b, after) => {
        const text = `x ${a}\t${after}`;
        expect(Math.sign(compareWordWith(text, 2, b))).toBe(Math.sign(compareSources(a, b)));
      }),
      { numRuns: 20_000 },
    );
  });
});
