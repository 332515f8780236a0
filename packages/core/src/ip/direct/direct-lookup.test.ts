/**
 * Direct lookups from the package's prebuilt files answer exactly as the loaded datasets do
 * (the oracle: `loadIpDatasets` over the same folder) on random public addresses of both
 * families, on addresses of every range source of the IP-intel pack, on Tor exits, NAT64 and
 * 6to4 forms and special-purpose addresses; and they decline (`undefined`) whenever the
 * datasets would answer from something else: a user database, a feed copy, other data.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@netdiag/test-utils';
import { beforeAll, describe, expect, test } from 'vitest';
import { InvalidIpError } from '../../errors.js';
import { formatV4, formatV6 } from '../address.js';
import { embeddedTablesKey } from '../data-packages.js';
import { type IpDatasets, loadIpDatasets, PREBUILT_TABLES } from '../datasets.js';
import { readTableCache, tableCacheFile } from '../geo/table-cache.js';
import { DEEP, ESCAPE } from '../mmdb/range-table.js';
import { INTEL_FILE } from '../privacy/intel-pack.js';
import { findDataDir } from '../privacy/signal-lists.js';
import { FEED_COPIES, openDirectLookup } from './direct-lookup.js';
import { openIpLookup } from './open-ip-lookup.js';

const dataDir = findDataDir();
const dir = join(dataDir, PREBUILT_TABLES);
const present = existsSync(dir) && readdirSync(dir).some((f) => f.startsWith('netdiag-ip-direct-'));
// CI builds before it tests (scripts/build-ip-tables.mjs): there the files must be present.
if (!present && process.env['CI'] === 'true') {
  throw new Error(`no direct-lookup manifest in ${dir}: run the package build`);
}

/** xorshift32: reproducible addresses (the seed is in the test name). */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

