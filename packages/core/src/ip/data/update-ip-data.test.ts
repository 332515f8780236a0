/**
 * Bring your own data: MaxMind's test databases (../shared/corpora/maxmind-db) turned into an
 * IP data file by `updateIpData` (checked against the sources, put in place in one rename) and
 * by the engine's `updateIpData`, which then answers from it without dropping a lookup.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite, tempDir } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { createNetdiag } from '../../engine/engine.js';
import { loadIpDatasets } from '../datasets.js';
import { IP_DATA_FILE } from './ip-data-file.js';
import { updateIpData } from './update-ip-data.js';

const corpora =
  process.env['NETDIAG_CORPORA'] ??
  fileURLToPath(new URL('../../../../../../shared/corpora', import.meta.url));
const root = join(corpora, 'maxmind-db', 'test-data');
const present = prerequisite(
  'MaxMind test databases',
  existsSync(join(root, 'GeoIP2-City-Test.mmdb')),
  'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
);
const city = join(root, 'GeoIP2-City-Test.mmdb');
const asn = join(root, 'GeoLite2-ASN-Test.mmdb');

describe.runIf(present)('updateIpData', () => {
  test('City and ASN test databases: built, checked against them, read back', async () => {
    const dir = tempDir('netdiag-update-');
    const out = join(dir, IP_DATA_FILE);
    const update = await updateIpData({ geo: city, asn, intel: undefined, out });
    expect(update.file).toBe(out);
    expect(update.counts.locations).toBeGreaterThan(0);
    expect(update.counts.asEntries).toBeGreaterThan(0);
    expect(update.checked).toBeGreaterThan(1000);
    expect(readdirSync(dir)).toEqual([IP_DATA_FILE]); // no temporary file left
    const datasets = await loadIpDatasets({ cacheDir: dir });
    expect(datasets.info.file).toBe(out);
    // A record of the City test database, and an AS of the ASN one (their expected lookups).
    expect(datasets.lookup('81.2.69.160').location).toMatchObject({
      city: 'London',
      country: 'GB',
    });
    expect(datasets.lookup('1.128.0.0').network).toMatchObject({
      asn: 1221,
      as_name: 'Telstra Pty Ltd',
    });
    datasets.close();
  });

  test('a database of the wrong kind or an unreadable file is refused, the file in place kept', async () => {
    const dir = tempDir('netdiag-update-');
    const out = join(dir, IP_DATA_FILE);
    writeFileSync(out, 'the data in use');
    await expect(updateIpData({ geo: asn, asn, intel: undefined, out })).rejects.toThrow(
      /geolocation database: a GeoLite2-ASN database; a City or Country database is needed/,
    );
    await expect(updateIpData({ geo: city, asn: city, intel: undefined, out })).rejects.toThrow(
      /AS database: a GeoIP2-City database; an ASN or ISP database is needed/,
    );
    await expect(
      updateIpData({
        geo: join(root, 'GeoIP2-City-Test-Broken-Double-Format.mmdb'),
        asn,
        intel: undefined,
        out,
      }),
    ).rejects.toThrow(/is not a usable MaxMind DB/);
    await expect(
      updateIpData({ geo: join(dir, 'none.mmdb'), asn, intel: undefined, out }),
    ).rejects.toThrow(/cannot read/);
    expect(readFileSync(out, 'utf8')).toBe('the data in use');
    expect(readdirSync(dir)).toEqual([IP_DATA_FILE]);
  });

  test('the engine updates its data in the cache directory and answers from it, no lookup dropped', async () => {
    const cacheDir = tempDir('netdiag-update-engine-');
    const engine = createNetdiag({ cacheDir, feeds: 'manual' });
    try {
      const before = await engine.lookupIp('81.2.69.160');
      expect((await engine.datasets()).info.geo).toMatch(/^DB-IP City Lite/);
      let failed = 0;
      let answered = 0;
      let done = false;
      const hammer = (async () => {
        while (!done) {
          try {
            await engine.lookupIp('81.2.69.160');
            answered++;
          } catch {
            failed++;
          }
          await new Promise((r) => setImmediate(r));
        }
      })();
      // Without an AS database the AS data in use (@netdiag/ip-data's) is kept.
      const update = await engine.updateIpData({ geo: city });
      done = true;
      await hammer;
      expect({ failed, answered: answered > 0 }).toEqual({ failed: 0, answered: true });
      expect(update.file).toBe(join(cacheDir, IP_DATA_FILE));
      const info = (await engine.datasets()).info;
      expect(info).toMatchObject({
        file: join(cacheDir, IP_DATA_FILE),
        asn: expect.stringMatching(/ip-location-db/),
      });
      const after = await engine.lookupIp('81.2.69.160');
      expect(after.location.city).toBe('London');
      expect(after.network).toEqual(before.network);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
