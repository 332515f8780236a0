import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { causesLookup, parseSpfRecord, parseTerm, selectSpfRecords } from './record.js';

describe('selectSpfRecords (RFC 7208 §4.5)', () => {
  test.each([
    [['v=spf1 -all'], 1],
    [['V=SpF1 ~all'], 1],
    [['v=spf1'], 1],
    [['v=spf10 mx'], 0],
    [['v=spf1mx'], 0],
    [['spf2.0/pra -all'], 0],
    [['google-site-verification=abc', 'v=spf1 mx -all'], 1],
    [['v=spf1 -all', 'v=spf1 +all'], 2],
  ])('%j → %i record(s)', (texts, count) => {
    expect(selectSpfRecords(texts)).toHaveLength(count);
  });
});

describe('parseTerm: mechanisms (RFC 7208 §5)', () => {
  test.each([
    ['all', { name: 'all', qualifier: '+' }],
    ['-all', { name: 'all', qualifier: '-' }],
    ['~ALL', { name: 'all', qualifier: '~' }],
    ['include:_spf.example.com', { name: 'include', domainSpec: '_spf.example.com' }],
    ['a', { name: 'a' }],
    ['a/24', { name: 'a', cidr4: 24 }],
    ['a//64', { name: 'a', cidr6: 64 }],
    [
      'a:mail.example.com/24//64',
      { name: 'a', domainSpec: 'mail.example.com', cidr4: 24, cidr6: 64 },
    ],
    ['a:foo:bar/baz.example.com', { name: 'a', domainSpec: 'foo:bar/baz.example.com' }],
    ['mx:foo.example.com/24', { name: 'mx', domainSpec: 'foo.example.com', cidr4: 24 }],
    ['mx//0', { name: 'mx', cidr6: 0 }],
    ['ptr', { name: 'ptr' }],
    ['?ptr:example.com', { name: 'ptr', qualifier: '?', domainSpec: 'example.com' }],
    ['ip4:192.0.2.0/24', { name: 'ip4', network: '192.0.2.0', cidr4: 24 }],
    ['ip4:192.0.2.1', { name: 'ip4', network: '192.0.2.1' }],
    ['ip6:2001:db8::/32', { name: 'ip6', network: '2001:db8::', cidr6: 32 }],
    ['ip6:::1.1.1.1/0', { name: 'ip6', network: '::1.1.1.1', cidr6: 0 }],
    ['exists:%{ir}.%{l1r+-}._spf.%{d}', { name: 'exists', domainSpec: '%{ir}.%{l1r+-}._spf.%{d}' }],
    ['a:foo.example.xn--zckzah', { name: 'a', domainSpec: 'foo.example.xn--zckzah' }],
  ])('%s', (text, expected) => {
    const term = parseTerm(text);
    expect(term).toMatchObject({ kind: 'mechanism', text, ...expected });
  });

  test.each([
    ['all.', 'takes no argument'],
    ['-all:foobar', 'takes no argument'],
    ['-all/8', 'takes no argument'],
    ['ptr/0', 'ptr'],
    ['ptr:', 'empty'],
    ['a:', 'expected a'],
    ['a/33', 'over 32'],
    ['a//129', 'over 128'],
    ['a/24/64', 'expected a'],
    ['a/032', 'leading zeros'],
    ['a:museum', 'not a fully qualified'],
    ['a:museum.', 'not a fully qualified'],
    ['a:111.222.33.44', 'top-level label'],
    ['a:abc.123', 'top-level label'],
    ['a:example.-com', 'top-level label'],
    ['a:example.com:8080', 'top-level label'],
    ['a:foo-bar', 'not a fully qualified'],
    ['a:foo.example.com\0', 'U+0000'],
    ['mx:abc.123', 'top-level label'],
    ['include', 'needs ":domain"'],
    ['include:', 'empty'],
    ['include:ip5.example.com/24', 'top-level label'],
    ['exists', 'needs ":domain"'],
    ['exists:mail.example.com/24', 'top-level label'],
    ['ip4', 'expected ip4'],
    ['ip4:1.2.3', 'expected ip4'],
    ['ip4:1.2.3.4:8080', 'expected ip4'],
    ['ip4:1.2.3.4//32', 'expected ip4'],
    ['ip4:1.2.3.4/33', 'over 32'],
    ['ip4:1.2.3.4/032', 'expected ip4'],
    ['ip4:01.2.3.4', 'expected ip4'],
    ['ip4:256.2.3.4', 'expected ip4'],
    ['ip6', 'expected ip6'],
    ['ip6:::1.1.1.1/129', 'over 128'],
    ['ip6:::1.1.1.1//33', 'expected ip6'],
    ['ip6::CAFE::BABE', 'expected ip6'],
    ['ip:192.0.2.1', 'did you mean ip4'],
    ['redirect:example.com', 'is a modifier'],
    ['moo', 'not a known mechanism'],
    ['\u0080a:example.net', 'not a known mechanism'],
    ['exists:%(ir).sbl.example.com', 'is not a macro'],
    ['exists:foo%.sbl.example.com', 'is not a macro'],
    ['a:%{d0}.example.com', 'nonzero'],
    ['a:%{c}.example.com', 'outside an explanation'],
  ])('%j is a syntax error (%s)', (text, message) => {
    const term = parseTerm(text);
    expect(term).toMatchObject({ term: text });
    expect((term as { message: string }).message).toContain(message);
  });
});

