/**
 * `parseTagList` reads segments in place; it must give what splitting, trimming and testing each
 * segment gave (the implementation before), on text made of what matters to it: separators,
 * "=", names, and whitespace that `trim` removes or keeps.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseTagList } from './tag-list.js';

function bySplit(text: string) {
  const entries: { name: string; value: string }[] = [];
  const malformed: string[] = [];
  for (const segment of text.split(';')) {
    const trimmed = segment.trim();
    if (trimmed === '') continue;
    const eq = trimmed.indexOf('=');
    const name = eq === -1 ? '' : trimmed.slice(0, eq).trim();
    if (eq === -1 || !/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
      malformed.push(trimmed);
      continue;
    }
    entries.push({ name, value: trimmed.slice(eq + 1).trim() });
  }
  return { entries, malformed };
}

const unit = fc.constantFrom(
  ...[';', ';', '=', '=', ' ', '\t', '\r\n', '\u00a0', '\ufeff', '\u2028', '\u200b', '\u0085'],
  ...['v', 'p', 'B', '1', '_', '-', 'x=y', 'rua', 'mailto:a@b'],
);

describe('parseTagList', () => {
  test('the entries and malformed segments that split-and-trim gave', () => {
    fc.assert(
      fc.property(
        fc.string({ unit, maxLength: 16 }),
        fc.integer({ min: 0, max: 3 }),
        (text, keep) => {
          const expected = bySplit(text);
          const all = parseTagList(text);
          expect(all).toEqual({
            ...expected,
            malformedCount: expected.malformed.length,
            truncated: false,
          });
          // The first `keep` segments, and whether there were more.
          const count = expected.entries.length + expected.malformed.length;
          const first = parseTagList(text, Number.POSITIVE_INFINITY, keep);
          expect(first.entries.length + first.malformedCount).toBe(Math.min(keep, count));
          expect(first.truncated).toBe(count > keep);
          const some = parseTagList(text, keep);
          expect(some.entries).toEqual(expected.entries);
          expect(some.malformed).toEqual(expected.malformed.slice(0, keep));
          expect(some.malformedCount).toBe(expected.malformed.length);
        },
      ),
      { numRuns: 30_000 },
    );
  });
});
