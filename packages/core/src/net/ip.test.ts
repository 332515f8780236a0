import { describe, expect, test } from 'vitest';
import { INVALID_IP_MESSAGE } from '../errors.js';
import { parseIp, parseIpLiteral, requireIp, reverseName } from './ip.js';

describe('parseIp', () => {
  test.each([
    ['8.8.8.8', 4, '8.8.8.8'],
    [' 1.1.1.1 ', 4, '1.1.1.1'],
    ['::ffff:1.2.3.4', 4, '1.2.3.4'],
    ['::FFFF:0102:0304', 4, '1.2.3.4'],
    ['2001:DB8:0:0:0:0:0:1', 6, '2001:db8::1'],
    ['[2606:4700:4700::1111]', 6, '2606:4700:4700::1111'],
  ])('%s → v%i %s', (input, version, address) => {
    expect(parseIp(input)).toEqual({ version, address });
  });

  test.each([
    '',
    '999.999.999.999',
    '1.2.3',
    '127.1',
    '1234:::5678',
    'fe80::1%eth0',
    'example.com',
    '1.2.3.4/24',
  ])('%s is not an IP address', (input) => {
    expect(parseIp(input)).toBeUndefined();
    expect(() => requireIp(input)).toThrow(INVALID_IP_MESSAGE);
  });

  test('legacy literals only in loose mode', () => {
    expect(parseIpLiteral('127.1')?.address).toBe('127.0.0.1');
    expect(parseIpLiteral('0x7f000001')?.address).toBe('127.0.0.1');
    expect(parseIpLiteral('2130706433')?.address).toBe('127.0.0.1');
    expect(parseIpLiteral('4294967296')).toBeUndefined();
    expect(parseIpLiteral('08.0.0.1')).toBeUndefined();
    expect(parseIpLiteral('example.com')).toBeUndefined();
  });

  test('reverse names (RFC 1035 §3.5, RFC 3596 §2.5)', () => {
    expect(reverseName({ version: 4, address: '8.8.4.4' })).toBe('4.4.8.8.in-addr.arpa');
    expect(reverseName({ version: 6, address: '2001:db8::567:89ab' })).toBe(
      'b.a.9.8.7.6.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
    );
  });
});
