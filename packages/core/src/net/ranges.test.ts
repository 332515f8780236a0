import { describe, expect, test } from 'vitest';
import {
  classifyAddress,
  IPV4_SPECIAL_RANGES,
  IPV6_SPECIAL_RANGES,
  isPublicAddress,
  parseCidrList,
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

describe('parseCidrList', () => {
  test('matches v4 and v6 members and rejects junk', () => {
    const set = parseCidrList(['127.0.0.0/8', ' ::1/128', '10.1.2.3']);
    expect(set.has('127.0.0.2')).toBe(true);
    expect(set.has('::1')).toBe(true);
    expect(set.has('::ffff:127.0.0.9')).toBe(true);
    expect(set.has('10.1.2.3')).toBe(true);
    expect(set.has('10.1.2.4')).toBe(false);
    expect(set.has('128.0.0.1')).toBe(false);
    expect(() => parseCidrList(['127.0.0.0/33'])).toThrow(/not a CIDR/);
    expect(() => parseCidrList(['example.com/8'])).toThrow(/not a CIDR/);
  });
});
