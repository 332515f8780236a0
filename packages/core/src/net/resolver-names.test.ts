/**
 * `normaliseQueryName`: RFC 1035 §2.3.4 sizes; lower case; no trailing dot; the root `.` is ``.
 */
import { describe, expect, test } from 'vitest';
import { normaliseQueryName } from './resolver.js';

const outcome = (name: string): string => {
  try {
    return normaliseQueryName(name);
  } catch {
    return 'refused';
  }
};

describe('normaliseQueryName', () => {
  test('sizes at the edges', () => {
    const label63 = 'a'.repeat(63);
    const name253 = [label63, label63, label63, 'b'.repeat(61)].join('.');
    expect(name253.length).toBe(253);
    const cases: [string, string][] = [
      [name253, name253],
      [`${name253}.`, name253],
      [`${name253}c`, 'refused'],
      [`${name253}c.`, 'refused'],
      [`${label63}a.test`, 'refused'],
      ['host1.bench.test', 'host1.bench.test'],
      ['HOST1.bench.test.', 'host1.bench.test'],
      [' Mixed.Case.TEST ', 'mixed.case.test'],
      ['.', ''],
      ['', 'refused'],
      ['a..b', 'refused'],
    ];
    for (const [name, expected] of cases) expect(outcome(name)).toBe(expected);
  });
});
