/**
 * The resolver and the DNSBL check against a real authoritative server, on built code (issue 22
 * items 1, 2, 7): NSD from Debian serves 1,000 hosts (A, MX) and the 12 DNSBL zones on
 * loopback; netdiag's uncached resolver (`@netdiag/core` from packages/core/dist) and Node's
 * `dns.promises.Resolver` (c-ares) ask it the same names in the same run, in interleaved rounds.
 *
 * Besides queries per second, each case records this process's CPU time per query
 * (`process.cpuUsage`): NSD runs in its own process, so the figure is what the client side of a
 * query costs — the steadier measure on a shared machine.
 *
 *  1. A queries, 50 in flight and 1 in flight: netdiag vs c-ares.
 *  2. `checkBlacklist` of a clean address, caches off: p50 latency, against 12 c-ares queries in
 *     parallel (the floor for 12 lists) and one c-ares query (one round trip).
 *  3. The same three through a relay that holds every answer BENCH_DELAY_MS (default 5 ms; a
 *     DNSBL server is 10-50 ms away in practice): on bare loopback a "round trip" is only the
 *     client's CPU time, so 12 queries cost 7 of them even for c-ares; with a network between,
 *     what item 2 asks for — the lists cost about one round trip — can be seen.
 *
 * Run: npx --yes pnpm@10 build && npx tsx bench/dns/nsd.bench.ts   (needs nsd: apt-get install nsd;
 * BENCH_QUERIES, default 20000; BENCH_ROUNDS, default 5)
 */
// First: re-runs this bench on the built packages when started on the sources (see built.ts).
import '../built.js';
import { fork } from 'node:child_process';
import dns from 'node:dns';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { checkBlacklist, createResolver, DNSBL_ZONES, dnsblQueryName } from '@netdiag/core';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import { startNsd } from '../../test-utils/src/nsd-server.js';
import { tempDir } from '../../test-utils/src/temp-dir.js';
import { percentile } from '../lib.js';

installNetworkGuard();

