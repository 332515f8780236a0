/**
 * Feed copies in a one-shot lookup (`openIpLookup`): the first run parses a copy and writes its
 * table beside it; later runs read the table by position, and answer as the engine does with the
 * same copy in memory. A copy that changed is not answered from the old table.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@netdiag/test-utils';
import { describe, expect, test, vi } from 'vitest';
import { loadIpDatasets } from '../ip/datasets.js';
import { openIpLookup } from '../ip/open-ip-lookup.js';
import { RELAY_RANGES_FEED } from './intel-feeds.js';

const URL = 'http://127.0.0.1:9/relay.csv';
const IPS = ['8.8.8.8', '8.8.4.4', '1.1.1.1', '100.64.3.1', '2001:4860:4860::8888', '9.9.9.9'];

/** Apple's CSV layout: 8.8.8.0/24 and 2001:4860::/32 as relay egress, plus `count` filler /24s. */
function relayCsv(count: number): string {
  const lines = ['8.8.8.0/24,US,US-CA,,', '2001:4860::/32,US,US-CA,,'];
  for (let i = 0; i < count; i++) lines.push(`45.${i >> 8}.${i & 255}.0/24,GB,GB-EN,London,`);
  return `${lines.join('\n')}\n`;
}

const tables = (dir: string) => readdirSync(dir).filter((f) => f.includes('feed-table'));

describe('feed copies in a one-shot lookup', () => {
  test('the first run writes the table; later runs read it and answer alike', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, RELAY_RANGES_FEED.file), relayCsv(2000));
    const env = { NETDIAG_CACHE_DIR: dir, NETDIAG_RELAY_RANGES_URL: URL };

    const first = await openIpLookup({ env });
    const parsed = IPS.map((ip) => first.lookup(ip));
    first.close();
    expect(tables(dir)).toHaveLength(1);
    const relay = parsed[0]?.privacy;
    expect(relay).toMatchObject({ is_relay: true, provider: 'iCloud Private Relay' });
    expect(relay?.signals[0]).toMatchObject({ dataset: URL });

    // From the table: the copy is not parsed again.
    const parse = vi.spyOn(RELAY_RANGES_FEED, 'parse');
    const second = await openIpLookup({ env });
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
    expect(IPS.map((ip) => second.lookup(ip))).toEqual(parsed);
    second.close();

    // The server's way: the copy's ranges in memory.
    const engine = await loadIpDatasets({ cacheDir: false });
    const value = RELAY_RANGES_FEED.parse(relayCsv(2000), relay?.signals[0]?.version ?? '');
    engine.setIntelSource(RELAY_RANGES_FEED.source, {
      ranges: value.ranges,
      dataset: URL,
      version: value.fetched_at,
    });
    expect(IPS.map((ip) => engine.lookup(ip))).toEqual(parsed);
    engine.close();
  }, 120_000);

  test('a changed copy is read again, not answered from the old table', async () => {
    const dir = tempDir();
    const env = { NETDIAG_CACHE_DIR: dir, NETDIAG_RELAY_RANGES_URL: URL };
    writeFileSync(join(dir, RELAY_RANGES_FEED.file), relayCsv(2000));
    (await openIpLookup({ env })).close();
    // The new copy no longer lists 8.8.8.0/24.
    writeFileSync(
      join(dir, RELAY_RANGES_FEED.file),
      relayCsv(2000).split('\n').slice(1).join('\n'),
    );
    const after = await openIpLookup({ env });
    expect(after.lookup('8.8.8.8').privacy.is_relay).toBe(false);
    expect(after.lookup('2001:4860:4860::8888').privacy.is_relay).toBe(true);
    after.close();
    expect(tables(dir)).toHaveLength(1);
  }, 120_000);
});
