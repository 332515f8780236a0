import { type DnsTestServer, startDnsServer, type Zone } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isNetdiagError } from '../errors.js';
import { createResolver } from '../net/resolver.js';
import { lookupDns, lookupDnsV1 } from './lookup-dns.js';
import { DNS_TYPES, DNS_TYPES_V1 } from './record-types.js';

const ZONE: Zone = {
  'example.test': {
    A: ['192.0.2.10'],
    AAAA: ['2001:db8::10'],
    MX: [{ preference: 10, exchange: 'mail.example.test' }],
    NS: ['ns1.example.test'],
    TXT: ['v=spf1 -all'],
    SOA: {
      mname: 'ns1.example.test',
      rname: 'hostmaster.example.test',
      serial: 7,
      refresh: 7200,
      retry: 900,
      expire: 1209600,
      minimum: 120,
    },
    CAA: [{ flags: 0, tag: 'issue', value: 'ca.example' }],
    ttl: 300,
  },
  'www.example.test': { CNAME: 'example.test', ttl: 60 },
  '_sip._tcp.example.test': {
    SRV: [{ priority: 10, weight: 60, port: 5060, target: 'sip.example.test' }],
  },
  '10.2.0.192.in-addr.arpa': { PTR: ['host.example.test'] },
  'xn--bcher-kva.example': { A: ['192.0.2.77'] },
  'broken.test': { A: ['192.0.2.1'] },
  'slow.test': { A: ['192.0.2.1'] },
};

/** Expected `data` per type, as `dig +short` prints it for ZONE. */
const CASES: [string, string, string[]][] = [
  ['example.test', 'A', ['192.0.2.10']],
  ['example.test', 'AAAA', ['2001:db8::10']],
  ['example.test', 'MX', ['10 mail.example.test.']],
  ['example.test', 'NS', ['ns1.example.test.']],
  ['example.test', 'TXT', ['"v=spf1 -all"']],
  ['www.example.test', 'CNAME', ['example.test.']],
  ['example.test', 'CAA', ['0 issue "ca.example"']],
  ['example.test', 'SOA', ['ns1.example.test. hostmaster.example.test. 7 7200 900 1209600 120']],
  ['_sip._tcp.example.test', 'SRV', ['10 60 5060 sip.example.test.']],
  ['10.2.0.192.in-addr.arpa', 'PTR', ['host.example.test.']],
];

let server: DnsTestServer;
let resolver: ReturnType<typeof createResolver>;
beforeAll(async () => {
  server = await startDnsServer({
    zone: ZONE,
    onQuery: (q) =>
      q.name === 'broken.test'
        ? 'servfail'
        : q.name === 'slow.test'
          ? 'drop'
          : q.name === 'truncated.test'
            ? 'truncate'
            : undefined,
  });
  resolver = createResolver({ servers: [server.address], cache: false, attemptTimeout: 1000 });
});
afterAll(() => server.close());

describe('lookupDns (GET /api/dns shape)', () => {
  test.each(CASES.filter(([, type]) => (DNS_TYPES as string[]).includes(type)))(
    '%s %s',
    async (domain, type, data) => {
      const result = await lookupDns({ domain, type }, { resolver });
      expect(result).toEqual({
        domain,
        type,
        rcode: 'NOERROR',
        records: data.map((d) => ({
          name: domain,
          type: expect.any(Number),
          TTL: expect.any(Number),
          data: d,
        })),
      });
    },
  );

  test('type codes and TTLs come from the answer', async () => {
    const result = await lookupDns({ domain: 'example.test', type: 'mx' }, { resolver });
    expect(result.type).toBe('MX');
    expect(result.records[0]).toEqual({
      name: 'example.test',
      type: 15,
      TTL: 300,
      data: '10 mail.example.test.',
    });
  });

  test('default type is A and a CNAME chain is returned as the resolver gives it', async () => {
    const result = await lookupDns({ domain: 'WWW.example.test.' }, { resolver });
    expect(result.type).toBe('A');
    expect(result.domain).toBe('www.example.test');
    expect(result.records).toEqual([
      { name: 'www.example.test', type: 5, TTL: 60, data: 'example.test.' },
      { name: 'example.test', type: 1, TTL: 300, data: '192.0.2.10' },
    ]);
  });

  test('an IDN is asked in punycode', async () => {
    const result = await lookupDns({ domain: 'bücher.example' }, { resolver });
    expect(result.domain).toBe('xn--bcher-kva.example');
    expect(result.records.map((r) => r.data)).toEqual(['192.0.2.77']);
  });

  test.each(['SRV', 'PTR', 'ANY', 'SPF', 'HTTPS', 'a b'])(
    'type %s is refused naming the allowed types',
    async (type) => {
      const error = await lookupDns({ domain: 'example.test', type }, { resolver }).catch(
        (e: unknown) => e,
      );
      expect(isNetdiagError(error, 'INVALID_INPUT')).toBe(true);
      expect((error as Error).message).toContain(DNS_TYPES.join(', '));
    },
  );
});

