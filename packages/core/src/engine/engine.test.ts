import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type DnsTestServer,
  type HttpTarget,
  startDnsServer,
  startHttpTarget,
  tempDir,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dnsblQueryName } from '../blocklist/query-name.js';
import { DNSBL_ZONES } from '../blocklist/zones.js';
import { lookupDns } from '../dns/lookup-dns.js';
import { lookupAnswer } from '../ip/answers.js';
import { type IpDatasets, loadIpDatasets } from '../ip/datasets.js';
import { type Cache, createMemoryCache } from '../net/cache.js';
import { createResolver } from '../net/resolver.js';
import { createNetdiag } from './engine.js';

const cacheDir = tempDir('netdiag-engine-');
let dns: DnsTestServer;
let tor: HttpTarget;
let torRequests = 0;
let datasets: IpDatasets;
beforeAll(async () => {
  // 198.51.100.9 is listed on the first DNSBL of the table; the others answer NXDOMAIN.
  const first = DNSBL_ZONES[0]?.zone as string;
  dns = await startDnsServer({
    zone: {
      'example.test': { A: ['192.0.2.1'], MX: [{ preference: 10, exchange: 'mx.example.test' }] },
      [dnsblQueryName('8.8.8.8', first)]: { A: ['127.0.0.2'] },
    },
  });
  tor = await startHttpTarget({
    routes: {
      '/tor': (_req, res) => {
        torRequests++;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('8.8.4.4\n');
      },
    },
  });
  datasets = await loadIpDatasets({ cacheDir });
}, 120_000);
afterAll(async () => {
  await Promise.all([dns.close(), tor.close()]);
  rmSync(cacheDir, { recursive: true, force: true });
});

const engineOptions = () => ({
  dnsServers: [dns.address],
  torExitListUrl: `${tor.url}/tor`,
  cacheDir,
  datasets,
});

describe('createNetdiag', () => {
  test('DNS answers are the capability answers, through the configured servers', async () => {
    const engine = createNetdiag(engineOptions());
    const direct = await lookupDns(
      { domain: 'example.test', type: 'MX' },
      { resolver: createResolver({ servers: [dns.address], cache: false }) },
    );
    expect(await engine.dns({ domain: 'example.test', type: 'MX' })).toEqual(direct);
    expect(dns.queries.some((q) => q.name === 'example.test' && q.type === 'MX')).toBe(true);
    await engine.close();
  });

  test('IP answers: the SPEC shape of the same record', async () => {
    const engine = createNetdiag(engineOptions());
    expect(await engine.lookupIp('8.8.8.8')).toEqual(lookupAnswer(datasets.lookup('8.8.8.8')));
    expect(await engine.bulkLookup(['8.8.8.8', 'nope'])).toMatchObject({
      total: 1,
      results: [{ ip: '8.8.8.8', asn: 15169 }],
      errors: [{ input: 'nope' }],
    });
    await expect(engine.lookupIp('999.1.1.1')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await engine.close();
  });

  test('caller answers: connection fields formatted, the DNSBL listing in the score', async () => {
    const engine = createNetdiag(engineOptions());
    const data = await engine.caller({ ip: '8.8.8.8', httpVersion: '2.0', tlsVersion: 'TLSv1.3' });
    expect(data.network).toMatchObject({ connection_type: 'HTTP/2', tls_version: 'TLSv1.3' });
    const score = await engine.score({ ip: '8.8.8.8', tlsVersion: 'made up' });
    expect(score.network.tls_version).toBe('');
    expect(score.privacy.evidence.some((e) => e.source.includes(DNSBL_ZONES[0]?.zone ?? '?'))).toBe(
      true,
    );
    await engine.close();
  });

  test('a bogon caller asks no blocklist', async () => {
    const engine = createNetdiag(engineOptions());
    const before = dns.queries.length;
    const data = await engine.score({ ip: '127.0.0.1' });
    expect(data.bogon).toBe(true);
    expect(dns.queries.length).toBe(before);
    await engine.close();
  });

  test('every cache comes from the store seam, one instance per namespace', async () => {
    const asked: string[] = [];
    const stores = new Map<string, Cache>();
    const engine = createNetdiag({
      ...engineOptions(),
      cacheStore: (namespace) => {
        asked.push(namespace);
        const store = createMemoryCache();
        stores.set(namespace, store);
        return store;
      },
    });
    await engine.blacklist('8.8.8.8');
    const queries = dns.queries.length;
    await engine.blacklist('8.8.8.8');
    expect(dns.queries.length).toBe(queries); // the second answer came from the dnsbl cache
    expect(asked).toEqual(expect.arrayContaining(['dns', 'dnsbl']));
    expect(new Set(asked).size).toBe(asked.length);
    expect(engine.cache('dnsbl')).toBe(stores.get('dnsbl'));
    await engine.close();
  });

  test('feeds, manual (default): never fetched unless asked; the disk copy is used', async () => {
    const dir = tempDir('netdiag-engine-feed-');
    try {
      writeFileSync(join(dir, 'netdiag-tor-exit-list.txt'), '8.8.8.8\n');
      const engine = createNetdiag({ ...engineOptions(), cacheDir: dir });
      const before = torRequests;
      await engine.lookupIp('8.8.8.8');
      await engine.feedsReady;
      expect(torRequests).toBe(before);
      expect(engine.torExitList()?.has('8.8.8.8')).toBe(true);
      expect(await engine.refreshFeeds()).toEqual(['tor-exit-list']);
      expect(torRequests).toBe(before + 1);
      expect(engine.torExitList()?.has('8.8.4.4')).toBe(true);
      await engine.close();
      expect(await engine.refreshFeeds()).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('feeds, schedule (a server): fetched at start', async () => {
    const dir = tempDir('netdiag-engine-feed-');
    try {
      const engine = createNetdiag({ ...engineOptions(), cacheDir: dir, feeds: 'schedule' });
      const before = torRequests;
      await engine.datasets();
      await engine.feedsReady;
      expect(torRequests).toBe(before + 1);
      expect((await engine.datasets()).lookup('8.8.4.4').privacy.is_tor).toBe(true);
      await engine.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('bad configuration is a ConfigError naming the variable', () => {
    expect(() => createNetdiag({ dnsServers: ['not-an-ip'] })).toThrow(/NETDIAG_DNS_SERVERS/);
  });
});
