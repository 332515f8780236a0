/**
 * The prebuilt IP-intel range table (intel-table-file.ts): read back equal to a fresh build and
 * answering alike; keyed by the data; every index a lookup follows checked; read by
 * `loadPrivacyData` from the prebuilt folder only.
 */
import { readdirSync } from 'node:fs';
import { seededRandom32, tempDir } from '@netdiag/test-utils';
import { beforeAll, describe, expect, test } from 'vitest';
import { createAddressParts, formatV4, formatV6, parseAddressInto } from '../address.js';
import { loadPrivacyData } from '../datasets.js';
import { createIpIntel, type IpIntel } from './intel.js';
import { type IntelData, loadIntelData } from './intel-pack.js';
import {
  checkRangeTable,
  intelFingerprint,
  intelTableFile,
  readIntelTable,
  writeIntelTable,
} from './intel-table-file.js';
import type { RangeTable } from './range-table.js';
import { findDataDir } from './signal-lists.js';

let data: IntelData;
let built: IpIntel;
beforeAll(() => {
  data = loadIntelData(findDataDir());
  built = createIpIntel(data);
});

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const copy = (t: RangeTable): Mutable<RangeTable> => ({
  ...t,
  v4Index: t.v4Index.slice(),
  v4Slots: t.v4Slots.slice(),
  v6Starts: t.v6Starts.slice(),
  v6Codes: t.v6Codes.slice(),
  v6Bucket: t.v6Bucket.slice(),
  combos: t.combos.map((c) => [...c]),
});

describe('the range table file', () => {
  test('read back, it equals the built table and answers every address alike', async () => {
    const dir = tempDir('netdiag-intel-table-');
    const key = intelFingerprint(data);
    const file = intelTableFile(dir, key);
    expect(await writeIntelTable(file, key, built.table)).toBeUndefined();
    const read = await readIntelTable(file, key);
    if (!read) throw new Error('not read back');
    expect(read).toEqual(built.table);
    const fromFile = createIpIntel(data, read);
    const random32 = seededRandom32(0x1e7e1);
    const parts = createAddressParts();
    let covered = 0;
    for (let i = 0; i < 20_000; i++) {
      const ip =
        i % 2 === 0
          ? formatV4(random32())
          : formatV6(0x2000_0000 | (random32() >>> 3), random32(), random32(), random32());
      parseAddressInto(ip, parts);
      const combo = fromFile.comboOf(parts);
      expect(combo).toBe(built.comboOf(parts));
      if (combo !== 0) covered++;
    }
    // Some of the random addresses fall in listed ranges, so the comparison says something.
    expect(covered).toBeGreaterThan(100);
    // Another key (other data) does not read it.
    expect(await readIntelTable(file, `${key}x`)).toBeUndefined();
  });

  test('the key changes with any input of the table', () => {
    const key = intelFingerprint(data);
    const at = data.sources.findIndex((s) => (s.ranges?.v4.length ?? 0) > 0);
    const first = data.sources[at];
    if (!first?.ranges) throw new Error('no source with IPv4 ranges');
    const rest = data.sources.filter((_, i) => i !== at);
    const v4 = first.ranges.v4.slice();
    v4[0] = (v4[0] as number) ^ 1;
    const changed = (patch: Partial<typeof first>) =>
      intelFingerprint({
        ...data,
        sources: data.sources.map((s, i) => (i === at ? { ...first, ...patch } : s)),
      });
    expect(changed({ ranges: { v4, v6: first.ranges.v6 } })).not.toBe(key);
    expect(changed({ tier: first.tier + 1 })).not.toBe(key);
    expect(changed({ id: `${first.id}-2` })).not.toBe(key);
    expect(intelFingerprint({ ...data, sources: rest })).not.toBe(key);
    expect(intelFingerprint(data)).toBe(key);
  });

  test('every index a lookup follows is checked', () => {
    expect(() => checkRangeTable(built.table)).not.toThrow();
    const damaged: [string, (t: Mutable<RangeTable>) => void][] = [
      ['IPv4 index out of the slots', (t) => (t.v4Index[7] = t.v4Slots.length - 1)],
      ['IPv4 combination', (t) => (t.v4Index[7] = 0x80000000 | 0xfff0)],
      [
        'IPv4 segment combination',
        (t) => {
          const at = t.v4Index.findIndex((e) => e < 0x80000000);
          t.v4Slots[at + 1] = 0xfff0;
        },
      ],
      ['IPv6 combination', (t) => (t.v6Codes[3] = 0xfff0)],
      ['IPv6 bucket', (t) => (t.v6Bucket[5] = t.v6Codes.length + 5)],
      ['IPv6 bucket order', (t) => (t.v6Bucket[1 << 19] = 0)],
      ['IPv6 sizes', (t) => (t.v6Starts = t.v6Starts.subarray(2))],
    ];
    for (const [what, damage] of damaged) {
      const t = copy(built.table);
      damage(t);
      expect(() => checkRangeTable(t), what).toThrow(RangeError);
    }
    const wrongSources = copy(built.table);
    wrongSources.combos = [...wrongSources.combos, [999]];
    expect(() => createIpIntel(data, wrongSources)).toThrow(/source index/);
  });

  test('loadPrivacyData reads the table from the prebuilt folder, and only from there', async () => {
    const dir = tempDir('netdiag-intel-prebuilt-');
    const key = intelFingerprint(data);
    // A mark the loader passes through: the count the docs report.
    const marked = { ...copy(built.table), v4Segments: 424_242 };
    expect(await writeIntelTable(intelTableFile(dir, key), key, marked)).toBeUndefined();
    const read = await loadPrivacyData({ prebuiltDir: dir });
    expect(read.intel?.table.v4Segments).toBe(424_242);
    const none = await loadPrivacyData({ prebuiltDir: false });
    expect(none.intel?.table.v4Segments).toBe(built.table.v4Segments);
    // The package build made one for the bundled data (CI builds before it tests).
    const shipped = readdirSync(`${findDataDir()}/ip-tables`).some((f) =>
      f.startsWith('netdiag-intel-table-'),
    );
    if (process.env['CI'] === 'true') expect(shipped).toBe(true);
  });
});
