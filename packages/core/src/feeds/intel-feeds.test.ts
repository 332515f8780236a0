/**
 * Run-time IP-intel feeds: validation, last good copy, the engine wiring, and the table swap
 * under load. Every feed points at a loopback fixture; the built-in URLs are never fetched.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type HttpTarget, startHttpTarget, tempDir } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createNetdiag } from '../engine/engine.js';
import { type IpDatasets, installedIntel, loadIpDatasets } from '../ip/datasets.js';
import { withSource } from '../ip/privacy/intel.js';
import { rangesFromTokens } from '../ip/privacy/range-table.js';
import type { IpInfo } from '../ip/types.js';
import { startFeed } from './feed.js';
import { parseIntelFeed, RELAY_RANGES_FEED, VPN_EXITS_FEED } from './intel-feeds.js';

/** `count` distinct /24s in 198.18.0.0/15-like test space, as Apple's CSV writes them. */
function relayCsv(count: number, first = 0): string {
  const lines: string[] = [];
  for (let i = first; i < first + count; i++) {
    lines.push(`100.${64 + (i >> 8)}.${i & 255}.0/24,GB,GB-EN,London,`);
  }
  return `${lines.join('\n')}\n`;
}

describe('parseIntelFeed', () => {
  const opts = { name: 'test-feed', minEntries: 100 };
  test('reads line lists, CSV first columns and JSON string values', () => {
    expect(parseIntelFeed(relayCsv(150), opts, 't').entries).toBe(150);
    const plain = `# header\n${Array.from({ length: 120 }, (_, i) => `5.157.${i}.3`).join('\n')}\n`;
    expect(parseIntelFeed(plain, opts, 't').entries).toBe(120);
    const json = JSON.stringify({
      syncToken: '1724300000',
      createDate: '2026-08-22-10-00-00',
      prefixes: Array.from({ length: 110 }, (_, i) => ({
        ip_prefix: `3.5.${i}.0/24`,
        region: 'us-east-1',
      })),
      ipv6_prefixes: [{ ipv6_prefix: '2600:1f00::/24' }],
    });
    const parsed = parseIntelFeed(json, opts, 't');
    expect(parsed.entries).toBe(111);
    expect(parsed.ranges.v6.length).toBe(4);
  });

  test('refuses too few entries, an error page, broken JSON', () => {
    expect(() => parseIntelFeed(relayCsv(99), opts, 't')).toThrow(/at least 100/);
    const page = `<html><body>${'<p>Service unavailable</p>\n'.repeat(300)}1.2.3.4\n</body></html>`;
    expect(() => parseIntelFeed(page, { name: 'x', minEntries: 1 }, 't')).toThrow(
      /not the expected list/,
    );
    expect(() => parseIntelFeed('{"prefixes": [', opts, 't')).toThrow(/not valid JSON/);
    // Dates, times and version numbers are not addresses.
    expect(() => parseIntelFeed('2026-08-22 10:08:46\nv1.2.3\n'.repeat(200), opts, 't')).toThrow();
  });
});

