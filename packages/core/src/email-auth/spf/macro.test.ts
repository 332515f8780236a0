import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  checkDomainSpec,
  EXPLAIN_MACRO_LETTERS,
  expandTokens,
  isQueryableName,
  type MacroContext,
  macroStringError,
  parseMacroString,
  toTargetName,
} from './macro.js';

/** The example context of RFC 7208 §7.4: strong-bad@email.example.com from 192.0.2.3. */
const rfcContext: MacroContext = {
  sender: 'strong-bad@email.example.com',
  local: 'strong-bad',
  senderDomain: 'email.example.com',
  domain: 'email.example.com',
  ipDotted: '192.0.2.3',
  ipText: '192.0.2.3',
  ipVersionLabel: 'in-addr',
  helo: 'mx.example.org',
  receiver: 'mx.receiver.test',
  timestamp: 1_700_000_000,
  validatedName: async () => 'mx.example.org',
};

const ipv6Context: MacroContext = {
  ...rfcContext,
  ipDotted: '2.0.0.1.0.d.b.8.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.c.b.0.1',
  ipText: '2001:db8::cb01',
  ipVersionLabel: 'ip6',
};

async function expand(text: string, ctx = rfcContext, letters?: string) {
  const parsed = parseMacroString(text, {
    allowSpace: letters !== undefined,
    ...(letters ? { letters } : {}),
  });
  if (!parsed.ok) throw new Error(parsed.error);
  return expandTokens(parsed.tokens, ctx);
}

describe('macro expansion: the examples of RFC 7208 §7.4', () => {
  test.each([
    ['%{s}', 'strong-bad@email.example.com'],
    ['%{o}', 'email.example.com'],
    ['%{d}', 'email.example.com'],
    ['%{d4}', 'email.example.com'],
    ['%{d3}', 'email.example.com'],
    ['%{d2}', 'example.com'],
    ['%{d1}', 'com'],
    ['%{dr}', 'com.example.email'],
    ['%{d2r}', 'example.email'],
    ['%{l}', 'strong-bad'],
    ['%{l-}', 'strong.bad'],
    ['%{lr}', 'strong-bad'],
    ['%{lr-}', 'bad.strong'],
    ['%{l1r-}', 'strong'],
    ['%{ir}.%{v}._spf.%{d2}', '3.2.0.192.in-addr._spf.example.com'],
    ['%{lr-}.lp._spf.%{d2}', 'bad.strong.lp._spf.example.com'],
    ['%{lr-}.lp.%{ir}.%{v}._spf.%{d2}', 'bad.strong.lp.3.2.0.192.in-addr._spf.example.com'],
    ['%{ir}.%{v}.%{l1r-}.lp._spf.%{d2}', '3.2.0.192.in-addr.strong.lp._spf.example.com'],
    ['%{d2}.trusted-domains.example.net', 'example.com.trusted-domains.example.net'],
  ])('%s → %s', async (macro, expected) => {
    expect(await expand(macro)).toBe(expected);
  });

  test('IPv6: %{ir}.%{v}._spf.%{d2}', async () => {
    expect(await expand('%{ir}.%{v}._spf.%{d2}', ipv6Context)).toBe(
      '1.0.b.c.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6._spf.example.com',
    );
  });
});

