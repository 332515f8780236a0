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
import { asnCacheFile, readAsnCache, writeAsnCache } from './asn/asn-disk-cache.js';
import { AsnIndexBuilder } from './asn/asn-index.js';
import {
  type CacheFileReader,
  type CacheKind,
  cacheFilePath,
  openCacheFileSync,
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

describe('the AS index cache', () => {
  test('round trip, names, org and ISP included', async () => {
    const b = new AsnIndexBuilder();
    b.addV4(0x08080800, 0x080808ff, b.entry(15_169, 'Google LLC', 'Google', 'Google Fiber'));
    b.addV6(
      [0x20010db8, 0, 0, 0],
      [0x20010db8, ~0 >>> 0, ~0 >>> 0, ~0 >>> 0],
      b.entry(64_501, 'X'),
    );
    const index = b.build('test source');
    const file = asnCacheFile(dirOf(), 'asn@1');
    expect(await writeAsnCache(file, 'asn@1', index)).toBeUndefined();
    const read = await readAsnCache(file, 'asn@1');
    expect(read?.data).toEqual(index.data);
    expect(await readAsnCache(file, 'asn@2')).toBeUndefined();
  });
});

describe('cache files read by position', () => {
  test('any slice of any array, any line, equals the whole read', async () => {
    const dir = dirOf();
    const file = cacheFilePath(dir, kind, 'slices');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 65_535 }), { minLength: 1, maxLength: 9 }),
        fc.array(
          fc.string().filter((s) => !s.includes('\n')),
          { minLength: 1 },
        ),
        fc.nat(),
        fc.nat(),
        async (words, halves, lines, x, y) => {
          const arrays = { a: Uint32Array.from(words), b: Uint16Array.from(halves), lines };
          expect(await writeCacheFile(file, kind, 'slices', { arrays })).toBeUndefined();
          const f = openCacheFileSync(file, kind, 'slices');
          if (f === undefined) throw new Error('not opened');
          try {
            const [from, to] = [x % (words.length + 1), y % (words.length + 1)].sort(
              (p, q) => p - q,
            ) as [number, number];
            expect(f.u32('a', from, to)).toEqual(arrays.a.subarray(from, to).slice());
            expect(f.u32('a')).toEqual(arrays.a);
            expect(f.u16('b', 0, halves.length)).toEqual(arrays.b);
            expect(f.length('a')).toBe(words.length);
            expect(f.line('lines', x % lines.length)).toBe(lines[x % lines.length]);
            expect(f.lines('lines')).toEqual(lines);
          } finally {
            f.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  test('a line of a long list comes from its sampled offsets, the same as from the whole text', async () => {
    const dir = dirOf();
    const file = cacheFilePath(dir, kind, 'long');
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !s.includes('\n')),
          { minLength: 257, maxLength: 1_500 },
        ),
        fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
        async (lines, picks) => {
          expect(await writeCacheFile(file, kind, 'long', { arrays: { lines } })).toBeUndefined();
          const f = openCacheFileSync(file, kind, 'long');
          if (f === undefined) throw new Error('not opened');
          try {
            for (const pick of picks)
              expect(f.line('lines', pick % lines.length)).toBe(lines[pick % lines.length]);
            expect(f.lines('lines')).toEqual(lines);
          } finally {
            f.close();
          }
        },
      ),
      { numRuns: 30 },
    );

    // The offsets are what is read: with a newline of the first lines turned into another
    // byte, a search from the start would answer with the next line.
    const lines = Array.from({ length: 1_000 }, (_, i) => `AS${i} Société ${'x'.repeat(i % 37)}`);
    await writeCacheFile(file, kind, 'long', { arrays: { lines } });
    const bytes = readFileSync(file);
    const at = bytes.indexOf(Buffer.from(`${lines[3]}\n`)) + Buffer.byteLength(lines[3] as string);
    bytes[at] = 0x20;
    writeFileSync(file, bytes);
    const f = openCacheFileSync(file, kind, 'long');
    expect(f?.line('lines', 700)).toBe(lines[700]);
    expect(f?.line('lines', 999)).toBe(lines[999]);
    f?.close();

    // A line longer than the window read after an offset: the whole text is read instead.
    const long = Array.from({ length: 300 }, (_, i) => (i === 290 ? 'y'.repeat(100_000) : `n${i}`));
    await writeCacheFile(file, kind, 'long', { arrays: { long } });
    const g = openCacheFileSync(file, kind, 'long');
    expect(g?.line('long', 290)).toBe(long[290]);
    expect(g?.line('long', 291)).toBe('n291');
    expect(g?.line('long', 299)).toBe('n299');
    g?.close();
  });

  test('reads past an array, another key or kind, a short file: refused', async () => {
    const dir = dirOf();
    const file = cacheFilePath(dir, kind, 'k');
    await writeCacheFile(file, kind, 'k', contents);
    const f = openCacheFileSync(file, kind, 'k');
    expect(f?.meta).toEqual(contents.meta);
    expect(() => f?.u32('a', 2, 4)).toThrow(RangeError);
    expect(() => f?.u32('a', 2, 1)).toThrow(RangeError);
    expect(() => f?.u16('a')).toThrow(/missing/);
    expect(() => f?.line('names', 3)).toThrow(RangeError);
    expect(f?.line('names', 0)).toBe('Société Générale ✓');
    f?.close();
    f?.close(); // twice: no error
    expect(openCacheFileSync(file, kind, 'other')).toBeUndefined();
    expect(openCacheFileSync(file, { ...kind, format: 4 }, 'k')).toBeUndefined();
    expect(openCacheFileSync(join(dir, 'absent.bin'), kind, 'k')).toBeUndefined();
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 8));
    expect(openCacheFileSync(file, kind, 'k')).toBeUndefined();
  });
});
