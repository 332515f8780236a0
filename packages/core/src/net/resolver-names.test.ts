/**
 * `normaliseQueryName`: its shortcut for plain names gives what the rules give
 * (`normaliseQueryNameByRules`), for any name
 * (RFC 1035 §2.3.4 sizes; lower case; no trailing dot; the root `.` is ``).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { normaliseQueryName, normaliseQueryNameByRules } from './resolver.js';

const refusedOr =
  (normalise: (name: string) => string) =>
  (name: string): string => {
    try {
      return normalise(name);
    } catch {
      return 'refused';
    }
  };
const outcome = refusedOr(normaliseQueryName);
const reference = refusedOr(normaliseQueryNameByRules);

describe('normaliseQueryName', () => {
  test('equals the rules for random names, plain or not', () => {
    const chars = fc.constantFrom(...'abz09-_.AZ é\t'.split(''));
    const label = (max: number) => fc.array(chars, { minLength: 0, maxLength: max });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(label(4), label(70)), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (labels, dot) => {
          const name = labels.map((l) => l.join('')).join('.') + (dot ? '.' : '');
          expect(outcome(name)).toBe(reference(name));
        },
      ),
      { numRuns: 5000 },
    );
  });

  test('sizes at the edges', () => {
    const label63 = 'a'.repeat(63);
    const name253 = [label63, label63, label63, 'b'.repeat(61)].join('.');
    expect(name253.length).toBe(253);
    for (const name of [
      name253,
      `${name253}.`,
      `${name253}c`,
      `${name253}c.`,
      `${label63}a.test`,
      'host1.bench.test',
      'HOST1.bench.test.',
      '.',
      '',
      'a..b',
    ]) {
      expect(outcome(name)).toBe(reference(name));
    }
  });
});
