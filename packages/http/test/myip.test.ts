import { type DnsTestServer, startDnsServer } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { discoverPublicIp, MYIP_METHODS, myIpMethods } from '../src/services/caller.js';

let opendns: DnsTestServer;
let google: DnsTestServer;
let silent: DnsTestServer;
beforeAll(async () => {
  // What the real servers answer: the address the query came from (here: documentation
  // addresses standing in for a public one).
  opendns = await startDnsServer({ zone: { 'myip.opendns.com': { A: ['203.0.113.7'] } } });
  google = await startDnsServer({
    zone: {
      'o-o.myaddr.l.google.com': {
        TXT: ['edns0-client-subnet 198.51.100.0/24', '198.51.100.42'],
      },
    },
  });
  silent = await startDnsServer({ onQuery: () => 'drop' });
});
afterAll(async () => {
  await Promise.all([opendns.close(), google.close(), silent.close()]);
});

describe('myIpMethods (NETDIAG_MYIP_SERVERS)', () => {
  test('defaults: OpenDNS then Google, their real servers', () => {
    expect(myIpMethods(undefined)).toEqual(MYIP_METHODS);
    expect(MYIP_METHODS.map((m) => [m.server, m.qname, m.type])).toEqual([
      ['208.67.222.222', 'myip.opendns.com', 'A'],
      ['216.239.32.10', 'o-o.myaddr.l.google.com', 'TXT'],
    ]);
  });
  test('named and positional overrides', () => {
    expect(myIpMethods('google=127.0.0.1:5301').map((m) => m.server)).toEqual([
      '208.67.222.222',
      '127.0.0.1:5301',
    ]);
    expect(myIpMethods('127.0.0.1:1, 127.0.0.1:2').map((m) => m.server)).toEqual([
      '127.0.0.1:1',
      '127.0.0.1:2',
    ]);
    expect(() => myIpMethods('cloudflare=127.0.0.1')).toThrow(/unknown method "cloudflare"/);
  });
});

describe('discoverPublicIp', () => {
  test('OpenDNS answers: its A record', async () => {
    const methods = myIpMethods(`${opendns.address},${google.address}`);
    expect(await discoverPublicIp({ methods })).toBe('203.0.113.7');
    expect(opendns.queries.at(-1)).toMatchObject({ name: 'myip.opendns.com', type: 'A' });
  });

  test('OpenDNS silent: the Google TXT fallback, skipping the ECS string', async () => {
    const methods = myIpMethods(`${silent.address},${google.address}`);
    expect(await discoverPublicIp({ methods, timeoutMs: 300 })).toBe('198.51.100.42');
    expect(google.queries.at(-1)).toMatchObject({ name: 'o-o.myaddr.l.google.com', type: 'TXT' });
  });

  test('OpenDNS answers without an address (NXDOMAIN): fallback', async () => {
    const methods = myIpMethods(`${google.address},${google.address}`);
    expect(await discoverPublicIp({ methods, timeoutMs: 300 })).toBe('198.51.100.42');
  });

  test('offline: a clear UpstreamError naming every method', async () => {
    const methods = myIpMethods(`${silent.address},127.0.0.1:1`);
    const started = Date.now();
    const error = await discoverPublicIp({ methods, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'myip' });
    expect((error as Error).message).toMatch(/are you offline\?.*opendns: .*google: /);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