describe.runIf(present)('direct lookups from the prebuilt files', () => {
  let datasets: IpDatasets;
  const key = () => embeddedTablesKey();
  const open = (extra: { cacheDir?: string; dataDir?: string; prebuiltDir?: string } = {}) =>
    openDirectLookup({ key: key(), cacheDir: tempDir('netdiag-direct-'), ...extra });

  beforeAll(async () => {
    datasets = await loadIpDatasets({ prebuiltDir: dir, cacheDir: false });
  }, 120_000);

  /** Compares every address; returns how many the direct path answered. */
  const compare = (addresses: readonly string[]): number => {
    const direct = open();
    if (direct === undefined) throw new Error('the prebuilt files did not open');
    let answered = 0;
    const differ: string[] = [];
    try {
      for (const ip of addresses) {
        const got = direct.lookup(ip);
        if (got === undefined) continue;
        answered++;
        const want = datasets.lookup(ip);
        if (JSON.stringify(got) !== JSON.stringify(want) && differ.length < 3) {
          differ.push(
            `${ip}:\n  direct   ${JSON.stringify(got)}\n  datasets ${JSON.stringify(want)}`,
          );
        }
      }
    } finally {
      direct.close();
    }
    expect(differ).toEqual([]);
    return answered;
  };

  test('random public IPv4 and IPv6 addresses (seed 0x9e3779b9)', () => {
    const next = random(0x9e3779b9);
    const addresses: string[] = [];
    for (let i = 0; i < 3000; i++) addresses.push(formatV4(next()));
    // Global unicast IPv6 (2000::/3), where the announced space is.
    for (let i = 0; i < 2000; i++) {
      addresses.push(formatV6(((next() & 0x1fffffff) | 0x20000000) >>> 0, next(), next(), next()));
    }
    const answered = compare(addresses);
    // Escape codes (a tree walk, an AS boundary inside a /64) are rare: nearly all answer.
    expect(answered).toBeGreaterThan(addresses.length * 0.99);
  }, 120_000);

  test('addresses of every range source, Tor exits, embedded IPv4, special addresses', () => {
    const intel = datasets.intel;
    if (!intel) throw new Error('no IP-intel data');
    const addresses = [
      '8.8.8.8',
      '1.1.1.1',
      '2001:4860:4860::8888',
      '64:ff9b::808:808', // NAT64 of 8.8.8.8
      '2002:808:808::1', // 6to4 of 8.8.8.8
      '::ffff:1.1.1.1',
      '[2606:4700:4700::1111]',
      '10.0.0.1',
      '127.0.0.1',
      '::1',
      'fe80::1',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
    ];
    let sources = 0;
    for (const source of intel.data.sources) {
      const { v4 = new Uint32Array(0), v6 = new Uint32Array(0) } = source.ranges ?? {};
      // Up to 20 ranges of each source: first, last and a middle address of each.
      const step4 = Math.max(2, Math.floor(v4.length / 40) * 2);
      for (let i = 0; i + 1 < v4.length; i += step4) {
        const first = v4[i] as number;
        const last = v4[i + 1] as number;
        addresses.push(
          formatV4(first),
          formatV4(last),
          formatV4(first + Math.floor((last - first) / 2)),
        );
      }
      const step6 = Math.max(4, Math.floor(v6.length / 80) * 4);
      for (let i = 0; i + 3 < v6.length; i += step6) {
        addresses.push(formatV6(v6[i] as number, v6[i + 1] as number, 0, 1));
      }
      for (const address of (source.addresses ?? []).slice(0, 50)) addresses.push(address);
      if (v4.length + v6.length + (source.addresses?.length ?? 0) > 0) sources++;
    }
    expect(sources).toBeGreaterThan(10);
    const answered = compare(addresses);
    expect(answered).toBeGreaterThan(addresses.length * 0.99);
    // The sample reaches the privacy classes that come from ranges, not only from ASes.
    const direct = open();
    const types = new Set(addresses.map((ip) => direct?.lookup(ip)?.privacy.type));
    direct?.close();
    expect([...types].sort()).toEqual(['datacenter', 'residential', 'vpn']);
  }, 120_000);

  test('IPv6 networks split below the /64 (the deep segments of the tables)', async () => {
    const tables = await readTableCache(tableCacheFile(dir, key()), key());
    if (!tables) throw new Error('prebuilt lookup tables unreadable');
    const { ranges, deepStart, deepHi, deepLo } = tables.v6;
    const addresses: string[] = [];
    for (let i = 0; i < ranges.length && addresses.length < 3000; i += 4) {
      const code = ranges[i + 2] as number;
      if (code < DEEP || code === ESCAPE) continue;
      const k = code - DEEP;
      // Each start of the segment's pieces, and the address just before it.
      for (let j = deepStart[k] as number; j < (deepStart[k + 1] as number); j++) {
        const w2 = deepHi[j] as number;
        const w3 = deepLo[j] as number;
        addresses.push(formatV6(ranges[i] as number, ranges[i + 1] as number, w2, w3));
        if (w3 > 0)
          addresses.push(formatV6(ranges[i] as number, ranges[i + 1] as number, w2, w3 - 1));
      }
    }
    expect(addresses.length).toBeGreaterThan(1000);
    expect(compare(addresses)).toBeGreaterThan(addresses.length * 0.99);
  }, 120_000);

  test('a bad address throws the SPEC error', () => {
    const direct = open();
    expect(() => direct?.lookup('999.1.1.1')).toThrow(InvalidIpError);
    expect(() => direct?.lookup('')).toThrow(InvalidIpError);
    direct?.close();
  });

  test('declines when the datasets would answer from something else', () => {
    // A user database.
    expect(openDirectLookup({ key: key(), geoipDb: '/x/City.mmdb' })).toBeUndefined();
    expect(openIpLookup({ env: { NETDIAG_ASN_DB: '/x/ASN.mmdb' } })).toBeUndefined();
    // A feed's copy, which the engine applies.
    for (const file of FEED_COPIES) {
      const cacheDir = tempDir('netdiag-direct-feed-');
      writeFileSync(join(cacheDir, file), '');
      expect(open({ cacheDir })).toBeUndefined();
    }
    // Other data: no manifest for the key, another pack, other curated lists.
    expect(
      openDirectLookup({ key: `${key()}x`, cacheDir: tempDir('netdiag-direct-') }),
    ).toBeUndefined();
    expect(open({ prebuiltDir: tempDir('netdiag-direct-empty-') })).toBeUndefined();
    const copy = (change: (name: string, text: Buffer) => Buffer) => {
      const other = tempDir('netdiag-direct-data-');
      for (const name of readdirSync(dataDir)) {
        if (name.endsWith('.tsv') || name === INTEL_FILE) {
          writeFileSync(join(other, name), change(name, readFileSync(join(dataDir, name))));
        }
      }
      return other;
    };
    const same = copy((_, text) => text);
    expect(open({ dataDir: same, prebuiltDir: dir })?.lookup('8.8.8.8')).toEqual(
      datasets.lookup('8.8.8.8'),
    );
    const otherPack = copy((name, text) =>
      name === INTEL_FILE ? Buffer.concat([text, Buffer.from([0])]) : text,
    );
    expect(open({ dataDir: otherPack, prebuiltDir: dir })).toBeUndefined();
    const otherLists = copy((name, text) =>
      name === 'asn-vpn.tsv'
        ? Buffer.concat([text, Buffer.from('64512\tTest\tA test entry\n')])
        : text,
    );
    expect(open({ dataDir: otherLists, prebuiltDir: dir })).toBeUndefined();
  });
});