describe('parseTerm: modifiers (RFC 7208 §6, appendix A)', () => {
  test.each([
    ['redirect=_spf.example.com', 'redirect'],
    ['REDIRECT=_spf.example.com', 'redirect'],
    ['exp=explain._spf.%{d}', 'exp'],
    ['moo.cow-far_out=man:dog/cat', 'moo.cow-far_out'],
    ['default=pass', 'default'],
    ['foo=', 'foo'],
  ])('%s', (text, name) => {
    expect(parseTerm(text)).toMatchObject({ kind: 'modifier', name });
  });

  test.each([
    ['exp=', 'empty'],
    ['redirect=', 'empty'],
    ['exp=-all', 'not a fully qualified'],
    ['redirect=-all', 'not a fully qualified'],
    ['exp=%{r}.example.com', 'outside an explanation'],
    ['foo=%abc', 'not a macro'],
    ['1up=foo', 'not a known mechanism'],
    ['=all', 'not a known mechanism'],
    ['moo.cow/far_out=man:dog/cat', 'not a known mechanism'],
  ])('%j is a syntax error', (text, message) => {
    expect((parseTerm(text) as { message: string }).message).toContain(message);
  });
});

describe('parseSpfRecord', () => {
  test('past 50 syntax errors the rest is not read (one error already makes it a permerror)', () => {
    const bad = Array.from({ length: 70 }, (_, i) => `bad${i}%`);
    const parsed = parseSpfRecord(`v=spf1 a ${bad.join(' ')} ~all`);
    expect(parsed.errors).toHaveLength(51);
    expect(parsed.errors.slice(0, 50).map((e) => e.term)).toEqual(bad.slice(0, 50));
    expect(parsed.errors.at(-1)?.message).toMatch(/^the rest of the record was not read/);
    expect(parsed.terms.map((t) => t.text)).toEqual(['a']);
    expect(parsed.hasAll).toBe(false);
    // Exactly 50 at the end: all listed, nothing left unread to report.
    const fifty = parseSpfRecord(`v=spf1 ${bad.slice(0, 50).join(' ')}  `);
    expect(fifty.errors).toHaveLength(50);
    // Fewer: every term is read as before.
    const few = parseSpfRecord(`v=spf1 ${bad.slice(0, 3).join(' ')} -all`);
    expect(few.errors).toHaveLength(3);
    expect(few.hasAll).toBe(true);
  });

  test('collects every term, the modifiers and the all flag', () => {
    const parsed = parseSpfRecord(
      'v=spf1 ip4:192.0.2.0/24  include:_spf.example.com ~all exp=why.example.com',
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.terms.map((t) => t.text)).toEqual([
      'ip4:192.0.2.0/24',
      'include:_spf.example.com',
      '~all',
      'exp=why.example.com',
    ]);
    expect(parsed.hasAll).toBe(true);
    expect(parsed.exp?.value).toBe('why.example.com');
    expect(parsed.redirect).toBeUndefined();
  });

  test.each([
    ['v=spf1 ip4:1.2.3.4 -all moo', 'moo'],
    ['v=spf1 exp=a.example.com -all exp=b.example.com', 'exp=b.example.com'],
    ['v=spf1 redirect=a.example.com -all redirect=a.example.com', 'redirect=a.example.com'],
    ['v=spf1 a:ctrl.example.com\rptr -all', 'a:ctrl.example.com\rptr'],
    ['v=spf1 a:example.net \u0096all', '\u0096all'],
    ['v=spf1\ta -all', 'v=spf1\ta'],
  ])('%j has an error at %j', (record, term) => {
    expect(parseSpfRecord(record).errors[0]?.term).toBe(term);
  });

  test('the empty record is valid (RFC 7208 §4.7 default neutral)', () => {
    expect(parseSpfRecord('v=spf1')).toMatchObject({ terms: [], errors: [] });
  });

  test.each([
    ['include:x.example.com', true],
    ['a', true],
    ['mx', true],
    ['ptr', true],
    ['exists:x.example.com', true],
    ['redirect=x.example.com', true],
    ['ip4:192.0.2.1', false],
    ['ip6:2001:db8::1', false],
    ['-all', false],
    ['exp=x.example.com', false],
    ['foo=bar', false],
  ])('causesLookup(%s) = %s (RFC 7208 §4.6.4)', (text, expected) => {
    const term = parseTerm(text);
    if ('message' in term) throw new Error(term.message);
    expect(causesLookup(term)).toBe(expected);
  });
});

