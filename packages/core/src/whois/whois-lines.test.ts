import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  isCommentLine,
  isNameServerKey,
  Lines,
  normaliseKey,
  patternKeyValue,
  plainKeyValue,
} from './whois-lines.js';

describe('isNameServerKey', () => {
  test('numbered and plain name-server keys, and others', () => {
    for (const key of ['nserver', 'name server', 'name server 2', 'nserver2', 'nameserver 10']) {
      expect(isNameServerKey(key)).toBe(true);
    }
    // Only a trailing number goes ("nserver 2" → "nserver"); a digit elsewhere stays.
    for (const key of ['registrar', 'name', '2', 'name server x', '', 'n2server', 'nserver 2x']) {
      expect(isNameServerKey(key)).toBe(false);
    }
  });
});

describe('plainKeyValue', () => {
  // The one-pass reading of "Key: value" must answer what the patterns answer, or leave the
  // line to them: lines built from the characters that matter to either.
  const unit = fc.constantFrom(
    ...['a', 'Z', '7', ' ', ' ', '\t', ':', ':', '/', '.', '.', '#', '[', ']', '(', '-', '\u2028'],
    ...['*', '_', '\u00a0', 'é', 'ns1.example.com ', 'a. ', '\v', 'Ключ', '\u3000', '\ufeff'],
    ...['\u0085', '\u2029', '\u007f', '\ud83d', '\ude00', '\u00c0', '#. .', '# ', '#.', '[ '],
    ...['http', 'HTTPS', 'ftp', '12', '345678', 'x'.repeat(40)],
  );
  test('agrees with the patterns wherever it answers', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (raw) => {
        const content = raw.trim();
        const plain = plainKeyValue(content);
        if (plain === undefined) return;
        const pattern = patternKeyValue(content);
        const pair = (kv: typeof pattern | null) =>
          kv ? { key: kv.key, value: kv.value } : undefined;
        expect(pair(plain)).toEqual(pair(pattern));
        // What it saw of the key: words of ASCII letters and digits, lower case (1) or not (2),
        // or anything else (0); a key of words can read 0 when the line holds non-ASCII
        // whitespace (the slower reading of such a key gives the same).
        if (plain) {
          const words = /^[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/.test(plain.key);
          const form = words ? (/[A-Z]/.test(plain.key) ? 2 : 1) : 0;
          const ascii = [...content].every((ch) => ch.charCodeAt(0) < 0x80);
          if (plain.form !== 0 || ascii) expect(plain.form).toBe(form);
        }
      }),
      { numRuns: 20_000 },
    );
  });

  test('answers the usual lines, and leaves the rest', () => {
    expect(plainKeyValue('Domain Name: EXAMPLE.COM')).toEqual({
      key: 'Domain Name',
      value: 'EXAMPLE.COM',
      form: 2,
    });
    expect(plainKeyValue('Key  words   :  v ')).toEqual({ key: 'Key  words', value: 'v', form: 0 });
    expect(plainKeyValue('** Key_x-(y).: v')).toEqual({
      key: '** Key_x-(y).',
      value: 'v',
      form: 0,
    });
    const hostThenAddresses = 'ns1.example.com 192.0.2.1 2001:db8::1';
    for (const line of ['https://x', '12:30', `${'k'.repeat(81)}: v`, 'a..b: c', 'a: b\u2028c']) {
      expect(plainKeyValue(line)).toBeUndefined();
    }
    expect(plainKeyValue(hostThenAddresses)).toBeUndefined();
  });
});

