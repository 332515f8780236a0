/**
 * The linear clean-ups give exactly what the regular expressions they replace gave (issue 20
 * item 1), on random text made of the characters those patterns care about, and stay fast on
 * the runs that made the patterns quadratic.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { cutDashTail, replaceUpTo, stripTrailing } from './linear-text.js';

const text = fc
  .array(
    fc.constantFrom(
      ' ',
      '  ',
      '\t',
      '\u00a0',
      '\u2028',
      '-',
      '.',
      '/',
      '(',
      ')',
      '[',
      ']',
      'a',
      'x y',
    ),
    {
      maxLength: 30,
    },
  )
  .map((parts) => parts.join(''));

describe('linear-text', () => {
  test('stripTrailing is /char+$/', () => {
    fc.assert(
      fc.property(text, fc.constantFrom('.', '/', ' '), (s, char) => {
        const pattern = new RegExp(`${char === '.' ? '\\.' : char}+$`);
        expect(stripTrailing(s, char)).toBe(s.replace(pattern, ''));
      }),
      { numRuns: 2000 },
    );
  });

  test('cutDashTail is /\\s+-(?:\\s+.*)?$/', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(cutDashTail(s)).toBe(s.replace(/\s+-(?:\s+.*)?$/, ''));
      }),
      { numRuns: 5000 },
    );
  });

  test('replaceUpTo gives the whole replacement, with `\\s*` written as (?:(?<!\\s)\\s+)?', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(replaceUpTo(s, ')', /(?:(?<!\s)\s+)?\([^)]*\)\s*/g, ' ', true)).toBe(
          s.replace(/\s*\([^)]*\)\s*/g, ' '),
        );
        expect(replaceUpTo(s, ']', /(?:(?<!\s)\s+)?\[[^\]]*\]/g, '')).toBe(
          s.replace(/\s*\[[^\]]*\]/g, ''),
        );
      }),
      { numRuns: 5000 },
    );
  });

  test('runs of 256 KiB take milliseconds, not minutes', () => {
    const spaces = `a${' '.repeat(256 * 1024)}b`;
    const t0 = performance.now();
    cutDashTail(spaces);
    stripTrailing(`a${'.'.repeat(256 * 1024)}b`, '.');
    replaceUpTo(`${'('.repeat(256 * 1024)})`, ')', /(?:(?<!\s)\s+)?\([^)]*\)\s*/g, ' ', true);
    replaceUpTo(spaces, ']', /(?:(?<!\s)\s+)?\[[^\]]*\]/g, '');
    expect(performance.now() - t0).toBeLessThan(500);
  });
});