const QUERIES = Number(process.env.BENCH_QUERIES ?? 20_000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const HOSTS = 1000;
const host = (i: number) => `host${i % HOSTS}.bench.test`;

// --- zones ---
const dir = tempDir('netdiag-bench-nsd-');
const soa = (origin: string) =>
  `$ORIGIN ${origin}.\n$TTL 300\n@ SOA ns.${origin}. admin.${origin}. 1 3600 600 86400 300\n@ NS ns.${origin}.\nns A 127.0.0.1\n`;
const benchZone = [soa('bench.test')];
for (let i = 0; i < HOSTS; i++) {
  benchZone.push(`host${i} A 10.0.${i >> 8}.${i & 255}\nhost${i} MX 10 mx.host${i}.bench.test.\n`);
}
const zones = [{ name: 'bench.test', file: join(dir, 'bench.test.zone') }];
writeFileSync(zones[0]?.file as string, benchZone.join(''));
for (const list of DNSBL_ZONES) {
  const file = join(dir, `${list.zone}.zone`);
  // RFC 5782 §5: the test point 127.0.0.2 is listed, everything else NXDOMAIN.
  const listed = dnsblQueryName('127.0.0.2', list.zone);
  writeFileSync(file, `${soa(list.zone)}${listed}. A 127.0.0.2\n${listed}. TXT "test point"\n`);
  zones.push({ name: list.zone, file });
}
const nsd = await startNsd(zones);

type Row = { name: string; perSecond: number; cpuUs: number; p50: number };

async function run(
  name: string,
  count: number,
  concurrency: number,
  task: (i: number) => Promise<unknown>,
): Promise<Row> {
  for (let i = 0; i < 200; i++) await task(i);
  const latencies: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t = performance.now();
        await task(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  latencies.sort((a, b) => a - b);
  return {
    name,
    perSecond: Math.round((count / elapsed) * 1000),
    cpuUs: Number(((used.user + used.system) / count).toFixed(1)),
    p50: Number(percentile(latencies, 50).toFixed(3)),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
};

const loadBefore = loadavg();
const netdiag = createResolver({ servers: [nsd.address], cache: false });
const cares = new dns.promises.Resolver({ timeout: 2000, tries: 2 });
cares.setServers([nsd.address]);
const clean = (i: number) => `198.51.${(i >> 8) & 255}.${i & 255}`;
const rounds: Row[][] = [];
const delayed: Row[][] = [];
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 5);
try {
  for (let round = 0; round < ROUNDS; round++) {
    const rows: Row[] = [];
    for (const concurrency of [50, 1]) {
      const count = concurrency === 1 ? Math.min(QUERIES, 5_000) : QUERIES;
      const pair = [
        () =>
          run(`netdiag A, ${concurrency} in flight`, count, concurrency, (i) =>
            netdiag.query(host(i), 'A'),
          ),
        () =>
          run(`c-ares (node:dns) A, ${concurrency} in flight`, count, concurrency, (i) =>
            cares.resolve4(host(i), { ttl: true }),
          ),
      ];
      // Alternate who goes first, so a load spike does not always hit the same one.
      const order = round % 2 === 0 ? pair : [...pair].reverse();
      const measured = [
        await (order[0] as () => Promise<Row>)(),
        await (order[1] as () => Promise<Row>)(),
      ];
      rows.push(...(round % 2 === 0 ? measured : [...measured].reverse()));
    }
    rows.push(
      await run('checkBlacklist, clean address, 12 lists, uncached', 1_000, 1, (i) =>
        checkBlacklist(clean(i), { resolver: netdiag, cache: false }),
      ),
      await run('12 c-ares A queries in parallel (the floor)', 1_000, 1, (i) =>
        Promise.all(
          DNSBL_ZONES.map((z) =>
            cares.resolve4(dnsblQueryName(clean(i), z.zone)).catch(() => undefined),
          ),
        ),
      ),
      await run('one c-ares A query (one round trip)', 2_000, 1, (i) =>
        cares.resolve4(dnsblQueryName(clean(i), DNSBL_ZONES[0]?.zone ?? '')).catch(() => undefined),
      ),
    );
    rounds.push(rows);
  }
  // --- 3: with a network between (the relay adds the round trip) ---
  const relay = fork(new URL('./delay-relay.ts', import.meta.url), [], {
    env: { ...process.env, BENCH_UPSTREAM: nsd.address, BENCH_DELAY_MS: String(DELAY_MS) },
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      relay.once('message', (m) => resolve((m as { port: number }).port));
      relay.once('exit', (code) => reject(new Error(`delay relay exited with ${code}`)));
    });
    const far = `127.0.0.1:${port}`;
    const netdiagFar = createResolver({ servers: [far], cache: false });
    const caresFar = new dns.promises.Resolver({ timeout: 2000, tries: 2 });
    caresFar.setServers([far]);
    for (let round = 0; round < ROUNDS; round++) {
      delayed.push([
        await run(`checkBlacklist, 12 lists, ${DELAY_MS} ms away`, 200, 1, (i) =>
          checkBlacklist(clean(i + 50_000), { resolver: netdiagFar, cache: false }),
        ),
        await run(`12 c-ares A queries in parallel, ${DELAY_MS} ms away`, 200, 1, (i) =>
          Promise.all(
            DNSBL_ZONES.map((z) =>
              caresFar.resolve4(dnsblQueryName(clean(i + 50_000), z.zone)).catch(() => undefined),
            ),
          ),
        ),
        await run(`one c-ares A query, ${DELAY_MS} ms away`, 200, 1, (i) =>
          caresFar
            .resolve4(dnsblQueryName(clean(i + 50_000), DNSBL_ZONES[0]?.zone ?? ''))
            .catch(() => undefined),
        ),
      ]);
    }
  } finally {
    relay.kill();
  }
} finally {
  await nsd.close();
}

const loadAfter = loadavg();
const byName = (rows: Row[][]) =>
  (rows[0] ?? []).map((first, i) => ({
    name: first.name,
    perSecond: median(rows.map((r) => (r[i] as Row).perSecond)),
    cpuUs: median(rows.map((r) => (r[i] as Row).cpuUs)),
    p50: median(rows.map((r) => (r[i] as Row).p50)),
  }));
const result = byName(rounds);
console.log(
  `\nNSD ${nsd.address}, ${QUERIES} queries over ${HOSTS} names, median of ${ROUNDS} rounds; load average ${loadBefore[0]?.toFixed(2)} before, ${loadAfter[0]?.toFixed(2)} after`,
);
console.log('| case | per second | client CPU µs per call | p50 ms |');
console.log('|---|---:|---:|---:|');
for (const r of result) console.log(`| ${r.name} | ${r.perSecond} | ${r.cpuUs} | ${r.p50} |`);
const get = (name: string) =>
  result.find((r) => r.name.startsWith(name)) as (typeof result)[number];
const ratio = (a: string, b: string) => (get(a).perSecond / get(b).perSecond).toFixed(2);
console.log(
  `\nnetdiag / c-ares, 50 in flight: ${ratio('netdiag A, 50', 'c-ares (node:dns) A, 50')}×`,
);
console.log(`netdiag / c-ares, 1 in flight: ${ratio('netdiag A, 1 ', 'c-ares (node:dns) A, 1 ')}×`);
const rtt = get('one c-ares A query').p50;
console.log(
  `checkBlacklist p50 = ${(get('checkBlacklist').p50 / rtt).toFixed(1)} round trips (one c-ares query ${rtt} ms); 12 parallel c-ares queries = ${(get('12 c-ares').p50 / rtt).toFixed(1)}`,
);
const far = byName(delayed);
console.log(
  `\nThrough a relay that holds each answer ${DELAY_MS} ms, median of ${ROUNDS} rounds of 200`,
);
console.log('| case | per second | client CPU µs per call | p50 ms |');
console.log('|---|---:|---:|---:|');
for (const r of far) console.log(`| ${r.name} | ${r.perSecond} | ${r.cpuUs} | ${r.p50} |`);
const farRtt = (far[2] as Row).p50;
console.log(
  `checkBlacklist p50 = ${((far[0] as Row).p50 / farRtt).toFixed(2)} round trips (one c-ares query ${farRtt} ms); 12 parallel c-ares queries = ${((far[1] as Row).p50 / farRtt).toFixed(2)}`,
);
