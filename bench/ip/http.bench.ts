/**
 * GET /api/lookup throughput against (a) a bare Express 5 route returning a constant JSON body
 * of the same size (the framework's floor) and (b) bare node:http calling the same lookup;
 * POST /api/bulk latency with 50 addresses; cold start to first answer and RSS with all IP
 * data loaded. Servers run in child processes; everything stays on loopback.
 * Run: npx tsx bench/ip/http.bench.ts   (BENCH_DURATION_S, default 10)
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LoadResult, load, startChild, table } from '../lib.js';

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
const duration = Number(process.env.BENCH_DURATION_S ?? 10);
const env = { NETDIAG_CACHE_DIR: join(process.cwd(), '.netdiag-cache') };
const ips = ['8.8.8.8', '1.1.1.1', '81.2.69.160', '2a00:1450:4001:80b::200e', '185.199.108.153'];
const requests = ips.map((ip) => ({
  method: 'GET' as const,
  path: `/api/lookup?ip=${encodeURIComponent(ip)}`,
}));

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

const rows: LoadResult[] = [];
await load('warm-up', { url: ours.url, requests, duration: 2 });
rows.push(
  await load('netdiag GET /api/lookup (Express 5 + all middleware)', {
    url: ours.url,
    requests,
    duration,
  }),
);
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
rows.push(bulk);
// Again after the load: the buffers used while loading have been collected by then.
const rssAfterMb = await rssOf(ours.child.pid as number);
await ours.stop();

const floor = await startChild(here('./servers/express-constant.ts'), { BENCH_BODY: firstBody });
await load('warm-up', { url: `${floor.url}/api/lookup`, duration: 2 });
rows.push(
  await load('Express 5 constant body, same size', { url: `${floor.url}/api/lookup`, duration }),
);
await floor.stop();

const bare = await startChild(here('./servers/bare-lookup.ts'), env);
await load('warm-up', { url: bare.url, requests, duration: 2 });
rows.push(await load('bare node:http + same lookup', { url: bare.url, requests, duration }));
await bare.stop();

console.log(table(rows));
const [api, , expressFloor, bareNode] = rows;
console.log(
  `\n/api/lookup ÷ Express constant route: ${((api?.rps ?? 0) / (expressFloor?.rps ?? 1)).toFixed(2)} (target ≥ 0.8)`,
);
console.log(
  `/api/lookup ÷ bare node:http + lookup: ${((api?.rps ?? 0) / (bareNode?.rps ?? 1)).toFixed(2)} (reported)`,
);
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
