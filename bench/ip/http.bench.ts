/**
 * GET /api/lookup throughput (a random public address per request) against (a) a bare Express 5
 * route returning a constant JSON body of the same size (the framework's floor), (b) bare
 * node:http calling the same lookup and (c) a bare Express 5 route calling the same lookup
 * without any of the API's middleware (what the lookup costs any Express app); POST /api/bulk
 * latency with 50 addresses; cold start to first answer and RSS with all IP data loaded. Servers
 * run in child processes on the built packages; everything stays on loopback.
 *
 * The servers run side by side and are loaded in interleaved rounds (the order rotating), so
 * that the load of other processes on a shared machine falls on each alike; with
 * BENCH_PAIRED=1 all of them are loaded at once in each round instead (see below). Besides
 * req/s, each run records the server's CPU time per request (from /proc): the load generator
 * shares the machine, and CPU per request is the steadier measure of what a request costs.
 * Run: npx --yes pnpm@10 build && npx tsx bench/ip/http.bench.ts   (BENCH_DURATION_S per run,
 * default 5; BENCH_ROUNDS, default 5; BENCH_PAIRED=1)
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyAddress } from '@netdiag/core';
import { seededRandom32 } from '@netdiag/test-utils';
import { type ChildServer, cpuMicros, type LoadResult, load, startChild, table } from '../lib.js';

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const duration = Number(process.env.BENCH_DURATION_S ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const env = { NETDIAG_CACHE_DIR: join(process.cwd(), '.netdiag-cache') };
// A fresh random public address for every request (1 in 5 IPv6), so that no cache is hot:
// cycling a handful of addresses measured only cache hits (issue 20 item 17). Seeded, so every
// contestant and every run draws the same kind of sequence.
const random = seededRandom32(20_261_124);
function randomPublicIp(): string {
  for (;;) {
    const ip =
      random() % 5 === 0
        ? `2${(random() % 0x1000).toString(16).padStart(3, '0')}:${Array.from({ length: 7 }, () => (random() & 0xffff).toString(16)).join(':')}`
        : [random() >>> 24, (random() >>> 16) & 255, (random() >>> 8) & 255, random() & 255].join(
            '.',
          );
    if (classifyAddress(ip).public) return ip;
  }
}
const requests = [
  {
    method: 'GET' as const,
    path: '/api/lookup?ip=8.8.8.8',
    setupRequest: (request: { path?: string }) => ({
      ...request,
      path: `/api/lookup?ip=${encodeURIComponent(randomPublicIp())}`,
    }),
  },
];

// Cold start: spawn → first successful /api/lookup; then RSS with the data loaded.
const spawnAt = performance.now();
const ours = await startChild(here('./servers/netdiag.ts'), env);
let firstBody = '';
for (;;) {
  const res = await fetch(`${ours.url}/api/lookup?ip=8.8.8.8`);
  firstBody = await res.text();
  if (res.ok) break;
}
const coldMs = performance.now() - spawnAt;
const rssMb = await rssOf(ours.child.pid as number);

const floor = await startChild(here('./servers/express-constant.ts'), { BENCH_BODY: firstBody });
// BENCH_HTTP_BEFORE=/path/to/older/packages/http/dist/index.js: that build too, in the same run
// (own cache directory: table-cache formats differ between builds).
const beforeEntry = process.env.BENCH_HTTP_BEFORE;
const previous = beforeEntry
  ? await startChild(here('./servers/netdiag.ts'), {
      BENCH_HTTP_ENTRY: beforeEntry,
      NETDIAG_CACHE_DIR: join(process.cwd(), '.netdiag-cache-before'),
    })
  : undefined;
if (previous) {
  for (;;) if ((await fetch(`${previous.url}/api/lookup?ip=8.8.8.8`)).ok) break;
}
const floorBorn = await startChild(here('./servers/express-constant.ts'), {
  BENCH_BODY: firstBody,
  BENCH_BORN: '1',
});
const bare = await startChild(here('./servers/bare-lookup.ts'), env);
const expressLookup = await startChild(here('./servers/express-lookup.ts'), env);

interface Contestant {
  name: string;
  server: ChildServer;
  options: { url: string; requests?: typeof requests };
  runs: { rps: number; cpuPerRequest: number; p50: number; p99: number; errors: number }[];
}
const contestants: Contestant[] = [
  {
    name: 'netdiag GET /api/lookup (Express 5 + all middleware)',
    server: ours,
    options: { url: ours.url, requests },
    runs: [],
  },
  {
    name: 'Express 5 constant body, same size',
    server: floor,
    options: { url: `${floor.url}/api/lookup` },
    runs: [],
  },
  {
    name: 'bare node:http + same lookup',
    server: bare,
    options: { url: bare.url, requests },
    runs: [],
  },
  {
    name: 'Express 5 route + same lookup, no middleware',
    server: expressLookup,
    options: { url: expressLookup.url, requests },
    runs: [],
  },
  {
    name: "Express 5 constant body, objects made with the app's prototypes (as startServer does)",
    server: floorBorn,
    options: { url: `${floorBorn.url}/api/lookup` },
    runs: [],
  },
  ...(previous
    ? [
        {
          name: 'before: netdiag GET /api/lookup (the build in BENCH_HTTP_BEFORE)',
          server: previous,
          options: { url: previous.url, requests },
          runs: [],
        },
      ]
    : []),
];

for (const c of contestants) await load('warm-up', { ...c.options, duration: 2 });
// BENCH_PAIRED=1: every contestant under load at the same time in each round (20 connections
// each), so that all of them meet the same machine. Here the machine's speed changes by up to
// 2x from one stretch of seconds to the next, and in sequential rounds a ratio read 0.34 in one
// round and 0.87 in the next; run side by side, the CPU per request of each is measured under
// the same conditions (the load generator and every server share the two cores).
const paired = process.env.BENCH_PAIRED === '1';
for (let round = 0; paired && round < rounds; round++) {
  const pids = contestants.map((c) => c.server.child.pid as number);
  const before = await Promise.all(pids.map(cpuMicros));
  const results = await Promise.all(
    contestants.map((c) => load(c.name, { ...c.options, duration, connections: 20 })),
  );
  const after = await Promise.all(pids.map(cpuMicros));
  contestants.forEach((c, k) => {
    const result = results[k] as LoadResult;
    c.runs.push({
      rps: result.rps,
      cpuPerRequest: ((after[k] as number) - (before[k] as number)) / Math.max(1, result.total),
      p50: result.p50,
      p99: result.p99,
      errors: result.errors + result.non2xx,
    });
  });
}
for (let round = 0; !paired && round < rounds; round++) {
  for (let k = 0; k < contestants.length; k++) {
    const c = contestants[(round + k) % contestants.length] as Contestant;
    const pid = c.server.child.pid as number;
    const before = await cpuMicros(pid);
    const result = await load(c.name, { ...c.options, duration });
    const used = (await cpuMicros(pid)) - before;
    c.runs.push({
      rps: result.rps,
      cpuPerRequest: used / Math.max(1, result.total),
      p50: result.p50,
      p99: result.p99,
      errors: result.errors + result.non2xx,
    });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const [api, expressFloor, bareNode, expressRoute, expressFloorBorn] = contestants as [
  Contestant,
  Contestant,
  Contestant,
  Contestant,
  Contestant,
];
console.log(
  paired
    ? `${rounds} rounds of ${duration} s, every server loaded at once (20 connections each); medians\n`
    : `${rounds} interleaved rounds of ${duration} s, 50 connections; medians\n`,
);
console.log('| server | req/s | server CPU µs per request | p50 ms | p99 ms | errors |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const c of contestants) {
  console.log(
    `| ${c.name} | ${median(c.runs.map((r) => r.rps))} | ${median(c.runs.map((r) => r.cpuPerRequest)).toFixed(0)} | ${median(c.runs.map((r) => r.p50))} | ${median(c.runs.map((r) => r.p99))} | ${c.runs.reduce((n, r) => n + r.errors, 0)} |`,
  );
}
const perRound = (a: Contestant, b: Contestant, key: 'rps' | 'cpuPerRequest') =>
  a.runs.map((run, i) => {
    const other = b.runs[i]?.[key] ?? 1;
    return key === 'rps' ? run.rps / other : other / run.cpuPerRequest;
  });
const show = (values: number[]) =>
  `${median(values).toFixed(2)} (rounds: ${values.map((v) => v.toFixed(2)).join(', ')})`;
console.log(
  `\n/api/lookup ÷ Express constant route, req/s: ${show(perRound(api, expressFloor, 'rps'))} (target ≥ 0.8)`,
);
console.log(
  `/api/lookup ÷ Express constant route, by CPU per request: ${show(perRound(api, expressFloor, 'cpuPerRequest'))}`,
);
console.log(
  `/api/lookup ÷ bare node:http + lookup, req/s: ${show(perRound(api, bareNode, 'rps'))} (reported)`,
);
console.log(
  `Express route + lookup, no middleware ÷ Express constant route, by CPU per request: ${show(perRound(expressRoute, expressFloor, 'cpuPerRequest'))} (reference: the lookup in any Express app)`,
);
console.log(
  `/api/lookup ÷ Express constant route with the same server construction, by CPU per request: ${show(perRound(api, expressFloorBorn, 'cpuPerRequest'))} (reference: Express's floor as startServer serves it)`,
);
if (previous) {
  const older = contestants[5] as Contestant;
  console.log(
    `before: /api/lookup ÷ Express constant route, req/s: ${show(perRound(older, expressFloor, 'rps'))}`,
  );
  console.log(`this build ÷ before, req/s: ${show(perRound(api, older, 'rps'))}`);
  await previous.stop();
}
await floor.stop();
await floorBorn.stop();
await bare.stop();
await expressLookup.stop();

const bulkBody = JSON.stringify({
  ips: Array.from({ length: 50 }, (_, i) => `${((i * 37) % 223) + 1}.${i}.${i * 3}.1`),
});
const bulk = await load('netdiag POST /api/bulk (50 IPs)', {
  url: `${ours.url}/api/bulk`,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: bulkBody,
  duration,
  connections: 10,
});
// Again after the load: the buffers used while loading have been collected by then.
const rssAfterMb = await rssOf(ours.child.pid as number);
await ours.stop();

console.log(`\n${table([bulk] satisfies LoadResult[])}`);
console.log(`POST /api/bulk 50 IPs: p50 ${bulk.p50} ms, p99 ${bulk.p99} ms (10 connections)`);
console.log(
  `cold start to first /api/lookup answer: ${Math.round(coldMs)} ms; RSS with data loaded: ${rssMb} MB at the first answer, ${rssAfterMb} MB after the load tests`,
);

async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
