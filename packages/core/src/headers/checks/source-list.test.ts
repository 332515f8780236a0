import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { SourceList } from './source-list.js';
import { compareSources } from './source-order.js';

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
});
