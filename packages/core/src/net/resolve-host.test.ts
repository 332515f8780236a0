import net from 'node:net';
import tls from 'node:tls';
import {
  makeSelfSignedCert,
  opensslAvailable,
  startDnsServer,
  startHttpTarget,
} from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import type { DnsResolver, DnsResponse, RecordType } from './dns-types.js';
import { resolverAgent, upstreamRequest } from './http-client.js';
import { resolveHost, resolverLookup } from './resolve-host.js';
import { createResolver } from './resolver.js';
import { loadUndici } from './undici.js';

/** A resolver from a table: name → type → addresses, or an Error to throw. */
function fakeResolver(table: Record<string, Partial<Record<RecordType, string[] | Error>>>) {
  const asked: string[] = [];
  const resolver: DnsResolver = {
    async query(name, type) {
      asked.push(`${name} ${type}`);
      const entry = table[name]?.[type];
      if (entry instanceof Error) throw entry;
      const response: DnsResponse = {
        name,
        type,
        rcode: table[name] ? 'NOERROR' : 'NXDOMAIN',
        answers: [
          // A CNAME ahead of the addresses, as recursive resolvers answer.
          ...(entry?.length
            ? [{ name, type: 'CNAME', typeCode: 5, ttl: 60, data: 'x.', value: 'x' }]
            : []),
          ...(entry ?? []).map((value) => ({
            name,
            type,
            typeCode: type === 'A' ? 1 : 28,
            ttl: 60,
            data: value,
            value,
          })),
        ],
        authority: [],
        authenticated: false,
        server: 'fake',
        transport: 'udp',
      };
      return response;
    },
  };
  return { resolver, asked };
}

describe('resolveHost', () => {
  test('IP literals are not looked up', async () => {
    const { resolver, asked } = fakeResolver({});
    expect(await resolveHost(resolver, '192.0.2.1')).toEqual([{ address: '192.0.2.1', family: 4 }]);
    expect(await resolveHost(resolver, '[2001:db8::1]')).toEqual([
      { address: '2001:db8::1', family: 6 },
    ]);
    expect(asked).toEqual([]);
  });

  test('A and AAAA, families alternating IPv6 first (RFC 8305 §4); CNAMEs skipped', async () => {
    const { resolver, asked } = fakeResolver({
      'dual.test': { A: ['192.0.2.1', '192.0.2.2'], AAAA: ['2001:db8::1'] },
    });
    expect(await resolveHost(resolver, 'dual.test')).toEqual([
      { address: '2001:db8::1', family: 6 },
      { address: '192.0.2.1', family: 4 },
      { address: '192.0.2.2', family: 4 },
    ]);
    expect(asked.sort()).toEqual(['dual.test A', 'dual.test AAAA']);
  });

  test('one family failing does not hide the other', async () => {
    const { resolver } = fakeResolver({
      'v4.test': { A: ['192.0.2.1'], AAAA: new Error('[netdiag] [dns] no answer within 2 ms') },
    });
    expect(await resolveHost(resolver, 'v4.test')).toEqual([{ address: '192.0.2.1', family: 4 }]);
  });

  test('no address: ENOTFOUND with the rcode; DNS failure: EAI_AGAIN', async () => {
    const { resolver } = fakeResolver({
      'empty.test': { A: [], AAAA: [] },
      'broken.test': { A: new Error('[netdiag] [dns] no answer within 5 ms'), AAAA: [] },
    });
    await expect(resolveHost(resolver, 'missing.test')).rejects.toMatchObject({
      code: 'ENOTFOUND',
      hostname: 'missing.test',
      message: 'missing.test has no A or AAAA record (NXDOMAIN)',
    });
    await expect(resolveHost(resolver, 'empty.test')).rejects.toMatchObject({
      code: 'ENOTFOUND',
      message: 'empty.test has no A or AAAA record (NOERROR)',
    });
    await expect(resolveHost(resolver, 'broken.test')).rejects.toMatchObject({
      code: 'EAI_AGAIN',
      message: 'DNS lookup of broken.test failed: no answer within 5 ms',
    });
  });
});