describe('lookupDnsV1 (GET /api/v1/dns/:domain shape)', () => {
  test.each(CASES)('%s %s', async (domain, type, data) => {
    const result = await lookupDnsV1({ domain, type }, { resolver });
    expect(result.rcode).toBe('NOERROR');
    expect(result.records.map((r) => r.data)).toEqual(data);
    expect(result.records.every((r) => r.name === `${domain}.` && typeof r.ttl === 'number')).toBe(
      true,
    );
    expect(result.authority).toEqual([]);
  });

  test('SRV and PTR are allowed, ANY is not', async () => {
    await expect(
      lookupDnsV1({ domain: 'example.test', type: 'ANY' }, { resolver }),
    ).rejects.toThrow(DNS_TYPES_V1.join(', '));
  });
});

describe('answers that are not records', () => {
  test('NXDOMAIN is records [] plus rcode, and v1 shows the SOA in authority', async () => {
    const v0 = await lookupDns({ domain: 'missing.example.test' }, { resolver });
    expect(v0).toEqual({
      domain: 'missing.example.test',
      type: 'A',
      rcode: 'NXDOMAIN',
      records: [],
    });
    const v1 = await lookupDnsV1({ domain: 'missing.example.test' }, { resolver });
    expect(v1.records).toEqual([]);
    expect(v1.authority).toEqual([
      {
        name: 'example.test.',
        type: 6,
        ttl: 300,
        data: 'ns1.example.test. hostmaster.example.test. 7 7200 900 1209600 120',
      },
    ]);
  });

  test('NODATA is NOERROR with no records', async () => {
    const result = await lookupDns({ domain: 'www.example.test', type: 'MX' }, { resolver });
    expect(result.rcode).toBe('NOERROR');
  });

  test('SERVFAIL is an upstream error', async () => {
    const error = await lookupDns({ domain: 'broken.test' }, { resolver }).catch((e: unknown) => e);
    expect(isNetdiagError(error, 'UPSTREAM_ERROR')).toBe(true);
    expect((error as Error).message).toContain('SERVFAIL');
  });

  test('an answer truncated over UDP and TCP is an upstream error, not "no records"', async () => {
    const error = await lookupDns({ domain: 'truncated.test' }, { resolver }).catch(
      (e: unknown) => e,
    );
    expect(isNetdiagError(error, 'UPSTREAM_ERROR')).toBe(true);
    expect((error as Error).message).toContain('truncated answer (TC bit set) over TCP');
  });

  test('no answer is a timeout', async () => {
    const error = await lookupDns({ domain: 'slow.test' }, { resolver, timeout: 300 }).catch(
      (e: unknown) => e,
    );
    expect(isNetdiagError(error, 'UPSTREAM_TIMEOUT')).toBe(true);
  });
});

describe('bad domains are refused before any query', () => {
  test.each([
    ['', /Missing required parameter "domain"/],
    ['   ', /Missing required parameter "domain"/],
    [`${'a'.repeat(64)}.example`, /longer than 63/],
    [`${'abcdefghi.'.repeat(26)}example`, /too long/],
    ['a..example', /empty label/],
    ['-bad-.example', /invalid label/],
    ['bad_label!.example', /invalid label/],
    ['localhost', /fully qualified/],
    ['192.0.2.1', /not an IP address/],
    ['[2001:db8::1]', /not an IP address/],
  ])('%j', async (domain, message) => {
    const before = server.queries.length;
    const error = await lookupDns({ domain }, { resolver }).catch((e: unknown) => e);
    expect(isNetdiagError(error, 'INVALID_INPUT')).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect(server.queries.length).toBe(before);
  });
});