describe('parseSpfRecord: terms are what runs of spaces separate', () => {
  test('each term parsed alone, in order, whatever the spacing (RFC 7208 §4.6.1)', () => {
    const term = fc.oneof(
      fc.constantFrom('a', 'mx', '-all', '~all', 'ptr', 'ip4:192.0.2.1', 'ip6:::1', 'x=y'),
      // Not redirect= or exp=: a second one is an error of the record, not of the term.
      fc.constantFrom('include:c.example', 'bad%', 'ip4:1', 'ip6:1::2::3'),
      fc.string({ unit: fc.constantFrom('a', 'x', ':', '=', '%', '.', '1', '/'), minLength: 1 }),
    );
    const gap = fc.constantFrom(' ', '  ', '   ');
    fc.assert(
      fc.property(fc.array(fc.tuple(term, gap), { maxLength: 30 }), gap, (pairs, lead) => {
        const record = `v=spf1${lead}${pairs.map(([t, g]) => t + g).join('')}`;
        const parsed = parseSpfRecord(record);
        const expected = pairs.map(([t]) => parseTerm(t));
        const terms = expected.filter((p) => !('message' in p));
        expect(parsed.terms.map((t) => t.text)).toEqual(
          terms.map((t) => ('text' in t ? t.text : '')),
        );
        const errors = expected.filter((p) => 'message' in p).map((p) => p.term);
        expect(parsed.errors.map((e) => e.term).slice(0, errors.length)).toEqual(errors);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('parseTerm: mechanism names (RFC 7208 §4.6.1)', () => {
  const NAMES = ['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists'];
  test('a mechanism name in any case is one of the eight, anything else is unknown (§4.6.1)', () => {
    const letter = fc.constantFrom(...'aAlLiInNcCuUdDeEmMxXpPtTrR46sSzZ'.split(''));
    const name = fc.oneof(
      fc
        .constantFrom(...NAMES)
        .chain((n) =>
          fc
            .array(fc.boolean(), { minLength: n.length, maxLength: n.length })
            .map((up) => [...n].map((ch, i) => (up[i] ? ch.toUpperCase() : ch)).join('')),
        ),
      fc.string({ unit: letter, minLength: 1, maxLength: 8 }),
    );
    fc.assert(
      fc.property(name, (token) => {
        // Letters first: no digit can start a name, and "4"/"6" only end ip4/ip6.
        fc.pre(/^[a-z]/i.test(token));
        const parsed = parseTerm(token);
        const lower = token.toLowerCase();
        if (!NAMES.includes(lower)) {
          expect(parsed).toMatchObject({
            message: expect.stringContaining('not a known mechanism'),
          });
        } else if (
          lower === 'include' ||
          lower === 'exists' ||
          lower === 'ip4' ||
          lower === 'ip6'
        ) {
          // These need an argument: an error about it, not an unknown name.
          expect('message' in parsed && parsed.message).not.toContain('not a known mechanism');
        } else {
          expect(parsed).toMatchObject({ kind: 'mechanism', name: lower });
        }
      }),
      { numRuns: 20_000 },
    );
  });
});
