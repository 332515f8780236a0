/**
 * GET /api/lookup throughput (a random public address per request) against (a) a bare Express 5 route returning a constant JSON body
 * of the same size (the framework's floor) and (b) bare node:http calling the same lookup;
 * POST /api/bulk latency with 50 addresses; cold start to first answer and RSS with all IP
 * data loaded. Servers run in child processes on the built packages; everything stays on
 * loopback.
 *
 * The three servers run side by side and are loaded in interleaved rounds (the order rotating),
 * so that the load of other processes on a shared machine falls on each alike. Besides req/s,
 * each run records the server's CPU time per request (from /proc): the load generator shares
 * the machine, and CPU per request is the steadier measure of what a request costs.
 * Run: npx pnpm@10 build && npx tsx bench/ip/http.bench.ts   (BENCH_DURATION_S per run,
 * default 5; BENCH_ROUNDS, default 5)
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
const bare = await startChild(here('./servers/bare-lookup.ts'), env);

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
for (let round = 0; round < rounds; round++) {
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
const [api, expressFloor, bareNode] = contestants as [Contestant, Contestant, Contestant];
console.log(`${rounds} interleaved rounds of ${duration} s, 50 connections; medians\n`);
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
if (previous) {
  const older = contestants[3] as Contestant;
  console.log(
    `before: /api/lookup ÷ Express constant route, req/s: ${show(perRound(older, expressFloor, 'rps'))}`,
  );
  console.log(`this build ÷ before, req/s: ${show(perRound(api, older, 'rps'))}`);
  await previous.stop();
}
await floor.stop();
await bare.stop();

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