describe('resolverLookup', () => {
  const { resolver } = fakeResolver({
    'dual.test': { A: ['192.0.2.1'], AAAA: ['2001:db8::1'] },
  });
  const lookup = resolverLookup(resolver);
  const call = (options: Parameters<typeof lookup>[1]) =>
    new Promise<unknown[]>((resolve) =>
      lookup('dual.test', options, (...args: unknown[]) => resolve(args)),
    );

  test('one address, or all of them (Happy Eyeballs), honouring family', async () => {
    expect(await call({})).toEqual([null, '2001:db8::1', 6]);
    expect(await call({ family: 4 })).toEqual([null, '192.0.2.1', 4]);
    expect(await call({ all: true })).toEqual([
      null,
      [
        { address: '2001:db8::1', family: 6 },
        { address: '192.0.2.1', family: 4 },
      ],
    ]);
    expect(await call({ all: true, family: 6 })).toEqual([
      null,
      [{ address: '2001:db8::1', family: 6 }],
    ]);
  });

  test('plugs into net.connect: the socket goes to the resolved address', async () => {
    const dns = await startDnsServer({
      zone: { 'svc.test': { A: ['127.0.0.1'], AAAA: ['::1'] } },
    });
    const server = net.createServer((s) => s.end('hello'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const real = createResolver({ servers: [dns.address], cache: false });
      // ::1 refuses (nothing listens there), then 127.0.0.1 answers (RFC 8305 fallback).
      const text = await new Promise<string>((resolve, reject) => {
        const socket = net.connect({ host: 'svc.test', port, lookup: resolverLookup(real) });
        let data = '';
        socket.on('data', (c) => {
          data += c;
        });
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
      expect(text).toBe('hello');
      expect(dns.queries.map((q) => `${q.name} ${q.type}`).sort()).toEqual([
        'svc.test A',
        'svc.test AAAA',
      ]);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await dns.close();
    }
  });
});

describe('upstreamRequest with a resolver', () => {
  test('the name is resolved by the resolver; the Host header keeps it', async () => {
    const dns = await startDnsServer({ zone: { 'api.test': { A: ['127.0.0.1'] } } });
    const hosts: (string | undefined)[] = [];
    const target = await startHttpTarget({
      routes: {
        '/a': (req, res) => {
          hosts.push(req.headers.host);
          res.writeHead(302, { location: '/b' }).end();
        },
        '/b': (req, res) => {
          hosts.push(req.headers.host);
          res.end('ok');
        },
      },
    });
    try {
      const resolver = createResolver({ servers: [dns.address] });
      const url = `http://api.test:${target.port}/a`;
      const response = await upstreamRequest(url, { upstream: 'test', resolver });
      expect(response.status).toBe(200);
      expect(response.body.toString()).toBe('ok');
      expect(response.url).toBe(`http://api.test:${target.port}/b`);
      expect(hosts).toEqual([`api.test:${target.port}`, `api.test:${target.port}`]);
      expect(dns.queries.map((q) => `${q.name} ${q.type}`).sort()).toEqual([
        'api.test A',
        'api.test AAAA',
      ]);
      // One agent per resolver, not one per request.
      const undici = await loadUndici();
      expect(resolverAgent(resolver, undici)).toBe(resolverAgent(resolver, undici));
      expect(resolverAgent(resolver, undici)).not.toBe(resolverAgent(createResolver(), undici));
    } finally {
      await target.close();
      await dns.close();
    }
  });

  test('a name the resolver does not know: an UpstreamError naming the upstream', async () => {
    const dns = await startDnsServer({ zone: {} });
    try {
      const resolver = createResolver({ servers: [dns.address] });
      await expect(
        upstreamRequest('http://nowhere.test:1/', { upstream: 'rdap', resolver }),
      ).rejects.toMatchObject({
        code: 'UPSTREAM_ERROR',
        upstream: 'rdap',
        message: '[netdiag] [rdap] cannot reach the RDAP server: its host name does not resolve',
        server: 'nowhere.test:1',
        cause: expect.objectContaining({
          message: 'nowhere.test has no A or AAAA record (NXDOMAIN)',
        }),
      });
    } finally {
      await dns.close();
    }
  });

  test.skipIf(!opensslAvailable())('HTTPS: TLS SNI carries the name, not the address', async () => {
    const dns = await startDnsServer({ zone: { 'secure.test': { A: ['127.0.0.1'] } } });
    const { key, cert } = makeSelfSignedCert({
      names: ['secure.test'],
      ips: [],
      days: 1,
      organisation: 'Netdiag Test CA',
    });
    const seen: string[] = [];
    const server = tls.createServer({
      key,
      cert,
      SNICallback: (servername, done) => {
        seen.push(servername);
        done(null, tls.createSecureContext({ key, cert }));
      },
    });
    server.on('tlsClientError', () => {});
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const resolver = createResolver({ servers: [dns.address] });
      // The self-signed certificate is not trusted: the request fails after the handshake.
      await expect(
        upstreamRequest(`https://secure.test:${port}/`, { upstream: 'test', resolver }),
      ).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
      expect(seen).toEqual(['secure.test']);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
      await dns.close();
    }
  });
});
