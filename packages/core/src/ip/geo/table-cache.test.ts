/**
 * The lookup tables' disk cache: a round trip gives the same arrays, another key or a
 * truncated file is not read, a file that reads but fails the consistency checks is rebuilt,
 * and a cache directory that cannot be written is reported, not thrown.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite, tempDir } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { AsnIndexBuilder } from '../asn/asn-index.js';
import { MmdbDatabase } from '../mmdb/database.js';
import { packV4Range } from './geo-asn-table.js';
import { createMmdbGeoSource } from './geo-source.js';
import {
  buildGeoTables,
  type GeoTables,
  loadGeoTables,
  readTableCache,
  tableCacheFile,
  writeTableCache,
} from './table-cache.js';

const corpus =
  process.env['NETDIAG_CORPORA'] ??
  fileURLToPath(new URL('../../../../../../shared/corpora', import.meta.url));
const path = join(corpus, 'maxmind-db', 'test-data', 'GeoIP2-City-Test.mmdb');
const present = prerequisite(
  'MaxMind corpus',
  existsSync(path),
  'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
);

const asnIndex = () => {
  const b = new AsnIndexBuilder();
  b.addV4(0x51020000, 0x5102ffff, b.entry(64_500, 'Example'));
  b.addV6([0x2a020000, 0, 0, 0], [0x2a02ffff, ~0 >>> 0, ~0 >>> 0, ~0 >>> 0], b.entry(64_501, 'X'));
  return b.build('test');
};

describe.skipIf(!present)('lookup tables on disk', () => {
  const db = present ? new MmdbDatabase(readFileSync(path), 'full') : (undefined as never);
  const asn = asnIndex();
  const source = (tables: GeoTables) =>
    createMmdbGeoSource({ v4: db, v6: db, description: 't', asn, tables });

  test('round trip, another key, a truncated file', async () => {
    const dir = tempDir('netdiag-tables-');
    const notes: string[] = [];
    const options = { key: 'k1', cacheDir: dir, onNote: (m: string) => notes.push(m) };
    const first = await loadGeoTables(db, db, asn, options);
    expect(first.how).toMatch(/^built in \d+ ms$/);
    expect(notes[0]).toContain('cached in');
    const second = await loadGeoTables(db, db, asn, { ...options, accept: source });
    expect(second.how).toBe('cache');
    expect(second.tables).toEqual(first.tables);
    const file = tableCacheFile(dir, 'k1');
    expect(await readTableCache(file, 'another key')).toBeUndefined();
    writeFileSync(file, readFileSync(file).subarray(0, 2000));
    expect(await readTableCache(file, 'k1')).toBeUndefined();
    expect((await loadGeoTables(db, db, asn, options)).how).toMatch(/^built/);
  });

  test('a new file replaces the same data in an older format, not other data', async () => {
    const dir = tempDir('netdiag-tables-');
    const current = basename(tableCacheFile(dir, 'k'));
    const older = current.replace(/-f\d+\.bin$/, '-f1.bin');
    const otherData = basename(tableCacheFile(dir, 'other')).replace(/-f\d+\.bin$/, '-f1.bin');
    expect(older).not.toBe(current);
    for (const name of [older, otherData, 'unrelated.bin']) writeFileSync(join(dir, name), 'x');
    await loadGeoTables(db, db, asn, { key: 'k', cacheDir: dir });
    expect(readdirSync(dir).sort()).toEqual([current, otherData, 'unrelated.bin'].sort());
  });

  test('the tables answer the same after the round trip', async () => {
    const dir = tempDir('netdiag-tables-');
    await loadGeoTables(db, db, asn, { key: 'k', cacheDir: dir });
    const cached = await loadGeoTables(db, db, asn, { key: 'k', cacheDir: dir, accept: source });
    expect(cached.how).toBe('cache');
    const built = source(buildGeoTables(db, db, asn));
    const read = source(cached.tables);
    for (const ip of [0x51020304, 0x02000001, 0xd8a00001, 0x4a7d0000, 0x01000000]) {
      expect(read.lookupV4(ip)).toEqual(built.lookupV4(ip));
      expect(read.fused?.v4(ip)).toBe(built.fused?.v4(ip));
    }
  });

  test.each([
    [
      'a record id past the records',
      (t: GeoTables) => packV4Range(t.v4.slots, 0, 0, t.pointers4.length + 5, 0),
    ],
    ['an AS entry past the index', (t: GeoTables) => t.v6.ranges.fill(99, 3, 4)],
    ['buckets out of order', (t: GeoTables) => t.v4.bucket.fill(3, 100, 101)],
    ['a radix child that does not exist', (t: GeoTables) => t.v6.slots.fill(7, 1, 2)],
    ['a radix slot past the ranges', (t: GeoTables) => t.v6.slots.fill(1e6, 0, 1)],
    ['a deep segment that does not exist', (t: GeoTables) => t.v6.ranges.fill(0x80000063, 2, 3)],
    ['empty deep segments', (t: GeoTables) => t.v6.deepStart.fill(0)],
    ['a missing array', (t: GeoTables) => Object.assign(t.v4, { slots: new Uint32Array(3) })],
  ])('a cached file with %s is rebuilt', async (_name, damage) => {
    const dir = tempDir('netdiag-tables-');
    const good = buildGeoTables(db, db, asn);
    expect(() => source(good)).not.toThrow();
    const bad: GeoTables = structuredClone(good);
    damage(bad);
    expect(() => source(bad)).toThrow(/IP table/);
    const file = tableCacheFile(dir, 'k');
    expect(await writeTableCache(file, 'k', bad)).toBeUndefined();
    expect(await readTableCache(file, 'k')).toBeDefined();
    const loaded = await loadGeoTables(db, db, asn, { key: 'k', cacheDir: dir, accept: source });
    expect(loaded.how).toMatch(/^built/);
  });

  test('an unwritable cache directory is reported, not thrown', async () => {
    const blocker = join(tempDir('netdiag-tables-'), 'file');
    writeFileSync(blocker, 'not a directory');
    const notes: string[] = [];
    const loaded = await loadGeoTables(db, db, asn, {
      key: 'k',
      cacheDir: blocker,
      onNote: (m) => notes.push(m),
    });
    expect(loaded.how).toMatch(/^built/);
    expect(notes[0]).toMatch(/not cached/);
  });
});

if (!present) test.skip(`MaxMind corpus not found at ${path} (set NETDIAG_CORPORA)`, () => {});
