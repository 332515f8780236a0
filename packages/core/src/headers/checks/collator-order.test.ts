/**
 * `collatorOrder` sorts as `Intl.Collator('en').compare` does (the Observatory's CSP source
 * order): every plain string of one and two characters, random sets of any characters, and
 * long shared prefixes (several rounds of the radix sort).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { collatorOrder } from './collator-order.js';

const compare = new Intl.Collator('en').compare;
const plainChars: string[] = [];
for (let code = 0x21; code <= 0x7e; code++) {
  if (code < 0x41 || code > 0x5a) plainChars.push(String.fromCharCode(code));
}

describe('collatorOrder', () => {
  test('every plain string of one and two characters, in collator order, no ties', () => {
    const all = [...plainChars, ...plainChars.flatMap((a) => plainChars.map((b) => a + b))];
    const { sorted, tied } = collatorOrder(all.reverse(), true);
    expect(sorted).toEqual([...all].sort(compare));
    expect(tied.size).toBe(0);
  });

  test('random sets of any characters: sorted, ties where the collator sees them', () => {
    const word = fc.oneof(
      fc.string({ unit: fc.constantFrom(...plainChars), minLength: 1, maxLength: 12 }),
      fc.string({ minLength: 1, maxLength: 6 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 60 }), (words) => {
        const { sorted, tied } = collatorOrder(words);
        expect(new Set(sorted)).toEqual(new Set(words));
        for (let i = 1; i < sorted.length; i++) {
          const order = compare(sorted[i - 1] as string, sorted[i] as string);
          expect(order).toBeLessThanOrEqual(0);
          expect(tied.has(i)).toBe(order === 0);
        }
      }),
      { numRuns: 1000 },
    );
  });

  test('long shared prefixes', () => {
    const words = [
      `${'x'.repeat(100_000)}b`,
      `${'x'.repeat(100_000)}a`,
      'x'.repeat(100_000),
      ...Array.from({ length: 500 }, (_, i) => `https://www.example.com/a/long/path/${i}`),
    ];
    expect(collatorOrder(words, true).sorted).toEqual([...words].sort(compare));
  });
});