describe('macro expansion: other rules of RFC 7208 §7', () => {
  test.each([
    ['%%', '%'],
    ['%_', ' '],
    ['%-', '%20'],
    [
      'macro%%percent%_%_space%-url-space.example.com',
      'macro%percent  space%20url-space.example.com',
    ],
    ['%{h}', 'mx.example.org'],
    ['%{H}', 'mx.example.org'],
    ['%{p}', 'mx.example.org'],
    ['%{l2r-}', 'bad.strong'],
    ['%{l2r+-}', 'bad.strong'],
    ['%{d9}', 'email.example.com'],
  ])('%s → %s', async (macro, expected) => {
    expect(await expand(macro)).toBe(expected);
  });

  test('an upper-case letter URL-escapes everything outside the unreserved set (§7.3)', async () => {
    const ctx = { ...rfcContext, local: '~jack&jill=up-a_b3.c' };
    expect(await expand('http://example.com/why.html?l=%{L}', ctx, EXPLAIN_MACRO_LETTERS)).toBe(
      'http://example.com/why.html?l=~jack%26jill%3Dup-a_b3.c',
    );
  });

  test('explanations may use c, r and t, and spaces (§7.2, §6.2)', async () => {
    expect(
      await expand(
        "%{c} is not one of %{d}'s senders (seen by %{r} at %{t})",
        ipv6Context,
        EXPLAIN_MACRO_LETTERS,
      ),
    ).toBe(
      "2001:db8::cb01 is not one of email.example.com's senders (seen by mx.receiver.test at 1700000000)",
    );
  });

  test.each([
    ['%', 'is not a macro'],
    ['%{', 'is not a macro'],
    ['%{x}', 'not allowed'],
    ['%{t}', 'outside an explanation'],
    ['%{d0}', 'nonzero'],
    ['a b', 'U+0020'],
    ['é', 'U+00E9'],
  ])('%j is a syntax error', (text, message) => {
    const parsed = parseMacroString(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).toContain(message);
  });
});

describe('domain-spec and target names', () => {
  test.each([
    ['example.com', true],
    ['example.com.', true],
    ['%{d}', true],
    ['_spf.%{d}', true],
    ['%{ir}.sbl.example.org', true],
    ['foo:bar/baz.example.com', true],
    ['mail.example...com', true],
    ['foo.example.xn--zckzah', true],
    ['', false],
    ['museum', false],
    ['museum.', false],
    ['example.123', false],
    ['example.-com', false],
    ['%{d}.', false],
  ])('checkDomainSpec(%j) valid = %s', (spec, valid) => {
    expect(checkDomainSpec(spec) === undefined).toBe(valid);
  });

  test('a trailing dot is dropped and over-long names lose labels on the left (§7.3)', () => {
    expect(toTargetName('example.com.')).toBe('example.com');
    const long = `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`;
    const target = toTargetName(long);
    expect(target.length).toBeLessThanOrEqual(253);
    expect(target).toBe(`${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example.com`);
  });

  test.each([
    ['example.com', true],
    ['com', false],
    ['a..example.com', false],
    [`${'a'.repeat(64)}.example.com`, false],
    [`${'a'.repeat(63)}.example.com`, true],
  ])('isQueryableName(%j) = %s', (name, expected) => {
    expect(isQueryableName(name)).toBe(expected);
  });
});

describe('domain-specs held to the grammar (§7.1)', () => {
  const unit = fc.constantFrom(
    ...'aZ09-._%{}/ xé\t'.split(''),
    '%%',
    '%_',
    '%-',
    '%{d}',
    '%{c}',
    '%{d0}',
    '%{i2r-}',
    'example',
    '.com',
    '.com.',
    '.x-1',
    '.123',
  );

  test('macroStringError is the error of parseMacroString, or none (§7.1)', () => {
    // The pattern that checks a macro-string without its tokens must agree with the tokens.
    const options = fc.constantFrom(
      {},
      { allowSpace: true },
      { letters: EXPLAIN_MACRO_LETTERS },
      { letters: EXPLAIN_MACRO_LETTERS, allowSpace: true },
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 10 }), options, (text, option) => {
        const parsed = parseMacroString(text, option);
        expect(macroStringError(text, option)).toBe(parsed.ok ? undefined : parsed.error);
      }),
      { numRuns: 10_000 },
    );
  });

  test('a domain-spec without macros is valid exactly when it ends in "." toplabel ["."] (§7.1)', () => {
    // The pattern the character-code check stands in for (without "%": no macros).
    const LITERAL_DOMAIN =
      /^[!-$&-~]*\.(?=[a-z0-9-]+\.?$)(?:[a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])\.?$/i;
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 8 }), (text) => {
        const spec = text.replaceAll('%', '');
        expect(checkDomainSpec(spec) === undefined).toBe(LITERAL_DOMAIN.test(spec));
      }),
      { numRuns: 30_000 },
    );
  });
});
