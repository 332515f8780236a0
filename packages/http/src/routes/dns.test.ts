/** `/api/dns`, `/api/v1/dns/:domain`, `/api/rdns`, `/api/blacklist` against a loopback DNS server. */
import { DNSBL_ZONES, dnsblQueryName, INVALID_IP_MESSAGE } from '@netdiag/core';
import { type DnsTestServer, startDnsServer, type Zone } from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectMatchesSchema } from '../../test/expect-schema.js';
import { createApp } from '../app.js';
import { closeContext } from '../context.js';
import { ROUTES } from './index.js';

const zone: Zone = {
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
  '10.2.0.192.in-addr.arpa': { PTR: ['mail.example.test'] },
  'mail.example.test': { A: ['192.0.2.10'] },
  '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa': {
    PTR: ['v6.example.test'],
  },
  'servfail.test': { A: ['192.0.2.1'] },
  'silent.test': { A: ['192.0.2.1'] },
};
for (const list of DNSBL_ZONES) {
  zone[dnsblQueryName('127.0.0.2', list.zone)] = { A: ['127.0.0.2'], TXT: ['test point'] };
}
zone[dnsblQueryName('198.51.100.1', 'zen.spamhaus.org')] = { A: ['127.255.255.254'] };

let dns: DnsTestServer;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  dns = await startDnsServer({
    zone,
    onQuery: (q) =>
      q.name === 'servfail.test' || q.name.startsWith('9.100.51.198.')
        ? 'servfail'
        : q.name === 'silent.test'
          ? 'drop'
          : undefined,
  });
  app = createApp({ logLevel: 'silent', dnsServers: [dns.address] });
});
afterAll(async () => {
  await closeContext(app.locals.netdiag);
  await dns.close();
});

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
};

/** The first place where `value` is not what `schema` says (undocumented key, wrong type…). */
function undescribed(value: unknown, schema: Schema, path = 'data'): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const actual =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : Number.isInteger(value)
          ? 'integer'
          : typeof value;
  const ok = types.includes(actual) || (actual === 'integer' && types.includes('number'));
  if (types.length && !ok) return `${path}: ${actual} is not ${types.join('|')}`;
  if (schema.enum && !schema.enum.includes(value)) return `${path}: ${String(value)} not in enum`;
  if (Array.isArray(value) && schema.items) {
    for (const [i, item] of value.entries()) {
      const bad = undescribed(item, schema.items, `${path}[${i}]`);
      if (bad) return bad;
    }
  }
  if (actual === 'object' && schema.properties) {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) return `${path}.${key} missing`;
    for (const [key, sub] of Object.entries(record)) {
      const property = schema.properties[key];
      if (!property) return `${path}.${key} is not documented`;
      const bad = undescribed(sub, property, `${path}.${key}`);
      if (bad) return bad;
    }
  }
  return undefined;
}

const schemaOf = (path: string) => ROUTES.find((r) => r.path === path)?.data as Schema;

const V0_CASES: [string, string, string][] = [
  ['example.test', 'A', '192.0.2.10'],
  ['example.test', 'AAAA', '2001:db8::10'],
  ['example.test', 'MX', '10 mail.example.test.'],
  ['example.test', 'NS', 'ns1.example.test.'],
  ['example.test', 'TXT', '"v=spf1 -all"'],
  ['www.example.test', 'CNAME', 'example.test.'],
  ['example.test', 'CAA', '0 issue "ca.example"'],
  ['example.test', 'SOA', 'ns1.example.test. hostmaster.example.test. 7 7200 900 1209600 120'],
];
const V1_CASES: [string, string, string][] = [
  ...V0_CASES,
  ['_sip._tcp.example.test', 'SRV', '10 60 5060 sip.example.test.'],
  ['10.2.0.192.in-addr.arpa', 'PTR', 'mail.example.test.'],
];

