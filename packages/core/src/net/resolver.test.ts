import dgram from 'node:dgram';
import {
  type DnsTestServer,
  startDnsServer,
  startHttpTarget,
  type Zone,
} from '@netdiag/test-utils';
import * as packet from 'dns-packet';
import { afterEach, describe, expect, test } from 'vitest';
import { isNetdiagError, UpstreamError } from '../errors.js';
import { createMemoryCache } from './cache.js';
import type { RecordType } from './dns-types.js';
import { createResolver, TruncatedAnswerError } from './resolver.js';
import { createUdpSocketPool } from './resolver-socket-pool.js';

const ZONE: Zone = {
  'example.test': {
    A: ['192.0.2.10', '192.0.2.11'],
    AAAA: ['2001:db8::10', '2001:db8:0:1:0:0:0:1'],
    MX: [
      { preference: 10, exchange: 'mail.example.test' },
      { preference: 20, exchange: 'backup.example.test' },
    ],
    NS: ['ns1.example.test', 'ns2.example.test'],
    TXT: ['v=spf1 -all', ['part one ', 'part "two"'], 'back\\slash'],
    SOA: {
      mname: 'ns1.example.test',
      rname: 'hostmaster.example.test',
      serial: 2026010101,
      refresh: 7200,
      retry: 900,
      expire: 1209600,
      minimum: 120,
    },
    CAA: [
      { flags: 0, tag: 'issue', value: 'ca.example' },
      { flags: 128, tag: 'iodef', value: 'mailto:security@example.test' },
    ],
    ttl: 300,
  },
  'www.example.test': { CNAME: 'example.test', ttl: 60 },
  '_sip._tcp.example.test': {
    SRV: [{ priority: 10, weight: 60, port: 5060, target: 'sip.example.test' }],
  },
  '10.2.0.192.in-addr.arpa': { PTR: ['host.example.test'] },
  'short.example.test': { A: ['192.0.2.1'], ttl: 5 },
  'big.example.test': { TXT: Array.from({ length: 20 }, (_, i) => `${'x'.repeat(90)}${i}`) },
  'medium.example.test': { TXT: Array.from({ length: 8 }, (_, i) => `${'y'.repeat(90)}${i}`) },
};

