/**
 * The one on-disk cache format: a round trip gives the same arrays; another kind, format or
 * key, a file of the older layouts, a truncated file or one flipped bit is never read; writes
 * are atomic and replace the same key's files in other formats; failures are returned.
 */

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { tempDir } from '@netdiag/test-utils';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type CacheFileReader,
  type CacheKind,
  cacheFilePath,
  readCacheFile,
  writeCacheFile,
} from './cache-file.js';

const kind: CacheKind = { name: 'test-arrays', format: 3 };
const dirOf = () => tempDir('netdiag-cache-file-');
const everything = (f: CacheFileReader) => ({
  meta: f.meta,
  a: f.u32('a'),
  b: f.u16('b'),
  c: f.u8('c'),
  names: f.lines('names'),
  empty: f.lines('empty'),
});
const contents = {
  meta: { source: 'test data', rows: 3 },
  arrays: {
    a: Uint32Array.of(1, 0xffffffff, 7),
    b: Uint16Array.of(65_535, 2, 3),
    c: Uint8Array.of(9),
    names: ['Société Générale ✓', '', 'x'],
    empty: [],
  },
};

describe('cache files', () => {
  test('round trip: every array type, lines, meta', async () => {
    const dir = dirOf();
    const file = cacheFilePath(dir, kind, 'k');
    expect(await writeCacheFile(file, kind, 'k', contents)).toBeUndefined();
    const read = await readCacheFile(file, kind, 'k', everything);
    expect(read).toEqual({ ...contents.arrays, meta: contents.meta });
    expect(readdirSync(dir)).toEqual([basename(file)]); // no temporary file left
  });

  test('random arrays survive the round trip', async () => {
    const dir = dirOf();
    const file = cacheFilePath(dir, kind, 'random');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 0xffffffff }), { maxLength: 50 }),
        fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 13 }),
        fc.array(fc.string().filter((s) => !s.includes('\n'))),
        async (words, bytes, lines) => {
          const arrays = { c: Uint8Array.from(bytes), a: Uint32Array.from(words), lines };
          expect(await writeCacheFile(file, kind, 'random', { arrays })).toBeUndefined();
          const read = await readCacheFile(file, kind, 'random', (f) => ({
            c: f.u8('c'),
            a: f.u32('a'),
            lines: f.lines('lines'),
          }));
          expect(read).toEqual(arrays);
        },
      ),
      { numRuns: 30 },
    );
  });

  test('another key, kind or format is not read', async () => {
    const dir = dirOf();
    const file = cacheFilePath(dir, kind, 'k');
    await writeCacheFile(file, kind, 'k', contents);
    expect(await readCacheFile(file, kind, 'other', everything)).toBeUndefined();
    expect(await readCacheFile(file, { ...kind, name: 'x' }, 'k', everything)).toBeUndefined();
    expect(await readCacheFile(file, { ...kind, format: 4 }, 'k', everything)).toBeUndefined();
    expect(await readCacheFile(join(dir, 'absent.bin'), kind, 'k', everything)).toBeUndefined();
  });

  test('damage is never read: truncation, extra bytes, any flipped byte, older layouts', async () => {
    const dir = dirOf();
    const file = cacheFilePath(dir, kind, 'k');
    await writeCacheFile(file, kind, 'k', contents);
    const good = readFileSync(file);
    const readBack = async (bytes: Uint8Array) => {
      writeFileSync(file, bytes);
      return readCacheFile(file, kind, 'k', everything);
    };
    expect(await readBack(good.subarray(0, good.length - 8))).toBeUndefined();
    expect(await readBack(Buffer.concat([good, Buffer.alloc(8)]))).toBeUndefined();
    for (let at = 0; at < good.length; at++) {
      const bad = Buffer.from(good);
      bad[at] = (bad[at] as number) ^ 0x10;
      // A flip inside the JSON may still parse (a key's letter), but never into the same key.
      expect(await readBack(bad), `byte ${at}`).toBeUndefined();
    }
    // The layouts before the shared format, with otherwise plausible contents.
    for (const magic of ['NDASNIX1', 'NDIPTB01']) {
      const old = Buffer.from(good);
      old.write(magic, 0, 'latin1');
      expect(await readBack(old)).toBeUndefined();
    }
    expect(await readBack(Buffer.from('NDCACHE1\xff\xff\xff\xff', 'latin1'))).toBeUndefined();
    expect(await readBack(good)).toBeDefined();
  });

  test('a decoder that throws (a missing or mistyped array) means "not cached"', async () => {
    const dir = dirOf();
    const file = cacheFilePath(dir, kind, 'k');
    await writeCacheFile(file, kind, 'k', contents);
    expect(await readCacheFile(file, kind, 'k', (f) => f.u32('nope'))).toBeUndefined();
    expect(await readCacheFile(file, kind, 'k', (f) => f.u8('a'))).toBeUndefined();
    expect(await readCacheFile(file, kind, 'k', (f) => f.lines('a'))).toBeUndefined();
  });

  test('a new format replaces the same key in older formats, not other keys or newer formats', async () => {
    const dir = dirOf();
    const current = cacheFilePath(dir, kind, 'k');
    const older = current.replace(/-f\d+\.bin$/, '-f1.bin');
    const newer = current.replace(/-f\d+\.bin$/, '-f12.bin');
    const otherKey = cacheFilePath(dir, kind, 'other').replace(/-f\d+\.bin$/, '-f1.bin');
    const kept = [newer, otherKey, join(dir, 'unrelated.bin')];
    for (const name of [older, ...kept]) writeFileSync(name, 'x');
    await writeCacheFile(current, kind, 'k', contents);
    expect(readdirSync(dir).sort()).toEqual([current, ...kept].map((f) => basename(f)).sort());
  });

  test('failures are returned, not thrown', async () => {
    const blocker = join(dirOf(), 'file');
    writeFileSync(blocker, 'not a directory');
    const file = cacheFilePath(blocker, kind, 'k');
    expect(await writeCacheFile(file, kind, 'k', contents)).toBeInstanceOf(Error);
    const lines = { arrays: { names: ['a\nb'] } };
    expect(
      (await writeCacheFile(cacheFilePath(dirOf(), kind, 'k'), kind, 'k', lines))?.message,
    ).toMatch(/newline/);
  });
});
