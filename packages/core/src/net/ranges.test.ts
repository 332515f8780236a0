import { seededRandom32 } from '@netdiag/test-utils';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createAddressParts, formatV4, formatV6, parseAddressInto } from '../ip/address.js';
import { ipv4ToUint32, ipv6ToBigInt, parseIp } from './ip.js';
import {
  bogonReason,
  classifyAddress,
  IPV4_SPECIAL_RANGES,
  IPV6_SPECIAL_RANGES,
  isPublicAddress,
  type SpecialRange,
  specialRangeOf,
} from './ranges.js';

describe('isPublicAddress', () => {
  // One address inside every special-purpose range, at its first and last address where
  // that says something about the mask.
  test.each([
    '0.0.0.0',
    '0.255.255.255',
    '10.0.0.0',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '169.254.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.0.1',
    '192.168.255.255',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.255',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::7f00:1',
    '64:ff9b:1::1',
    '100::1',
    '2001::1',
    '2001:db8::1',
    '2001:db8:ffff::1',
    '3fff::1',
    '5f00::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'febf::1',
    'fec0::1',
    'ff02::1',
    '4000::1',
    '1::1',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  test.each([
    '1.1.1.1',
    '8.8.8.8',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.255',
    '192.0.3.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001::1',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '::ffff:8.8.8.8',
  ])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  test.each([
    ['127.1', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['2130706433', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0x7f.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['64:ff9b::a00:1', 'private network'],
    ['64:ff9b::169.254.169.254', 'link-local'],
    ['2002:a00:1::', 'private network'],
    ['2002:c0a8:101::1', 'private network'],
    ['0', '"this network"'],
    ['10.1', 'private network'],
    ['3232235777', 'private network'],
  ])('literal form %s is judged by the address it denotes (%s)', (literal, reason) => {
    const result = classifyAddress(literal);
    expect(result.public).toBe(false);
    expect(result.range?.name).toContain(reason);
  });

  test('every table entry blocks its own base address', () => {
    for (const { cidr } of [...IPV4_SPECIAL_RANGES, ...IPV6_SPECIAL_RANGES]) {
      const base = cidr.split('/')[0] as string;
      expect(isPublicAddress(base), cidr).toBe(false);
    }
  });

  test('hostnames and garbage fail closed', () => {
    expect(isPublicAddress('example.com')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
    expect(isPublicAddress('1.2.3.4.5')).toBe(false);
    expect(isPublicAddress('256.1.1.1')).toBe(false);
  });
});

describe('the word-mask fast paths agree with a naive BigInt scan of the tables', () => {
  // The reference: Address6-based parsing and BigInt masks, one range at a time.
  const block = (cidr: string, width: 32 | 128) => {
    const [address = '', bitsText] = cidr.split('/');
    const bits = BigInt(bitsText ?? width);
    const all = (1n << BigInt(width)) - 1n;
    const mask = bits === 0n ? 0n : (all << (BigInt(width) - bits)) & all;
    const value = width === 32 ? BigInt(ipv4ToUint32(address)) : ipv6ToBigInt(address);
    return { base: value & mask, mask };
  };
  const v4 = IPV4_SPECIAL_RANGES.map((r) => block(r.cidr, 32));
  const v6 = IPV6_SPECIAL_RANGES.map((r) => block(r.cidr, 128));
  const naiveV4Public = (value: bigint) => !v4.some((b) => (value & b.mask) === b.base);
  const naivePublic = (ip: string): boolean => {
    const parsed = parseIp(ip);
    if (!parsed) return false;
    if (parsed.version === 4) return naiveV4Public(BigInt(ipv4ToUint32(parsed.address)));
    const value = ipv6ToBigInt(parsed.address);
    if (value >> 32n === 0x64ff9bn << 64n) return naiveV4Public(value & 0xffffffffn);
    if (value >> 112n === 0x2002n) return naiveV4Public((value >> 80n) & 0xffffffffn);
    if (v6.some((b) => (value & b.mask) === b.base)) return false;
    return value >> 125n === 1n;
  };
  const parts = createAddressParts();
  const fast = (ip: string) => {
    if (!parseAddressInto(ip, parts)) throw new Error(ip);
    return specialRangeOf(parts) === undefined;
  };

  test('every first IPv4 octet and every first IPv6 16 bits in 2000::/3', () => {
    const random32 = seededRandom32(7);
    const mismatches: string[] = [];
    for (let octet = 0; octet < 256; octet++) {
      for (const low of [0, 0xffffff, random32() & 0xffffff]) {
        const ip = formatV4(((octet << 24) | low) >>> 0);
        if (fast(ip) !== naivePublic(ip) || classifyAddress(ip).public !== naivePublic(ip)) {
          mismatches.push(ip);
        }
      }
    }
    for (let top = 0x2000; top <= 0x3fff; top++) {
      for (const rest of [0, 0xffff, random32() & 0xffff]) {
        const ip = formatV6(((top << 16) | rest) >>> 0, random32(), random32(), random32());
        if (fast(ip) !== naivePublic(ip)) mismatches.push(ip);
      }
    }
    expect(mismatches).toEqual([]);
  });

  test('random IPv4 and IPv6 addresses, and addresses inside every special range', () => {
    const word = fc.integer({ min: 0, max: 0xffffffff });
    const prefixes = [0, 0x0a000000, 0x7f000000, 0xa9fe0000, 0xc0a80000, 0x64400000, 0xe0000000];
    fc.assert(
      fc.property(word, fc.constantFrom(...prefixes), fc.boolean(), (v, prefix, mix) => {
        const ip = formatV4(mix ? (prefix | (v & 0xffff)) >>> 0 : v);
        expect(fast(ip)).toBe(naivePublic(ip));
      }),
      { numRuns: 20_000 },
    );
    const top = fc.constantFrom(
      0,
      0x20010db8,
      0x20020a00,
      0x0064ff9b,
      0xfe800000,
      0xfc000000,
      0x26064700,
      0x3fff0000,
      0xff020000,
    );
    fc.assert(
      fc.property(top, word, word, word, (w0, w1, w2, w3) => {
        const ip = formatV6(w0, w0 === 0x0064ff9b ? 0 : w1, w0 === 0x0064ff9b ? 0 : w2, w3);
        expect(fast(ip)).toBe(naivePublic(ip));
        expect(classifyAddress(ip).public).toBe(naivePublic(ip));
      }),
      { numRuns: 20_000 },
    );
  });

  test('bogon reasons name the range', () => {
    const range = classifyAddress('10.1.2.3').range as SpecialRange;
    expect(bogonReason(range)).toBe('10.0.0.0/8: private network (RFC 1918)');
    expect(classifyAddress('64:ff9b::a00:1')).toMatchObject({ public: false, address: '10.0.0.1' });
    expect(classifyAddress('2002:808:808::1')).toEqual({ public: true, address: '8.8.8.8' });
    expect(bogonReason(classifyAddress('4000::1').range as SpecialRange)).toContain('2000::/3');
  });
});
