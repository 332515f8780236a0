import { type DnsTestServer, startDnsServer } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { INVALID_IP_MESSAGE, isNetdiagError } from '../errors.js';
import { createResolver } from '../net/resolver.js';
import { reverseDns } from './reverse-dns.js';

const V6_PTR = '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa';

let server: DnsTestServer;
let resolver: ReturnType<typeof createResolver>;
beforeAll(async () => {
  server = await startDnsServer({
    zone: {
      // Forward-confirmed.
      '10.2.0.192.in-addr.arpa': { PTR: ['mail.example.test'] },
      'mail.example.test': { A: ['192.0.2.10'] },
      // PTR name resolves elsewhere.
      '11.2.0.192.in-addr.arpa': { PTR: ['liar.example.test'] },
      'liar.example.test': { A: ['198.51.100.1'] },
      // PTR name does not resolve; a second PTR does.
      '12.2.0.192.in-addr.arpa': { PTR: ['gone.example.test', 'host12.example.test'] },
      'host12.example.test': { A: ['192.0.2.12'] },
      [V6_PTR]: { PTR: ['v6.example.test'] },
      'v6.example.test': { AAAA: ['2001:db8::1'] },
    },
    onQuery: (q) => (q.name === '13.2.0.192.in-addr.arpa' ? 'servfail' : undefined),
  });
  resolver = createResolver({ servers: [server.address], cache: false });
});
afterAll(() => server.close());

describe('reverseDns', () => {
  test('IPv4: hostname, reverse name and a forward-confirmed result', async () => {
    expect(await reverseDns('192.0.2.10', { resolver })).toEqual({
      ip: '192.0.2.10',
      hostname: 'mail.example.test',
      ptr_record: '10.2.0.192.in-addr.arpa',
      hostnames: ['mail.example.test'],
      fcrdns: true,
      rcode: 'NOERROR',
    });
  });

  test('a PTR name that resolves to another address is not confirmed', async () => {
    const result = await reverseDns('192.0.2.11', { resolver });
    expect(result.hostname).toBe('liar.example.test');
    expect(result.fcrdns).toBe(false);
  });

  test('any PTR name that resolves back confirms', async () => {
    const result = await reverseDns('192.0.2.12', { resolver });
    expect(result.hostname).toBe('gone.example.test');
    expect(result.hostnames).toEqual(['gone.example.test', 'host12.example.test']);
    expect(result.fcrdns).toBe(true);
  });

  test('IPv6 uses the ip6.arpa nibbles and AAAA for the forward check', async () => {
    const result = await reverseDns('2001:DB8:0::1', { resolver });
    expect(result).toMatchObject({
      ip: '2001:db8::1',
      ptr_record: V6_PTR,
      hostname: 'v6.example.test',
      fcrdns: true,
    });
    expect(server.queries.some((q) => q.name === 'v6.example.test' && q.type === 'AAAA')).toBe(
      true,
    );
  });

  test('no PTR: hostname "" and the rcode', async () => {
    expect(await reverseDns('203.0.113.9', { resolver })).toEqual({
      ip: '203.0.113.9',
      hostname: '',
      ptr_record: '9.113.0.203.in-addr.arpa',
      hostnames: [],
      fcrdns: false,
      rcode: 'NXDOMAIN',
    });
  });

  test('IPv4-mapped IPv6 is the IPv4 address', async () => {
    const result = await reverseDns('::ffff:192.0.2.10', { resolver });
    expect(result.ip).toBe('192.0.2.10');
    expect(result.ptr_record).toBe('10.2.0.192.in-addr.arpa');
  });

  test('SERVFAIL is an upstream error', async () => {
    await expect(reverseDns('192.0.2.13', { resolver })).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
    });
  });

  test.each(['', 'example.com', '192.0.2', '300.1.1.1', '1.2.3.4/24', 'fe80::1%eth0'])(
    'invalid IP %j gets the SPEC message',
    async (ip) => {
      const error = await reverseDns(ip, { resolver }).catch((e: unknown) => e);
      expect(isNetdiagError(error, 'INVALID_INPUT')).toBe(true);
      expect((error as Error).message).toBe(INVALID_IP_MESSAGE);
    },
  );
});