describe('GET /api/dns', () => {
  test.each(V0_CASES)('%s %s', async (domain, type, data) => {
    const res = await request(app).get('/api/dns').query({ domain, type });
    expectMatchesSchema('dnsLookup', res.body);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body).toEqual({
      success: true,
      data: {
        domain,
        type,
        rcode: 'NOERROR',
        records: [{ name: domain, type: expect.any(Number), TTL: expect.any(Number), data }],
      },
    });
    expect(undescribed(res.body.data, schemaOf('/api/dns'))).toBeUndefined();
  });

  test('no type means A; a CNAME chain is returned whole', async () => {
    const res = await request(app).get('/api/dns?domain=www.example.test');
    expectMatchesSchema('dnsLookup', res.body);
    expect(res.body.data.type).toBe('A');
    expect(res.body.data.records).toEqual([
      { name: 'www.example.test', type: 5, TTL: 60, data: 'example.test.' },
      { name: 'example.test', type: 1, TTL: 300, data: '192.0.2.10' },
    ]);
  });

  test('NXDOMAIN: 200, records [] and rcode', async () => {
    const res = await request(app).get('/api/dns?domain=nothing.example.test&type=TXT');
    expectMatchesSchema('dnsLookup', res.body);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      domain: 'nothing.example.test',
      type: 'TXT',
      rcode: 'NXDOMAIN',
      records: [],
    });
  });

  test.each(['SRV', 'PTR', 'ANY', 'bogus'])('type=%s → 400 naming the allowed types', async (t) => {
    const res = await request(app).get(`/api/dns?domain=example.test&type=${t}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: expect.stringContaining('A, AAAA, MX, NS, TXT, CNAME, CAA, SOA'),
    });
  });

  test.each([
    ['', /Missing required parameter "domain"/],
    ['domain=', /Missing required parameter "domain"/],
    ['domain=%20', /Missing required parameter "domain"/],
    [`domain=${'a'.repeat(64)}.test`, /longer than 63/],
    [`domain=${'abcdefghi.'.repeat(26)}test`, /too long/],
    ['domain=a..test', /empty label/],
    ['domain=-x-.test', /invalid label/],
    ['domain=192.0.2.1', /not an IP address/],
    ['domain=a.test&domain=b.test', /given once/],
  ])('%s → 400', async (query, message) => {
    const res = await request(app).get(`/api/dns?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toMatch(message);
  });

  test('SERVFAIL → 502 naming DNS', async () => {
    const res = await request(app).get('/api/dns?domain=servfail.test');
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(/dns.*SERVFAIL/i);
  });

  test('no answer → 504', async () => {
    const res = await request(app).get('/api/dns?domain=silent.test');
    expect(res.status).toBe(504);
    expect(res.body.error).toMatch(/dns/);
  });
});