const servers: DnsTestServer[] = [];
async function fixture(options: Parameters<typeof startDnsServer>[0] = {}) {
  const server = await startDnsServer({ zone: ZONE, ...options });
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** `dig +short` output for ZONE, written by hand from BIND's presentation rules. */
const PRESENTATION: [string, RecordType, string[]][] = [
  ['example.test', 'A', ['192.0.2.10', '192.0.2.11']],
  ['example.test', 'AAAA', ['2001:db8::10', '2001:db8:0:1::1']],
  ['example.test', 'MX', ['10 mail.example.test.', '20 backup.example.test.']],
  ['example.test', 'NS', ['ns1.example.test.', 'ns2.example.test.']],
  ['example.test', 'TXT', ['"v=spf1 -all"', '"part one " "part \\"two\\""', '"back\\\\slash"']],
  [
    'example.test',
    'SOA',
    ['ns1.example.test. hostmaster.example.test. 2026010101 7200 900 1209600 120'],
  ],
  ['example.test', 'CAA', ['0 issue "ca.example"', '128 iodef "mailto:security@example.test"']],
  ['www.example.test', 'CNAME', ['example.test.']],
  ['_sip._tcp.example.test', 'SRV', ['10 60 5060 sip.example.test.']],
  ['10.2.0.192.in-addr.arpa', 'PTR', ['host.example.test.']],
];

describe('createResolver over the loopback fixture', () => {
  test.each(PRESENTATION)('%s %s is presented like dig +short', async (name, type, expected) => {
    const server = await fixture();
    const resolver = createResolver({ servers: [server.address], cache: false });
    const response = await resolver.query(name, type);
    expect(response.rcode).toBe('NOERROR');
    expect(response.answers.map((r) => r.data)).toEqual(expected);
    expect(response.answers.every((r) => r.type === type && r.name === name)).toBe(true);
    expect(response.server).toBe(server.address);
    expect(response.transport).toBe('udp');
  });

  test('structured values and type codes', async () => {
    const server = await fixture();
    const resolver = createResolver({ servers: [server.address], cache: false });
    const mx = await resolver.query('example.test', 'MX');
    expect(mx.answers[0]).toMatchObject({
      typeCode: 15,
      ttl: 300,
      value: { preference: 10, exchange: 'mail.example.test' },
    });
    const txt = await resolver.query('example.test', 'TXT');
    expect(txt.answers[1]?.value).toEqual(['part one ', 'part "two"']);
    const caa = await resolver.query('example.test', 'CAA');
    expect(caa.answers[0]).toMatchObject({ typeCode: 257, value: { flags: 0, tag: 'issue' } });
    const srv = await resolver.query('_sip._tcp.example.test', 'SRV');
    expect(srv.answers[0]?.value).toEqual({
      priority: 10,
      weight: 60,
      port: 5060,
      target: 'sip.example.test',
    });
  });

  test('a CNAME chain comes back as the server sends it', async () => {
    const server = await fixture();
    const resolver = createResolver({ servers: [server.address], cache: false });
    const response = await resolver.query('WWW.Example.Test.', 'A');
    expect(response.name).toBe('www.example.test');
    expect(response.answers.map((r) => [r.type, r.name, r.data])).toEqual([
      ['CNAME', 'www.example.test', 'example.test.'],
      ['A', 'example.test', '192.0.2.10'],
      ['A', 'example.test', '192.0.2.11'],
    ]);
  });

  test('NXDOMAIN is an answer with its rcode and the SOA in the authority section', async () => {
    const server = await fixture();
    const resolver = createResolver({ servers: [server.address], cache: false });
    const response = await resolver.query('missing.example.test', 'A');
    expect(response.rcode).toBe('NXDOMAIN');
    expect(response.answers).toEqual([]);
    expect(response.authority[0]).toMatchObject({ type: 'SOA', name: 'example.test' });
  });

  test('an answer larger than 512 bytes arrives over UDP thanks to EDNS0', async () => {
    const server = await fixture();
    const resolver = createResolver({ servers: [server.address], cache: false });
    const response = await resolver.query('medium.example.test', 'TXT');
    expect(response.answers).toHaveLength(8);
    expect(response.transport).toBe('udp');
    expect(server.queries.map((q) => q.transport)).toEqual(['udp']);
  });

  test('tcp: true asks over TCP from the start (dig +tcp)', async () => {
    const server = await fixture();
    const resolver = createResolver({ servers: [server.address], cache: false, tcp: true });
    const response = await resolver.query('medium.example.test', 'TXT');
    expect(response.answers).toHaveLength(8);
    expect(response.transport).toBe('tcp');
    expect(server.queries.map((q) => q.transport)).toEqual(['tcp']);
  });

  test('a truncated answer is asked again over TCP', async () => {
    const server = await fixture();
    const resolver = createResolver({ servers: [server.address], cache: false });
    const response = await resolver.query('big.example.test', 'TXT');
    expect(response.answers).toHaveLength(20);
    expect(response.transport).toBe('tcp');
    expect(server.queries.map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });

  test('without EDNS a 1 KiB answer is truncated and fetched over TCP', async () => {
    const server = await fixture();
    const resolver = createResolver({ servers: [server.address], cache: false, edns: false });
    const response = await resolver.query('medium.example.test', 'TXT');
    expect(response.transport).toBe('tcp');
    expect(response.answers).toHaveLength(8);
  });

  test('the TC flag alone triggers the TCP retry', async () => {
    const server = await fixture({
      onQuery: (q) => (q.transport === 'udp' ? 'truncate' : undefined),
    });
    const resolver = createResolver({ servers: [server.address], cache: false });
    const response = await resolver.query('example.test', 'A');
    expect(response.transport).toBe('tcp');
    expect(response.answers.map((r) => r.data)).toEqual(['192.0.2.10', '192.0.2.11']);
  });

  test('a truncated answer over TCP too (TC on UDP and TCP) is an UpstreamError, not "no records"', async () => {
    const server = await fixture({ onQuery: () => 'truncate' });
    const resolver = createResolver({ servers: [server.address], cache: false, tries: 2 });
    const error = await resolver.query('example.test', 'A').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toBeInstanceOf(TruncatedAnswerError);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'dns' });
    expect((error as Error).message).toBe(
      '[netdiag] [dns] the DNS server sent a truncated answer (TC bit set) over TCP for ' +
        'example.test A; the full answer cannot be obtained, so the records are unknown',
    );
    // The address is kept out of the message (an API client must not see it) but carried.
    expect((error as UpstreamError).server).toBe(server.address);
    // Asked once over each transport: a second round would only repeat the truncation.
    expect(server.queries.map((q) => q.transport)).toEqual(['udp', 'tcp']);
  });

  test('a server truncating over TCP is skipped for the next one', async () => {
    const broken = await fixture({ onQuery: () => 'truncate' });
    const good = await fixture();
    const resolver = createResolver({ servers: [broken.address, good.address], cache: false });
    const response = await resolver.query('example.test', 'A');
    expect(response.server).toBe(good.address);
    expect(response.answers.map((r) => r.data)).toEqual(['192.0.2.10', '192.0.2.11']);
  });

  test('a truncated TCP answer is not cached', async () => {
    const server = await fixture({ onQuery: () => 'truncate' });
    const resolver = createResolver({ servers: [server.address], cache: createMemoryCache() });
    await expect(resolver.query('example.test', 'A')).rejects.toBeInstanceOf(TruncatedAnswerError);
    await expect(resolver.query('example.test', 'A')).rejects.toBeInstanceOf(TruncatedAnswerError);
    expect(server.queries).toHaveLength(4);
  });

  test.each(['spoof-id', 'spoof-question'] as const)(
    'a forged answer (%s) is ignored and the genuine one used',
    async (action) => {
      const server = await fixture({ onQuery: () => action });
      const resolver = createResolver({ servers: [server.address], cache: false });
      const response = await resolver.query('example.test', 'A');
      expect(response.answers.map((r) => r.data)).toEqual(['192.0.2.10', '192.0.2.11']);
    },
  );

  test('a server that does not answer is skipped for the next one', async () => {
    const dead = await fixture({ onQuery: () => 'drop' });
    const live = await fixture();
    const resolver = createResolver({
      servers: [dead.address, live.address],
      attemptTimeout: 150,
      cache: false,
    });
    const response = await resolver.query('example.test', 'A');
    expect(response.server).toBe(live.address);
    expect(dead.queries).toHaveLength(1);
    expect(live.queries).toHaveLength(1);
  });

  test.each(['servfail', 'refused'] as const)(
    'a %s answer moves on to the next server',
    async (action) => {
      const bad = await fixture({ onQuery: () => action });
      const good = await fixture();
      const resolver = createResolver({ servers: [bad.address, good.address], cache: false });
      const response = await resolver.query('example.test', 'A');
      expect(response.rcode).toBe('NOERROR');
      expect(response.server).toBe(good.address);
    },
  );

  test('SERVFAIL from every server is returned as such, each server asked once', async () => {
    const a = await fixture({ onQuery: () => 'servfail' });
    const b = await fixture({ onQuery: () => 'servfail' });
    const resolver = createResolver({ servers: [a.address, b.address], cache: false });
    const response = await resolver.query('example.test', 'A');
    expect(response.rcode).toBe('SERVFAIL');
    expect(a.queries.length + b.queries.length).toBe(2);
  });

  test('no answer from any server is a TimeoutError after the rounds of attempts', async () => {
    const a = await fixture({ onQuery: () => 'drop' });
    const b = await fixture({ onQuery: () => 'drop' });
    const resolver = createResolver({
      servers: [a.address, b.address],
      attemptTimeout: 100,
      tries: 2,
      cache: false,
    });
    const started = Date.now();
    const error = await resolver.query('example.test', 'A').catch((e: unknown) => e);
    expect(isNetdiagError(error, 'UPSTREAM_TIMEOUT')).toBe(true);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(a.queries).toHaveLength(2);
    expect(b.queries).toHaveLength(2);
  });

  test("the caller's timeout bounds the query", async () => {
    const server = await fixture({ onQuery: () => 'drop' });
    const resolver = createResolver({ servers: [server.address], cache: false });
    const started = Date.now();
    const error = await resolver
      .query('example.test', 'A', { timeout: 200 })
      .catch((e: unknown) => e);
    expect(isNetdiagError(error, 'UPSTREAM_TIMEOUT')).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('hundreds of queries in flight share one timer (no timer, signal or listener per query)', async () => {
    const server = await fixture({ onQuery: () => 'drop' });
    const resolver = createResolver({
      servers: [server.address],
      cache: false,
      attemptTimeout: 300,
      tries: 1,
      timeout: 2_000,
    });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const pending = Array.from({ length: 300 }, (_, i) =>
      resolver.query(`q${i}.example.test`, 'A').catch((e: unknown) => e),
    );
    await new Promise((r) => setTimeout(r, 50));
    // One timer for every attempt and budget of every query (deadlines.ts); the old design had
    // three timers and two abort signals per query.
    expect(timers() - before).toBeLessThanOrEqual(1);
    const errors = await Promise.all(pending);
    expect(errors.every((e) => isNetdiagError(e, 'UPSTREAM_TIMEOUT'))).toBe(true);
  });

  test("the caller's signal aborts the query", async () => {
    const server = await fixture({ onQuery: () => 'drop' });
    const resolver = createResolver({ servers: [server.address], cache: false });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await resolver
      .query('example.test', 'A', { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(isNetdiagError(error, 'ABORTED')).toBe(true);
  });

  test('a closed port fails fast and the next server answers', async () => {
    const closed = await fixture();
    const address = closed.address;
    await closed.close();
    servers.splice(servers.indexOf(closed), 1);
    const live = await fixture();
    const resolver = createResolver({
      servers: [address, live.address],
      attemptTimeout: 3000,
      cache: false,
    });
    const started = Date.now();
    const response = await resolver.query('example.test', 'A');
    expect(response.server).toBe(live.address);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test('an IPv6 server written [::1]:port', async () => {
    const server = await fixture({ host: '::1' });
    expect(server.address).toMatch(/^\[::1\]:\d+$/);
    const resolver = createResolver({ servers: [server.address], cache: false });
    const response = await resolver.query('example.test', 'AAAA');
    expect(response.server).toBe(server.address);
    expect(response.answers.map((r) => r.data)).toEqual(['2001:db8::10', '2001:db8:0:1::1']);
  });

  test('names that cannot be sent are refused before any packet', async () => {
    const server = await fixture();
    const resolver = createResolver({ servers: [server.address], cache: false });
    for (const name of ['', 'a..b', `${'a'.repeat(64)}.test`, `${'a.'.repeat(127)}test`]) {
      const error = await resolver.query(name, 'A').catch((e: unknown) => e);
      expect(isNetdiagError(error, 'INVALID_INPUT')).toBe(true);
    }
    expect(server.queries).toHaveLength(0);
  });

  test('bad server addresses are a ConfigError', () => {
    expect(() => createResolver({ servers: ['dns.example'] })).toThrow(/ip, ip:port/);
    expect(() => createResolver({ servers: ['127.0.0.1:99999'] })).toThrow(/ip, ip:port/);
  });
});

describe('the cache', () => {
  function clocked(server: DnsTestServer) {
    let time = 1_000_000;
    const now = () => time;
    const resolver = createResolver({
      servers: [server.address],
      now,
      cache: createMemoryCache({ now }),
    });
    return { resolver, advance: (s: number) => (time += s * 1000) };
  }

  test('a hit is served without a packet, with TTLs aged, until the TTL runs out', async () => {
    const server = await fixture();
    const { resolver, advance } = clocked(server);
    const first = await resolver.query('short.example.test', 'A');
    expect(first.answers[0]?.ttl).toBe(5);
    advance(3);
    const second = await resolver.query('short.example.test', 'A');
    expect(second.transport).toBe('cache');
    expect(second.answers[0]?.ttl).toBe(2);
    expect(server.queries).toHaveLength(1);
    advance(2);
    const third = await resolver.query('short.example.test', 'A');
    expect(third.transport).toBe('udp');
    expect(server.queries).toHaveLength(2);
  });

  test('NXDOMAIN is cached for min(SOA TTL, SOA minimum) (RFC 2308 §5)', async () => {
    const server = await fixture();
    const { resolver, advance } = clocked(server);
    await resolver.query('nope.example.test', 'A');
    advance(119);
    expect((await resolver.query('nope.example.test', 'A')).transport).toBe('cache');
    advance(1);
    expect((await resolver.query('nope.example.test', 'A')).transport).toBe('udp');
    expect(server.queries).toHaveLength(2);
  });

  test('SERVFAIL is not cached', async () => {
    const server = await fixture({ onQuery: () => 'servfail' });
    const { resolver } = clocked(server);
    await resolver.query('example.test', 'A');
    await resolver.query('example.test', 'A');
    expect(server.queries).toHaveLength(2);
  });

  test('identical concurrent queries share one exchange', async () => {
    const server = await fixture({ delayMs: 50 });
    const resolver = createResolver({ servers: [server.address] });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => resolver.query('example.test', 'A')),
    );
    expect(server.queries).toHaveLength(1);
    expect(new Set(answers.map((a) => a.answers.length))).toEqual(new Set([2]));
  });

  test('one caller giving up does not cancel the shared exchange for the others', async () => {
    const server = await fixture({ delayMs: 150 });
    const resolver = createResolver({ servers: [server.address] });
    const impatient = resolver.query('example.test', 'A', { timeout: 30 });
    const patient = resolver.query('example.test', 'A');
    await expect(impatient).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    expect((await patient).answers).toHaveLength(2);
    expect(server.queries).toHaveLength(1);
  });
});

/** A DoH endpoint (RFC 8484) that relays the wire message to the UDP fixture. */
async function startDoh(upstream: DnsTestServer, contentType = 'application/dns-message') {
  const relay = (query: Buffer) =>
    new Promise<Buffer>((resolve, reject) => {
      const socket = dgram.createSocket('udp4');
      socket.on('message', (msg) => {
        socket.close();
        resolve(msg);
      });
      socket.on('error', reject);
      socket.bind(0, '127.0.0.1', () => socket.send(query, upstream.port, upstream.host));
    });
  const methods: string[] = [];
  const target = await startHttpTarget({
    routes: {
      '/dns-query': (req, res) => {
        methods.push(`${req.method} ${req.headers['content-type'] ?? ''}`);
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const url = new URL(req.url ?? '/', 'http://x');
          const body =
            req.method === 'GET'
              ? Buffer.from(url.searchParams.get('dns') ?? '', 'base64url')
              : Buffer.concat(chunks);
          void relay(body).then((answer) => {
            res.writeHead(200, { 'content-type': contentType }).end(answer);
          });
        });
      },
    },
  });
  return { target, methods, url: `${target.url}/dns-query` };
}

describe('DNS-over-HTTPS (RFC 8484 wire format)', () => {
  test.each(['POST', 'GET'] as const)('%s', async (method) => {
    const server = await fixture();
    const doh = await startDoh(server);
    try {
      const resolver = createResolver({ dohUrl: doh.url, dohMethod: method, cache: false });
      const response = await resolver.query('example.test', 'MX');
      expect(response.transport).toBe('doh');
      expect(response.server).toBe(doh.url);
      expect(response.answers.map((r) => r.data)).toEqual([
        '10 mail.example.test.',
        '20 backup.example.test.',
      ]);
      expect(doh.methods[0]).toBe(method === 'POST' ? 'POST application/dns-message' : 'GET ');
    } finally {
      await doh.target.close();
    }
  });

  test('a truncated DoH answer (no TCP to retry on) is an UpstreamError', async () => {
    const server = await fixture({ onQuery: () => 'truncate' });
    const doh = await startDoh(server);
    try {
      const resolver = createResolver({ dohUrl: doh.url, cache: false });
      const error = await resolver.query('example.test', 'A').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TruncatedAnswerError);
      expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'dns' });
      expect((error as Error).message).toContain(
        'truncated answer (TC bit set) over DNS-over-HTTPS',
      );
      expect(doh.methods).toHaveLength(1);
    } finally {
      await doh.target.close();
    }
  });

  test('a DoH answer that is not application/dns-message is an upstream error', async () => {
    const server = await fixture();
    const doh = await startDoh(server, 'text/html');
    try {
      const resolver = createResolver({ dohUrl: doh.url, cache: false, tries: 1 });
      await expect(resolver.query('example.test', 'A')).rejects.toMatchObject({
        code: 'UPSTREAM_ERROR',
      });
    } finally {
      await doh.target.close();
    }
  });
});

