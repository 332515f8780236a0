import { type DnsTestServer, startDnsServer } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { discoverPublicIp } from './discover.js';
import { MYIP_METHODS, parseMyIpServers } from './methods.js';

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

describe('parseMyIpServers (NETDIAG_MYIP_SERVERS)', () => {
  test('defaults: OpenDNS then Google, their real servers', () => {
    expect(parseMyIpServers(undefined)).toEqual(MYIP_METHODS);
    expect(parseMyIpServers(' , ')).toEqual(MYIP_METHODS);
    expect(MYIP_METHODS.map((m) => [m.server, m.qname, m.type])).toEqual([
      ['208.67.222.222', 'myip.opendns.com', 'A'],
      ['216.239.32.10', 'o-o.myaddr.l.google.com', 'TXT'],
    ]);
  });
  test('named and positional overrides', () => {
    expect(parseMyIpServers('google=127.0.0.1:5301').map((m) => m.server)).toEqual([
      '208.67.222.222',
      '127.0.0.1:5301',
    ]);
    expect(parseMyIpServers('OpenDNS=[::1]:53').map((m) => m.server)).toEqual([
      '[::1]:53',
      '216.239.32.10',
    ]);
    expect(parseMyIpServers('127.0.0.1:1, 127.0.0.1:2').map((m) => m.server)).toEqual([
      '127.0.0.1:1',
      '127.0.0.1:2',
    ]);
    expect(() => parseMyIpServers('cloudflare=127.0.0.1')).toThrow(
      /NETDIAG_MYIP_SERVERS: unknown method "cloudflare" \(known: opendns, google\)/,
    );
    expect(() => parseMyIpServers('127.0.0.1:1,127.0.0.1:2,127.0.0.1:3')).toThrow(
      /unknown method "127.0.0.1:3"/,
    );
    // The defaults are never mutated by an override.
    expect(MYIP_METHODS[0]?.server).toBe('208.67.222.222');
  });
});

describe('discoverPublicIp', () => {
  test('OpenDNS answers: its A record', async () => {
    const methods = parseMyIpServers(`${opendns.address},${google.address}`);
    expect(await discoverPublicIp({ methods })).toBe('203.0.113.7');
    expect(opendns.queries.at(-1)).toMatchObject({ name: 'myip.opendns.com', type: 'A' });
  });

  test('OpenDNS silent: the Google TXT fallback, skipping the ECS string', async () => {
    const methods = parseMyIpServers(`${silent.address},${google.address}`);
    expect(await discoverPublicIp({ methods, timeout: 300 })).toBe('198.51.100.42');
    expect(google.queries.at(-1)).toMatchObject({ name: 'o-o.myaddr.l.google.com', type: 'TXT' });
  });

  test('OpenDNS answers without an address (NXDOMAIN): fallback', async () => {
    const methods = parseMyIpServers(`${google.address},${google.address}`);
    expect(await discoverPublicIp({ methods, timeout: 300 })).toBe('198.51.100.42');
  });

  test('one try per method: a silent server is asked once', async () => {
    const before = silent.queries.length;
    const methods = parseMyIpServers(`${silent.address},${google.address}`);
    expect(await discoverPublicIp({ methods, timeout: 200 })).toBe('198.51.100.42');
    expect(silent.queries.length - before).toBe(1);
  });

  test('offline: a clear UpstreamError naming every method', async () => {
    const methods = parseMyIpServers(`${silent.address},127.0.0.1:1`);
    const started = Date.now();
    const error = await discoverPublicIp({ methods, timeout: 300 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'myip' });
    expect((error as Error).message).toMatch(
      /cannot find this machine's public address \(are you offline\?\): opendns: no answer within 300 ms; google: /,
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });

  test('a caller abort stops at once and is not a method failure', async () => {
    const methods = parseMyIpServers(`${silent.address},${opendns.address}`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await discoverPublicIp({
      methods,
      timeout: 2000,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ABORTED' });
  });
});