describe('GET /api/v1/dns/:domain', () => {
  test.each(V1_CASES)('%s %s', async (domain, type, data) => {
    const res = await request(app).get(`/api/v1/dns/${domain}?type=${type.toLowerCase()}`);
    expectMatchesSchema('dnsLookupV1', res.body);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      domain,
      type,
      rcode: 'NOERROR',
      records: [{ name: `${domain}.`, type: expect.any(Number), ttl: expect.any(Number), data }],
      authority: [],
      // The loopback fixture does not validate: no AD flag, no Extended DNS Errors.
      authenticated: false,
    });
    expect(undescribed(res.body.data, schemaOf('/api/v1/dns/:domain'))).toBeUndefined();
  });

  test('NXDOMAIN shows the SOA in authority, in the v1 record shape', async () => {
    const res = await request(app).get('/api/v1/dns/none.example.test');
    expectMatchesSchema('dnsLookupV1', res.body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ rcode: 'NXDOMAIN', records: [] });
    expect(res.body.data.authority).toEqual([
      {
        name: 'example.test.',
        type: 6,
        ttl: 300,
        data: 'ns1.example.test. hostmaster.example.test. 7 7200 900 1209600 120',
      },
    ]);
  });

  test.each([
    ['192.0.2.1', 'A', /not an IP address/],
    ['example.test', 'ANY', /A, AAAA, CNAME, MX, NS, TXT, SOA, SRV, CAA, PTR/],
    ['x_y!.test', 'A', /invalid label/],
  ])('%s type %s → 400', async (domain, type, message) => {
    const res = await request(app).get(`/api/v1/dns/${encodeURIComponent(domain)}?type=${type}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });
});

describe('GET /api/rdns', () => {
  test('IPv4 with FCrDNS', async () => {
    const res = await request(app).get('/api/rdns?ip=192.0.2.10');
    expectMatchesSchema('reverseDns', res.body);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      ip: '192.0.2.10',
      hostname: 'mail.example.test',
      ptr_record: '10.2.0.192.in-addr.arpa',
      hostnames: ['mail.example.test'],
      fcrdns: true,
      rcode: 'NOERROR',
    });
    expect(undescribed(res.body.data, schemaOf('/api/rdns'))).toBeUndefined();
  });

  test('IPv6 nibbles; unconfirmed when the name has no AAAA', async () => {
    const res = await request(app).get('/api/rdns?ip=2001:db8::1');
    expectMatchesSchema('reverseDns', res.body);
    expect(res.body.data).toMatchObject({
      hostname: 'v6.example.test',
      ptr_record: '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
      fcrdns: false,
    });
  });

  test('no PTR: hostname ""', async () => {
    const res = await request(app).get('/api/rdns?ip=203.0.113.1');
    expectMatchesSchema('reverseDns', res.body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ hostname: '', rcode: 'NXDOMAIN' });
  });

  test.each(['', 'ip=', 'ip=example.com', 'ip=1.2.3.256'])('%s → 400', async (query) => {
    const res = await request(app).get(`/api/rdns?${query}`);
    expect(res.status).toBe(400);
    if (query.length > 3) expect(res.body.error).toBe(INVALID_IP_MESSAGE);
  });
});

describe('GET /api/blacklist', () => {
  test('127.0.0.2 is listed on all 12 lists', async () => {
    const res = await request(app).get('/api/blacklist?ip=127.0.0.2');
    expectMatchesSchema('blacklist', res.body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      ip: '127.0.0.2',
      total_lists: 12,
      total_checked: 12,
      unavailable_count: 0,
      listed_count: 12,
      clean: false,
      status: 'LISTED',
    });
    expect(res.body.data.results[1]).toEqual({
      name: 'SpamCop',
      zone: 'bl.spamcop.net',
      listed: true,
      status: 'listed',
      response: ['127.0.0.2'],
      reason: 'test point',
      meaning: ['listed: reported spam source'],
    });
    expect(undescribed(res.body.data, schemaOf('/api/blacklist'))).toBeUndefined();
  });

  test('Spamhaus "refused" (127.255.255.254) is unavailable, not listed', async () => {
    const res = await request(app).get('/api/blacklist?ip=198.51.100.1');
    expectMatchesSchema('blacklist', res.body);
    expect(res.body.data).toMatchObject({
      status: 'CLEAN',
      clean: true,
      listed_count: 0,
      unavailable_count: 1,
      total_checked: 11,
    });
    expect(res.body.data.results[0]).toMatchObject({
      status: 'error',
      listed: false,
      response: ['127.255.255.254'],
    });
  });

  test('IPv6: the lists without IPv6 support are skipped', async () => {
    const res = await request(app).get('/api/blacklist?ip=2001:db8::99');
    expectMatchesSchema('blacklist', res.body);
    expect(res.body.data).toMatchObject({ total_checked: 3, skipped_count: 9, status: 'CLEAN' });
  });

  test('no list answered (every list SERVFAIL): 502 naming the lists, never CLEAN', async () => {
    const res = await request(app).get('/api/blacklist?ip=198.51.100.9');
    expect(res.status).toBe(502);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toMatch(
      /^Upstream dnsbl failed: none of the 12 DNSBLs gave a usable answer/,
    );
    expect(res.body.error).toContain('Spamhaus ZEN');
  });

  test.each(['', 'ip=', 'ip=not-an-ip', 'ip=10.0.0.0/8'])('%s → 400', async (query) => {
    const res = await request(app).get(`/api/blacklist?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });
});

test('the four paths are in the OpenAPI document', async () => {
  const res = await request(app).get('/api/openapi.json');
  for (const path of ['/api/dns', '/api/v1/dns/{domain}', '/api/rdns', '/api/blacklist']) {
    expect(res.body.paths[path]?.get).toBeDefined();
  }
});