/** A raw UDP responder that records each query (id, source port, flags, OPT) and answers it. */
async function rawServer(reply: (query: packet.DecodedPacket) => packet.Packet | undefined) {
  const socket = dgram.createSocket('udp4');
  const seen: { id: number; port: number; flags: number; opt: packet.Answer | undefined }[] = [];
  socket.on('message', (msg, rinfo) => {
    const query = packet.decode(msg);
    seen.push({
      id: query.id ?? -1,
      port: rinfo.port,
      flags: query.flags ?? 0,
      opt: query.additionals?.find((a) => a.type === 'OPT'),
    });
    const answer = reply(query);
    if (answer) socket.send(packet.encode(answer), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const address = `127.0.0.1:${socket.address().port}`;
  return { address, seen, close: () => new Promise<void>((r) => socket.close(() => r())) };
}

const answerA = (query: packet.DecodedPacket, flags = 0): packet.Packet => ({
  id: query.id ?? 0,
  type: 'response',
  flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | flags,
  questions: query.questions ?? [],
  answers: [{ type: 'A', name: query.questions?.[0]?.name ?? '', ttl: 60, data: '192.0.2.1' }],
});

describe('what goes on the wire', () => {
  test('RD and AD set, EDNS0 offering 1232 bytes, a random id and source port per query', async () => {
    const server = await rawServer((q) => answerA(q));
    // A pool of its own: the shared one may still hold sockets to an earlier test's server
    // that had the same port, which would count fewer new ports here.
    const udpPool = createUdpSocketPool();
    try {
      const resolver = createResolver({ servers: [server.address], cache: false, udpPool });
      for (let i = 0; i < 20; i++) await resolver.query(`n${i}.example.test`, 'A');
      expect(server.seen).toHaveLength(20);
      for (const q of server.seen) {
        expect(q.flags & packet.RECURSION_DESIRED).toBeTruthy();
        expect(q.flags & packet.AUTHENTIC_DATA).toBeTruthy();
        expect(q.opt).toMatchObject({ udpPayloadSize: 1232 });
      }
      expect(new Set(server.seen.map((q) => q.id)).size).toBeGreaterThan(15);
      expect(new Set(server.seen.map((q) => q.port)).size).toBeGreaterThan(15);
    } finally {
      udpPool.close();
      await server.close();
    }
  });

  test('the AD flag of the answer is reported as authenticated', async () => {
    const server = await rawServer((q) =>
      answerA(q, q.questions?.[0]?.name === 'signed.test' ? packet.AUTHENTIC_DATA : 0),
    );
    try {
      const resolver = createResolver({ servers: [server.address], cache: false });
      expect((await resolver.query('signed.test', 'A')).authenticated).toBe(true);
      expect((await resolver.query('plain.test', 'A')).authenticated).toBe(false);
    } finally {
      await server.close();
    }
  });

  test('FORMERR to an EDNS query is retried without EDNS (RFC 6891 §7)', async () => {
    const server = await rawServer((q) =>
      q.additionals?.some((a) => a.type === 'OPT')
        ? { ...answerA(q), answers: [], flags: 1 /* FORMERR */ }
        : answerA(q),
    );
    try {
      const resolver = createResolver({ servers: [server.address], cache: false });
      const response = await resolver.query('old.example.test', 'A');
      expect(response.answers.map((r) => r.data)).toEqual(['192.0.2.1']);
      expect(server.seen.map((q) => q.opt !== undefined)).toEqual([true, false]);
    } finally {
      await server.close();
    }
  });

  test('an answer for another type is ignored until the timeout', async () => {
    const server = await rawServer((q) => ({
      ...answerA(q),
      questions: [{ type: 'AAAA', name: q.questions?.[0]?.name ?? '' }],
    }));
    try {
      const resolver = createResolver({
        servers: [server.address],
        cache: false,
        attemptTimeout: 100,
        tries: 1,
      });
      await expect(resolver.query('x.example.test', 'A')).rejects.toMatchObject({
        code: 'UPSTREAM_TIMEOUT',
      });
    } finally {
      await server.close();
    }
  });
});