describe('patternKeyValue', () => {
  /** The layouts' patterns tried in turn on every line, as before the tests in front of them. */
  const layouts = (content: string) => {
    const kv = (m: RegExpExecArray | null) =>
      m ? { key: m[1] as string, value: (m[2] as string).trim(), form: 3 } : undefined;
    const bracketed = kv(/^(?:[a-z](?:\.\s*|\s+))?\[([^\]]{1,60})\]\s*(.*)$/i.exec(content));
    if (bracketed) return bracketed;
    const dots = kv(/^([^:]{1,60}?)\s*\.{2,}\s*:\s*(.*)$/.exec(content));
    if (dots) return dots;
    const hash = kv(/^([^#:]{1,60}?)\s*#[ .]{2,}(.*)$/.exec(content));
    if (hash) return hash;
    const colon = /^([^:\t]{1,80}?)\s*:(?!\/\/)\s*(.*)$/.exec(content);
    const key = colon?.[1] as string;
    if (
      colon &&
      !/^(?:\d+|https?|ftp)$/i.test(key) &&
      !(key.includes('.') && /^[a-z0-9-]+(?:\.[a-z0-9-]+)+\.?\s/i.test(key))
    ) {
      return kv(colon);
    }
    const tabbed = /^([^\t]{1,40}?)\t+(.+)$/.exec(content);
    return tabbed && !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(tabbed[1] as string)
      ? kv(tabbed)
      : undefined;
  };
  const unit = fc.constantFrom(
    ...['a', 'Z', 'é', '7', ' ', '\t', '\u00a0', ':', '[', ']', '#', '.', '..', '. ', '//'],
    ...['a. [', 'b [', '[K', 'x'.repeat(30), '\u2028'],
  );
  test('is the layouts tried in turn', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (raw) => {
        const content = raw.trim();
        expect(patternKeyValue(content)).toEqual(layouts(content));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('Lines', () => {
  test('the lines split("\\n") gives, with where each starts and ends', () => {
    const unit = fc.constantFrom('a', 'Key: v', '\n', '\n', ' ', '\u2028', '');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (text) => {
        const lines = new Lines(text);
        const split = text.split('\n');
        expect(lines.length).toBe(split.length);
        split.forEach((line, i) => {
          expect(lines.at(i)).toBe(line);
          expect(text.slice(lines.start(i), lines.end(i))).toBe(line);
        });
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('isCommentLine', () => {
  /** The pattern alone, as it was used before the filter in front of it. */
  const COMMENT = /^(?:%|#|>>>|--|[-=_*~]{3,}$|\*.*\*$|\[ .* \]$|\[\s*\]$)/;
  const unit = fc.constantFrom(
    ...['%', '#', '>', '-', '=', '_', '*', '~', '[', ']', ' ', 'a', 'K', ':', '\u2028', '\t'],
  );
  test('is the pattern', () => {
    fc.assert(
      fc.property(fc.string({ unit, minLength: 1, maxLength: 10 }), (content) => {
        expect(isCommentLine(content)).toBe(COMMENT.test(content));
      }),
      { numRuns: 30_000 },
    );
  });
});

describe('normaliseKey', () => {
  /** What normaliseKey was written as: its one pass must give the same. */
  const chain = (key: string) =>
    key
      .toLowerCase()
      .replace(/\([^)]{0,40}\)/g, ' ')
      .replace(/^[\s*\-•>]+/, '')
      .replace(/[\s_-]+/g, ' ')
      .replace(/[.:\s]+$/, '')
      .replace(/ (?:on|at)$/, '')
      .trim();
  const unit = fc.constantFrom(
    ...['a', 'Z', '7', ' ', '\t', '\u00a0', '\u2028', '\ufeff', '_', '-', '*', '•', '>', '.', ':'],
    ...['(', ')', ' on', ' AT', 'İ', '\ud83d', '\ude00', 'x'.repeat(20), '(x)'],
  );
  test('is the chain of patterns it replaces', () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 16 }), (key) => {
        expect(normaliseKey(key)).toBe(chain(key));
      }),
      { numRuns: 30_000 },
    );
  });

  test('registry spellings', () => {
    expect(normaliseKey('** Domain Name')).toBe('domain name');
    expect(normaliseKey('Creation Date (dd/mm/yyyy)')).toBe('creation date');
    expect(normaliseKey('paid-till')).toBe('paid till');
    expect(normaliseKey('Expires on..:')).toBe('expires');
    expect(normaliseKey('Servidor(es) de Nombres')).toBe('servidor de nombres');
  });
});