describe('feeds over HTTP (loopback fixtures)', () => {
  let target: HttpTarget;
  let body = relayCsv(1200);
  beforeAll(async () => {
    target = await startHttpTarget({
      routes: {
        '/relay': (_req, res) => res.writeHead(200, { 'content-type': 'text/csv' }).end(body),
      },
    });
  });
  afterAll(() => target.close());

  test('a good list is installed and kept on disk; a bad one leaves the previous copy', async () => {
    const dir = tempDir();
    const seen: number[] = [];
    const feed = startFeed(RELAY_RANGES_FEED, {
      url: `${target.url}/relay`,
      dir,
      policy: 'manual',
      onUpdate: (v) => seen.push(v.entries),
    });
    await feed.ready;
    expect(feed.status()).toMatchObject({ entries: 0, from: 'none', age_s: null });
    expect(await feed.refresh()).toBe(true);
    expect(feed.status()).toMatchObject({ entries: 1200, from: 'fetch', last_error: '' });
    expect(existsSync(join(dir, RELAY_RANGES_FEED.file))).toBe(true);

    body = relayCsv(10); // truncated upstream answer: refused
    expect(await feed.refresh()).toBe(false);
    expect(feed.status()).toMatchObject({ entries: 1200, from: 'fetch' });
    expect(feed.status().last_error).toMatch(/at least 1000/);
    expect(readFileSync(join(dir, RELAY_RANGES_FEED.file), 'utf8')).toBe(relayCsv(1200));
    feed.close();

    // The next start (a one-shot command) reads the last good copy without fetching.
    const requests = target.requests.length;
    const again = startFeed(RELAY_RANGES_FEED, {
      url: `${target.url}/relay`,
      dir,
      policy: 'manual',
      onUpdate: () => {},
    });
    await again.ready;
    expect(again.status()).toMatchObject({ entries: 1200, from: 'disk' });
    expect(target.requests.length).toBe(requests);
    again.close();
    body = relayCsv(1200);
    expect(seen).toEqual([1200]);
  });

  test('an answer larger than the size bound is refused', async () => {
    const big = await startHttpTarget({
      routes: {
        '/vpn': (_req, res) => res.end('5.157.13.3\n'.repeat(VPN_EXITS_FEED.maxBytes / 10)),
      },
    });
    try {
      const feed = startFeed(VPN_EXITS_FEED, {
        url: `${big.url}/vpn`,
        dir: false,
        policy: 'manual',
        onUpdate: () => {},
      });
      expect(await feed.refresh()).toBe(false);
      expect(feed.current()).toBeUndefined();
      expect(feed.status().last_error).not.toBe('');
      feed.close();
    } finally {
      await big.close();
    }
  });
});

