/**
 * The one CIDR grammar: what it reads, containment checked against a naive BigInt reference,
 * the allowed-targets list built on it, and ranges → blocks (its inverse).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { InvalidInputError } from '../errors.js';
import { createAddressParts, formatV4, formatV6, parseAddressInto } from '../ip/address.js';
import {
  cidrHas,
  cidrOf,
  formatCidr,
  parseCidr,
  parseCidrList,
  v4RangeCidrCount,
  v4RangeToCidrs,
  v6RangeCidrCount,
  v6RangeToCidrs,
} from './cidr.js';
import { ipv4ToUint32, ipv6ToBigInt, parseIp } from './ip.js';

describe('parseCidr', () => {
  test.each([
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['10.1.2.3/8', '10.0.0.0/8'],
    [' 10.1.2.3 ', '10.1.2.3/32'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['127.1/8', '127.0.0.0/8'],
    ['0x7f000001', '127.0.0.1/32'],
    ['2001:DB8::1/32', '2001:db8::/32'],
    ['[::1]/128', '::1/128'],
    ['::1', '::1/128'],
    ['::/0', '::/0'],
    ['::ffff:10.0.0.0/104', '10.0.0.0/8'],
    ['::ffff:10.1.2.3', '10.1.2.3/32'],
  ])('%j → %s', (text, canonical) => {
    const block = parseCidr(text);
    expect(block && formatCidr(block)).toBe(canonical);
  });

  test.each([
    '',
    '/8',
    '10.0.0.0/',
    '10.0.0.0/33',
    '::1/129',
    '10.0.0.0/-1',
    '10.0.0.0/8/9',
    '10.0.0.0/ 8x',
    '10.0.0.0/1e1',
    'example.com/8',
    '1.2.3.4.5',
    'fe80::1%eth0/64',
    '::ffff:10.0.0.0/8', // IPv4-mapped with a prefix shorter than 96: say it as IPv4
  ])('%j is refused', (text) => {
    expect(parseCidr(text)).toBeUndefined();
  });

  test('cidrOf takes the prefix apart and strict addresses only (SPF ip4:/ip6: terms)', () => {
    expect(cidrOf('192.0.2.0', 24)).toEqual(parseCidr('192.0.2.0/24'));
    expect(cidrOf('127.1', 8)).toBeUndefined();
    expect(cidrOf('010.0.0.1', 8)).toBeUndefined();
    expect(cidrOf('10.0.0.1', 33)).toBeUndefined();
    expect(cidrOf('10.0.0.1', 1.5)).toBeUndefined();
  });
});

describe('containment agrees with a naive BigInt reference', () => {
  const parts = createAddressParts();
  const naive = (address: string, network: string, bits: number): boolean => {
    const a = parseIp(address);
    const n = parseIp(network);
    if (!a || !n || a.version !== n.version) return false;
    const width = a.version === 4 ? 32n : 128n;
    const value = (ip: string) => (a.version === 4 ? BigInt(ipv4ToUint32(ip)) : ipv6ToBigInt(ip));
    const shift = width - BigInt(bits);
    return value(a.address) >> shift === value(n.address) >> shift;
  };
  const contains = (address: string, network: string, bits: number): boolean => {
    const block = cidrOf(network, bits);
    if (!block || !parseAddressInto(address, parts)) throw new Error(`${address} ${network}`);
    return cidrHas(block, parts);
  };
  const word = fc.integer({ min: 0, max: 0xffffffff });

  test('IPv4, with addresses near the network so that both answers occur', () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 32 }), fc.nat(3), (a, n, bits, near) => {
        const address = formatV4(near === 0 ? a : (n ^ (a >>> (bits + near))) >>> 0);
        const network = formatV4(n);
        expect(contains(address, network, bits)).toBe(naive(address, network, bits));
      }),
      { numRuns: 20_000 },
    );
  });

  test('IPv6, across every word boundary', () => {
    const v6 = fc.tuple(word, word, word, word).filter(([w0, w1, w2]) => {
      // The parser turns IPv4-mapped addresses into IPv4: keep to real IPv6 here.
      return !(w0 === 0 && w1 === 0 && w2 === 0xffff);
    });
    fc.assert(
      fc.property(v6, v6, fc.integer({ min: 0, max: 128 }), fc.boolean(), (a, n, bits, near) => {
        const mixed = near ? ([n[0], n[1], bits > 64 ? n[2] : a[2], a[3]] as const) : a;
        if (mixed[0] === 0 && mixed[1] === 0 && mixed[2] === 0xffff) return;
        const address = formatV6(...mixed);
        const network = formatV6(...n);
        expect(contains(address, network, bits)).toBe(naive(address, network, bits));
      }),
      { numRuns: 20_000 },
    );
  });

  test('IPv4 never matches an IPv6 block and the other way round', () => {
    parseAddressInto('10.0.0.1', parts);
    expect(cidrHas(parseCidr('::/0') as never, parts)).toBe(false);
    parseAddressInto('::1', parts);
    expect(cidrHas(parseCidr('0.0.0.0/0') as never, parts)).toBe(false);
  });
});

describe('parseCidrList', () => {
  test('matches IPv4 and IPv6 members, in any literal form', () => {
    const set = parseCidrList(['127.0.0.0/8', ' ::1/128', '10.1.2.3', '']);
    expect(set.cidrs).toEqual(['127.0.0.0/8', '::1/128', '10.1.2.3/32']);
    expect(set.has('127.0.0.2')).toBe(true);
    expect(set.has('127.1')).toBe(true);
    expect(set.has('::1')).toBe(true);
    expect(set.has('[::1]')).toBe(true);
    expect(set.has('::ffff:127.0.0.9')).toBe(true);
    expect(set.has('10.1.2.3')).toBe(true);
    expect(set.has('10.1.2.4')).toBe(false);
    expect(set.has('128.0.0.1')).toBe(false);
    expect(set.has('example.com')).toBe(false);
    expect(parseCidrList([]).has('127.0.0.1')).toBe(false);
  });

  test('a bad entry is an InvalidInputError that names it and shows the form', () => {
    for (const entry of ['127.0.0.0/33', 'example.com/8', '10.0.0.0/8/8']) {
      const error = (() => {
        try {
          parseCidrList(['10.0.0.0/8', entry]);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as Error).message).toContain(`"${entry}" is not an IP address or CIDR range`);
      expect((error as Error).message).toContain('127.0.0.0/8');
    }
  });
});

describe('ranges → blocks', () => {
  test.each([
    [0x08080800, 0x080808ff, ['8.8.8.0/24']],
    [0x0a000001, 0x0a000006, ['10.0.0.1/32', '10.0.0.2/31', '10.0.0.4/31', '10.0.0.6/32']],
    [0, 0xffffffff, ['0.0.0.0/0']],
  ])('%i-%i', (first, last, cidrs) => {
    expect(v4RangeToCidrs(first, last)).toEqual(cidrs);
    expect(v4RangeCidrCount(first, last)).toBe(cidrs.length);
  });

  test('IPv6', () => {
    const first = 0x20010db8n << 96n;
    expect(v6RangeToCidrs(first, first | ((1n << 96n) - 1n))).toEqual(['2001:db8::/32']);
    expect(v6RangeCidrCount(first, first + 2n)).toBe(2);
  });

  test('the blocks cover the range exactly, in order, without overlap', () => {
    const parts = createAddressParts();
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.nat(5000), (first, span) => {
        const last = Math.min(0xffffffff, first + span);
        const blocks = v4RangeToCidrs(first, last).map((c) => parseCidr(c));
        let at = first;
        for (const block of blocks) {
          if (!block) throw new Error('unparsable block');
          parseAddressInto(formatV4(at), parts);
          expect(cidrHas(block, parts)).toBe(true);
          expect(block.w0).toBe(at);
          at += 2 ** (32 - block.bits);
        }
        expect(at).toBe(last + 1);
      }),
    );
  });
});
