/**
 * The three lookup answers (`lookupIp`: `/api/lookup`, `lookupIpV1`: `/api/v1/ip/:address`,
 * `bulkLookup`: `/api/bulk`) on 100,000 addresses drawn with a fixed seed, hashed per 10,000
 * and held to the hashes recorded from the answers of `6189e32` (before issue 43 moved the data
 * into @netdiag/ip-data and gave it one reader), so a change of data layout or reader cannot
 * change an answer. The hashes belong to the pinned data (DB-IP City Lite 2.3.2026060513 and
 * @ip-location-db/asn 2.3.2026061719, the bundled IP-intel pack): new data means new hashes,
 * recorded with `NETDIAG_RECORD_ANSWERS=1` and reviewed as a data change.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetdiag, loadIpDatasets, lookupAnswer, type Netdiag } from '../../src/index.js';

const COUNT = 100_000;
const CHUNK = 10_000;

/** mulberry32: a small seeded generator (the same addresses on every run and machine). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** First 16 bits of IPv6 blocks the RIRs allocate from, so that most addresses have data. */
const V6_TOPS = [
  0x2001, 0x2400, 0x2401, 0x2404, 0x2600, 0x2602, 0x2604, 0x2606, 0x2607, 0x2a00, 0x2a01, 0x2a02,
  0x2a03, 0x2a04, 0x2a05, 0x2800, 0x2803, 0x2c0f, 0x2002, 0x0064,
];

function sampleAddresses(count: number, seed = 43): string[] {
  const next = generator(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 5 < 3) {
      const v = next();
      out.push(`${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`);
    } else {
      const words = [V6_TOPS[next() % V6_TOPS.length] as number];
      for (let w = 1; w < 8; w++) words.push(next() & 0xffff);
      // NAT64 (64:ff9b::/96) needs its next 80 bits zero to stand for an IPv4 host.
      if (words[0] === 0x64) words.splice(1, 5, 0xff9b, 0, 0, 0, 0);
      out.push(words.map((w) => w.toString(16)).join(':'));
    }
  }
  return out;
}

/** sha256 of the answers of `COUNT` addresses, per `CHUNK` (so a failure says where). */
const RECORDED = {
  lookup: [
    '0a57b1d389d1dd5f',
    'b905d44cc69d17f8',
    'fa30de43709a1ab2',
    '842bade60be70720',
    '546a455e7c3134dd',
    '9fc0afdd702c224a',
    '85a601e8ddf75c66',
    'daec4d6bc54542b1',
    '8adbb7bec82fcdb5',
    'e0255e010f6c10db',
  ],
  v1: [
    'f6a537c79a28c33d',
    'a31db8d1acc6b983',
    '4c3421f24e2a1a9a',
    '270c905caa2d5997',
    'ab09208b5676b9ba',
    'ac2ec4ad0ffeab28',
    'c99b4a38ff30d1d0',
    '79afae7cc5aa7e03',
    'fb6535ac9872bd48',
    'c8075322ec1fb8c0',
  ],
  bulk: [
    '611faad25b854412',
    '784900005bc52452',
    '65fe8ec85a00df46',
    'c8a84d1e1021e850',
    'f7682f381642b0f4',
    '94ed23cd6f99843c',
    '149e2ec6e59a4929',
    '61c340ff659c1500',
    '86ff8da38adb8d0c',
    'adef4cbad2f93b11',
  ],
};

describe('lookup answers on 100,000 seeded addresses', () => {
  let engine: Netdiag;
  let cacheDir: string;
  const addresses = sampleAddresses(COUNT);
  beforeAll(async () => {
    // An empty cache directory: no feed copy changes an answer.
    cacheDir = mkdtempSync(join(tmpdir(), 'netdiag-stable-'));
    engine = createNetdiag({ cacheDir, feeds: 'manual' });
    await engine.lookupIp('1.1.1.1');
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const hashes = async (answer: (chunk: string[]) => Promise<string[]>): Promise<string[]> => {
    const out: string[] = [];
    for (let at = 0; at < COUNT; at += CHUNK) {
      const hash = createHash('sha256');
      for (const line of await answer(addresses.slice(at, at + CHUNK))) hash.update(`${line}\n`);
      out.push(hash.digest('hex').slice(0, 16));
    }
    return out;
  };
  const check = (name: keyof typeof RECORDED, got: string[]) => {
    if (process.env.NETDIAG_RECORD_ANSWERS === '1') {
      console.log(`${name}: ${JSON.stringify(got)}`);
      return;
    }
    expect(got).toEqual(RECORDED[name]);
  };

  it('lookupIp (/api/lookup)', async () => {
    const got = await hashes(async (chunk) =>
      Promise.all(chunk.map(async (ip) => JSON.stringify(await engine.lookupIp(ip)))),
    );
    check('lookup', got);
  }, 120_000);

  it('lookupIpV1 (/api/v1/ip/:address)', async () => {
    const got = await hashes(async (chunk) =>
      Promise.all(chunk.map(async (ip) => JSON.stringify(await engine.lookupIpV1(ip)))),
    );
    check('v1', got);
  }, 120_000);

  it('lookupIp read by position (the one-shot reader, nothing kept) gives the same answers', async () => {
    const positioned = await loadIpDatasets({ keep: false, cacheDir });
    try {
      const got = await hashes(async (chunk) =>
        chunk.map((ip) => JSON.stringify(lookupAnswer(positioned.lookup(ip)))),
      );
      check('lookup', got);
    } finally {
      positioned.close();
    }
  }, 120_000);

  it('bulkLookup (/api/bulk), 50 a request', async () => {
    const got = await hashes(async (chunk) => {
      const lines: string[] = [];
      for (let at = 0; at < chunk.length; at += 50) {
        lines.push(JSON.stringify(await engine.bulkLookup(chunk.slice(at, at + 50))));
      }
      return lines;
    });
    check('bulk', got);
  }, 120_000);
});
