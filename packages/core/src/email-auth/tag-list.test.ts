import { describe, expect, test } from 'vitest';
import { parseTagList } from './tag-list.js';

describe('parseTagList', () => {
  test('names and values trimmed, empty segments skipped, malformed ones kept (RFC 6376 §3.2)', () => {
    expect(parseTagList(' v = DKIM1 ;; k=rsa;\tp= MIIB ; =x; 1a=b; junk ;')).toEqual({
      entries: [
        { name: 'v', value: 'DKIM1' },
        { name: 'k', value: 'rsa' },
        { name: 'p', value: 'MIIB' },
      ],
      malformed: ['=x', '1a=b', 'junk'],
      malformedCount: 3,
      truncated: false,
    });
    // Only the first "=" splits: a value may hold more.
    expect(parseTagList('a=b=c').entries).toEqual([{ name: 'a', value: 'b=c' }]);
  });

  test('past keepMalformed the malformed segments are only counted', () => {
    const list = parseTagList('x; y; a=1; z', 2);
    expect(list.malformed).toEqual(['x', 'y']);
    expect(list.malformedCount).toBe(3);
    expect(list.entries).toEqual([{ name: 'a', value: '1' }]);
  });

  test('past maxSegments the rest is not read, and the list says so', () => {
    expect(parseTagList('a=1; x; b=2', Number.POSITIVE_INFINITY, 2)).toMatchObject({
      entries: [{ name: 'a', value: '1' }],
      malformed: ['x'],
      truncated: true,
    });
    // Only separators and whitespace after the last one read: the list is whole.
    expect(parseTagList('a=1; x; ; \t', Number.POSITIVE_INFINITY, 2).truncated).toBe(false);
  });
});
