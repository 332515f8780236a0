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
        },
      ),
      { numRuns: 5_000 },
    );
  });
});
