import dns from 'node:dns';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DnsTestServer, startDnsServer } from './dns-server.js';

// The fixture checked with an independent client: Node's own c-ares resolver.
let server: DnsTestServer;
let resolver: dns.promises.Resolver;
beforeAll(async () => {
  server = await startDnsServer({
    zone: {
      'example.test': {
        A: ['192.0.2.10'],
        MX: [{ preference: 10, exchange: 'mail.example.test' }],
        TXT: ['v=spf1 -all'],
        SOA: {
          mname: 'ns1.example.test',
          rname: 'hostmaster.example.test',
          serial: 1,
          refresh: 2,
          retry: 3,
          expire: 4,
          minimum: 60,
        },
      },
      'www.example.test': { CNAME: 'example.test' },
      '*.wild.example.test': { A: ['192.0.2.99'] },
      'big.example.test': {
        TXT: Array.from({ length: 40 }, (_, i) => `record-${i}-${'x'.repeat(40)}`),
      },
    },
    onQuery: (q) => (q.name === 'fail.example.test' ? 'servfail' : undefined),
  });
  resolver = new dns.promises.Resolver({ timeout: 500, tries: 1 });
  resolver.setServers([server.address]);
});
afterAll(() => server.close());

describe('loopback DNS fixture', () => {
  test('answers from the zone, follows CNAMEs and wildcards', async () => {
    expect(await resolver.resolve4('example.test')).toEqual(['192.0.2.10']);
    // toMatchObject: Node 24's resolveMx adds `type: 'MX'` to each record; 20 and 22 do not.
    expect(await resolver.resolveMx('example.test')).toMatchObject([
      { priority: 10, exchange: 'mail.example.test' },
    ]);
    expect(await resolver.resolve4('www.example.test')).toEqual(['192.0.2.10']);
    expect(await resolver.resolve4('a.b.wild.example.test')).toEqual(['192.0.2.99']);
  });
  test('NXDOMAIN, NODATA and SERVFAIL', async () => {
    await expect(resolver.resolve4('missing.example.test')).rejects.toMatchObject({
      code: 'ENOTFOUND',
    });
    await expect(resolver.resolve6('example.test')).rejects.toMatchObject({ code: 'ENODATA' });
    await expect(resolver.resolve4('fail.example.test')).rejects.toMatchObject({
      code: 'ESERVFAIL',
    });
  });
  test('large answers arrive over TCP after truncation', async () => {
    const records = await resolver.resolveTxt('big.example.test');
    expect(records).toHaveLength(40);
    expect(
      server.queries.filter((q) => q.name === 'big.example.test').map((q) => q.transport),
    ).toContain('tcp');
  });
});
