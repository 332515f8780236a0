/**
 * The bucketed AS index search must find the same row as a plain binary search over all
 * rows: on the embedded data (random addresses, every range edge, every /16 edge) and on
 * small hand-made indexes (no rows, one row spanning everything, ranges across buckets).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom32 } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { buildAsnIndexFromCsv } from './asn-csv.js';
import { type AsnIndex, AsnIndexBuilder, compareWords } from './asn-index.js';

const random32 = seededRandom32(0x1234567);

/** The reference: binary search over every row (the search before buckets). */
function plainV4(index: AsnIndex, address: number): number {
  const { v4Start, v4End } = index.data;
  let lo = 0;
  let hi = index.v4Rows - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if ((v4Start[mid] as number) <= address) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi >= 0 && (v4End[hi] as number) >= address ? hi : -1;
}

function plainV6(index: AsnIndex, w: readonly number[]): number {
  const [w0 = 0, w1 = 0, w2 = 0, w3 = 0] = w;
  const { v6Start, v6End } = index.data;
  let lo = 0;
  let hi = index.v6Rows - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (compareWords(v6Start, mid * 4, w0, w1, w2, w3) <= 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi >= 0 && compareWords(v6End, hi * 4, w0, w1, w2, w3) >= 0 ? hi : -1;
}

function diffV4(index: AsnIndex, addresses: Iterable<number>): string[] {
  const out: string[] = [];
  for (const a of addresses) {
    const got = index.findV4(a);
    const want = plainV4(index, a);
    if (got !== want && out.length < 10) out.push(`${a}: ${got} != ${want}`);
  }
  return out;
}

function diffV6(index: AsnIndex, addresses: Iterable<readonly number[]>): string[] {
  const out: string[] = [];
  for (const w of addresses) {
    const got = index.findV6(w[0] ?? 0, w[1] ?? 0, w[2] ?? 0, w[3] ?? 0);
    const want = plainV6(index, w);
    if (got !== want && out.length < 10)
      out.push(`${w.map((x) => x.toString(16))}: ${got} != ${want}`);
  }
  return out;
}

function* edgesV4(index: AsnIndex): Generator<number> {
  const { v4Start, v4End } = index.data;
  for (let i = 0; i < index.v4Rows; i++) {
    const s = v4Start[i] as number;
    const e = v4End[i] as number;
    yield s;
    yield (s - 1) >>> 0;
    yield e;
    yield (e + 1) >>> 0;
  }
  for (let b = 0; b < 65_536; b++) {
    yield (b * 65_536) >>> 0;
    yield (b * 65_536 + 65_535) >>> 0;
  }
}

function* edgesV6(index: AsnIndex): Generator<number[]> {
  const { v6Start, v6End } = index.data;
  for (let i = 0; i < index.v6Rows; i++) {
    const s = Array.from(v6Start.subarray(i * 4, i * 4 + 4));
    const e = Array.from(v6End.subarray(i * 4, i * 4 + 4));
    yield s;
    yield e;
    yield [s[0] as number, s[1] as number, s[2] as number, ((s[3] as number) - 1) >>> 0];
    yield [e[0] as number, e[1] as number, e[2] as number, ((e[3] as number) + 1) >>> 0];
    yield [s[0] as number, random32(), random32(), random32()];
  }
}

function* randomV6(count: number): Generator<number[]> {
  for (let i = 0; i < count; i++) {
    const w0 = i % 2 ? random32() : ((random32() & 0x1fffffff) | 0x20000000) >>> 0;
    yield [w0, random32(), random32(), random32()];
  }
}

describe('embedded @ip-location-db/asn index', () => {
  const core = createRequire(
    join(dirname(fileURLToPath(import.meta.url)), '../../../package.json'),
  );
  const dir = dirname(core.resolve('@ip-location-db/asn/package.json'));
  const index = buildAsnIndexFromCsv(
    readFileSync(join(dir, 'asn-ipv4-num.csv'), 'utf8'),
    readFileSync(join(dir, 'asn-ipv6.csv'), 'utf8'),
    'test',
  );

  test('IPv4: 300,000 random addresses, every range edge and every /16 edge', () => {
    expect(index.v4Rows).toBeGreaterThan(100_000);
    const random = Array.from({ length: 300_000 }, random32);
    expect(diffV4(index, random)).toEqual([]);
    expect(diffV4(index, edgesV4(index))).toEqual([]);
  });

  test('IPv6: 300,000 random addresses and every range edge', () => {
    expect(index.v6Rows).toBeGreaterThan(10_000);
    expect(diffV6(index, randomV6(300_000))).toEqual([]);
    expect(diffV6(index, edgesV6(index))).toEqual([]);
  });
});

describe('small indexes', () => {
  const build = (v4: [number, number][], v6: [number[], number[]][]) => {
    const b = new AsnIndexBuilder();
    const entry = b.entry(64_500, 'Example');
    for (const [s, e] of v4) b.addV4(s, e, entry);
    for (const [s, e] of v6) b.addV6(s, e, entry);
    return b.build('test');
  };
  const probesV4 = [
    0, 1, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffeffff, 0xffff0000, 0xffffffff,
  ];
  const probesV6 = [
    [0, 0, 0, 0],
    [0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff],
    [0x20010000, 0, 0, 0],
    [0x2001ffff, 0xffffffff, 0xffffffff, 0xffffffff],
    [0x20020000, 0, 0, 0],
  ];

  test.each([
    ['no rows', [], []],
    [
      'one row over everything',
      [[0, 0xffffffff]],
      [
        [
          [0, 0, 0, 0],
          [~0 >>> 0, ~0 >>> 0, ~0 >>> 0, ~0 >>> 0],
        ],
      ],
    ],
    [
      'rows across bucket edges',
      [
        [0xfff0, 0x2000f],
        [0x30000, 0x30000],
        [0xffff0000, 0xffffffff],
      ],
      [
        [
          [0x20010000, 0, 0, 0],
          [0x2001ffff, 0xffffffff, 0xffffffff, 0xffffffff],
        ],
        [
          [0x2a000000, 0, 0, 0],
          [0x2a000000, 0, 0, 0],
        ],
      ],
    ],
  ] as [string, [number, number][], [number[], number[]][]][])('%s', (_name, v4, v6) => {
    const index = build(v4, v6);
    expect(diffV4(index, [...probesV4, ...Array.from({ length: 10_000 }, random32)])).toEqual([]);
    expect(diffV4(index, edgesV4(index))).toEqual([]);
    expect(diffV6(index, [...probesV6, ...randomV6(10_000)])).toEqual([]);
    expect(diffV6(index, edgesV6(index))).toEqual([]);
  });
});
