import { isIP } from 'node:net';
import fc from 'fast-check';
import { Address6 } from 'ip-address';
import { describe, expect, test } from 'vitest';
import { createAddressParts, formatV4, formatV6, parseAddressInto } from './address.js';

/**
 * The oracle: Node's own address check and the ip-address library's canonical forms (RFC 5952;
 * IPv4-mapped IPv6 as its IPv4 address, RFC 4291 §2.5.5.2), blanks and brackets around allowed.
 */
function parseIp(input: string): { version: 4 | 6; address: string } | undefined {
  let text = input.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const version = isIP(text);
  if (version === 4) return { version: 4, address: text };
  if (version !== 6 || text.includes('%')) return undefined;
  const v6 = new Address6(text);
  if (v6.isMapped4()) return { version: 4, address: v6.to4().correctForm() };
  return { version: 6, address: v6.correctForm() };
}

const parts = createAddressParts();
const fast = (input: string) =>
  parseAddressInto(input, parts) ? { version: parts.version, address: parts.text } : undefined;

describe('parseAddressInto agrees with net.isIP and ip-address', () => {
  test.each([
    '8.8.8.8',
    ' 1.2.3.4 ',
    '[2001:db8::1]',
    '::',
    '::1',
    '::ffff:1.2.3.4',
    '::FFFF:102:304',
    '64:ff9b::8.8.8.8',
    '2001:DB8:0:0:0:0:0:1',
    '1:0:0:1:0:0:0:1',
    '1:2:3:4:5:6:7::',
    '::2:3:4:5:6:7:8',
    '1::1.2.3.4',
    // Not canonical (RFC 5952): leading zeros, upper case, "::" for one group, not the
    // longest or not the first longest run, zeros written out; and canonical forms.
    '2001:0db8::1',
    '2001:db8::0001',
    '2001:DB8::1',
    '2001:db8::A',
    '1::2:3:4:5:6:7',
    '1:0:0:2::3',
    '1::2:0:0:0:3',
    '1:0::2',
    '1::0:2',
    '0:0:0:0:0:0:0:1',
    '1:0:0:0:0:0:0:0',
    '1:0:0:2:0:0:3:4',
    '1::2:0:0:3:4',
    '1:0:0:2::3:4',
    '2001:db8:0:0:1:0:0:1',
    '2001:db8::1:0:0:1',
    '2001:db8:0:1:1:1:1:1',
    '2001:db8::1:1:1:1:1',
    '[2001:db8::1]',
    ' 2001:db8::1 ',
    'fe80::',
    '::ffff:0:0',
    '01.2.3.4',
    '1.2.3.256',
    '1.2.3',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    ':1::',
    'fe80::1%eth0',
    '12345::',
    '1.2.3.4.',
    '',
    'example.com',
  ])('%j', (input) => {
    expect(fast(input)).toEqual(parseIp(input));
  });

  test('random address-like strings', () => {
    const chars = fc.constantFrom(...'0123456789abcdefABCDEF:.'.split(''));
    fc.assert(
      fc.property(fc.array(chars, { minLength: 1, maxLength: 40 }), (list) => {
        const input = list.join('');
        expect(fast(input)).toEqual(parseIp(input));
      }),
      { numRuns: 20_000 },
    );
  });

  test('blanks, brackets and characters outside ASCII around and inside addresses', () => {
    // Characters whose low byte is ':' or a hex digit (U+013A, U+0131, U+FF1A), a lone
    // surrogate, Unicode blanks (String.prototype.trim's set), and a parse right after a longer
    // one (the parser keeps state between calls).
    const chars = fc.constantFrom(
      ...'0123456789abcdefABCDEF:.[] \t\n'.split(''),
      '\u00a0',
      '\u2028',
      '\ufeff',
      '\u3000',
      '\u013a',
      '\u0131',
      '\uff1a',
      '\ud800',
      'é',
    );
    const longer = fc.constantFrom('1:2:3:4:5:6:7:8', '2001:db8:1:2:3:4:5:6', ' '.repeat(70));
    fc.assert(
      fc.property(longer, fc.array(chars, { minLength: 1, maxLength: 70 }), (before, list) => {
        fast(before);
        const input = list.join('');
        expect(fast(input)).toEqual(parseIp(input));
      }),
      { numRuns: 30_000 },
    );
    for (const input of [
      '1:2:3:4:5:6:7\u013a',
      '\u00a0::1\u00a0',
      `${' '.repeat(80)}::1`,
      '::1\u013a',
    ]) {
      fast('1:2:3:4:5:6:7:8');
      expect(fast(input)).toEqual(parseIp(input));
    }
  });

  test('every IPv4 and IPv6 value round-trips through the canonical text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (v) => {
        expect(fast(formatV4(v))).toEqual(parseIp(formatV4(v)));
      }),
    );
    const word = fc.integer({ min: 0, max: 0xffffffff });
    const sparse = fc.oneof(word, fc.constant(0));
    fc.assert(
      fc.property(sparse, sparse, sparse, sparse, (a, b, c, d) => {
        const text = formatV6(a, b, c, d);
        expect(fast(text)).toEqual(parseIp(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('canonical input is kept as it is, anything else is reformatted', () => {
  test('random groups in random styles (case, leading zeros, where "::" goes) agree with parseIp', () => {
    const group = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.constant(0), fc.constant(0));
    const style = fc.record({
      upper: fc.boolean(),
      pad: fc.boolean(),
      gapAt: fc.integer({ min: -1, max: 7 }),
      gapLength: fc.integer({ min: 1, max: 8 }),
    });
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), style, (g, st) => {
        const hex = g.map((v) => {
          const h = st.pad ? v.toString(16).padStart(4, '0') : v.toString(16);
          return st.upper ? h.toUpperCase() : h;
        });
        let text = hex.join(':');
        // Replace a run of zero groups by "::" when the style asks and the run is all zeros.
        const length = Math.min(st.gapLength, 8 - Math.max(0, st.gapAt));
        if (st.gapAt >= 0 && g.slice(st.gapAt, st.gapAt + length).every((v) => v === 0)) {
          text = `${hex.slice(0, st.gapAt).join(':')}::${hex.slice(st.gapAt + length).join(':')}`;
        }
        const got = fast(text);
        expect(got).toEqual(parseIp(text));
        // The canonical text parses to itself.
        if (got) expect(fast(got.address)).toEqual(got);
      }),
      { numRuns: 30_000 },
    );
  });
});