describe('the tables in use', () => {
  let datasets: IpDatasets;
  let target: HttpTarget;
  const cacheDir = tempDir();
  beforeAll(async () => {
    datasets = await loadIpDatasets();
    target = await startHttpTarget({
      routes: {
        // 8.8.8.0/24 as "relay egress" in this fixture only: an address whose class must change.
        '/relay': (_req, res) => res.end(`8.8.8.0/24,US,US-CA,,\n${relayCsv(1100)}`),
      },
    });
  }, 120_000);
  afterAll(() => target.close());

  test('the engine applies a fetched feed to lookups, with the feed as evidence and in its status', async () => {
    const engine = createNetdiag({
      datasets,
      cacheDir,
      relayRangesUrl: `${target.url}/relay`,
      torExitListUrl: `${target.url}/none`,
      vpnExitsUrl: `${target.url}/none`,
      cloudRangesUrl: `${target.url}/none`,
    });
    const before = datasets.lookup('8.8.8.8').privacy;
    expect(before.is_relay).toBe(false);
    await engine.lookupIp('8.8.8.8'); // loads (here: adopts) the datasets
    expect(await engine.refreshFeeds()).toEqual(['relay-ranges']);
    const after = datasets.lookup('8.8.8.8').privacy;
    expect(after).toMatchObject({ type: 'vpn', is_relay: true, provider: 'iCloud Private Relay' });
    expect(after.signals[0]).toMatchObject({
      dataset: `${target.url}/relay`,
      source: 'range-list',
    });
    const status = engine.feedStatus().find((f) => f.name === 'relay-ranges');
    expect(status).toMatchObject({ entries: 1101, from: 'fetch' });
    expect(status?.age_s).toBeGreaterThanOrEqual(0);
    expect(engine.feedStatus().map((f) => f.name)).toEqual([
      'tor-exit-list',
      'relay-ranges',
      'vpn-exits',
      'cloud-ranges',
    ]);
    await engine.close();
  });

  test('swapping tables under load: every answer is wholly the old tables or wholly the new', async () => {
    const id = 'hroost-icloud-private-relay/egress';
    const shipped = installedIntel()?.sources.find((s) => s.id === id);
    expect(shipped?.ranges).toBeDefined();
    const a = { ranges: shipped?.ranges, dataset: 'feed', version: 'version A' };
    const b = {
      ranges: rangesFromTokens(['8.8.8.0/24', '1.1.1.0/24', '2001:4860::/32', '172.224.0.0/16']),
      dataset: 'feed',
      version: 'version B',
    };
    // Addresses whose answers differ between A and B, and some that do not.
    const ips = ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '9.9.9.9', '81.2.69.142'];
    for (let i = 0; i < 200; i++) ips.push(`172.224.${i}.${(i * 7) % 256}`, `104.28.${i}.1`);
    const answers = (patch: typeof a | typeof b) => {
      datasets.setIntelSource(id, patch);
      return new Map(ips.map((ip) => [ip, datasets.lookup(ip).privacy]));
    };
    const expectA = answers(a);
    const expectB = answers(b);
    expect(expectA.get('8.8.8.8')).not.toEqual(expectB.get('8.8.8.8'));

    let lookups = 0;
    let failed = 0;
    let mixed = 0;
    let swaps = 0;
    let done = false;
    const hammer = (async () => {
      while (!done) {
        for (const ip of ips) {
          let info: IpInfo;
          try {
            info = datasets.lookup(ip);
          } catch {
            failed++;
            continue;
          }
          lookups++;
          const p = info.privacy;
          const same = (q: unknown) => JSON.stringify(q) === JSON.stringify(p);
          if (!same(expectA.get(ip)) && !same(expectB.get(ip))) mixed++;
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let i = 0; i < 12; i++) {
      datasets.setIntelSource(id, i % 2 === 0 ? b : a);
      swaps++;
      await new Promise((r) => setImmediate(r));
    }
    done = true;
    await hammer;
    datasets.setIntelSource(id, {
      ranges: shipped?.ranges,
      dataset: shipped?.dataset ?? '',
      version: shipped?.version ?? '',
    });
    expect(swaps).toBe(12);
    expect(lookups).toBeGreaterThan(ips.length * 6);
    expect({ failed, mixed }).toEqual({ failed: 0, mixed: 0 });
  });

  test('a feed applied at run time answers as data built with the feed in the pack', async () => {
    // The reader takes the feed's source out of the bundled table and asks the feed's own table
    // (ip/data/reader.ts); the builder puts the feed's ranges into the one table. Same answers.
    const pack = installedIntel();
    if (!pack) throw new Error('@netdiag/ip-data is not installed');
    const id = 'hroost-icloud-private-relay/egress';
    const patch = {
      ranges: rangesFromTokens(['8.8.8.0/24', '1.1.1.0/24', '2001:4860::/32', '104.28.0.0/17']),
      dataset: 'https://relay.test/egress.csv',
      version: '2026-12-02T00:00:00.000Z',
    };
    const built = await loadIpDatasets({ intel: withSource(pack, id, patch), cacheDir: false });
    const fed = await loadIpDatasets({ cacheDir: false });
    fed.setIntelSource(id, patch);
    const ips = ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '9.9.9.9', '172.224.1.1'];
    for (let i = 0; i < 300; i++)
      ips.push(`104.28.${i % 256}.${(i * 13) % 256}`, `172.${224 + (i % 8)}.${i % 256}.7`);
    for (let i = 0; i < 300; i++) ips.push(`2a02:26f7:${(i * 37).toString(16)}::1`);
    const differ = ips.filter(
      (ip) => JSON.stringify(fed.lookup(ip)) !== JSON.stringify(built.lookup(ip)),
    );
    expect(differ).toEqual([]);
    // And the feed changed something (the test would pass vacuously otherwise).
    const plain = await loadIpDatasets({ cacheDir: false });
    expect(JSON.stringify(plain.lookup('8.8.8.8'))).not.toBe(JSON.stringify(fed.lookup('8.8.8.8')));
    for (const d of [built, fed, plain]) d.close();
  }, 120_000);
});
