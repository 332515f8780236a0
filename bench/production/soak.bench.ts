/**
 * Soak: a steady BENCH_RATE requests/second (default 300) of the mixed workload for
 * BENCH_DURATION_S (default 600). Samples RSS and heap from /metrics every 10 s and reports
 * growth after the first minute (warm-up).
 * Run: npx --yes pnpm@10 build && npx tsx bench/production/soak.bench.ts
 */
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startChild } from '../lib.js';
import { startWorkloadDns, workloadRequests } from './workload.js';

const duration = Number(process.env.BENCH_DURATION_S ?? 600);
const rate = Number(process.env.BENCH_RATE ?? 300);
const dns = await startWorkloadDns();
const server = await startChild(fileURLToPath(new URL('./server.ts', import.meta.url)), {
  NETDIAG_DNS_SERVERS: dns.address,
  NETDIAG_TOR_EXIT_LIST_URL: 'http://127.0.0.1:9/tor',
});

const samples: { t: number; rssMb: number; heapMb: number }[] = [];
const sample = async (t: number) => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const read = (name: string) =>
    Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? Number.NaN) / 2 ** 20;
  samples.push({
    t,
    rssMb: read('netdiag_process_resident_memory_bytes'),
    heapMb: read('netdiag_nodejs_heap_size_used_bytes'),
  });
};
const started = Date.now();
await sample(0);
const timer = setInterval(() => void sample(Math.round((Date.now() - started) / 1000)), 2_000);
const result = await autocannon({
  url: server.url,
  requests: workloadRequests(),
  duration,
  connections: 20,
  overallRate: rate,
});
clearInterval(timer);
await sample(Math.round((Date.now() - started) / 1000));
await server.stop();
await dns.close();

// Heap used swings with every GC; the lowest sample of each minute is the post-GC baseline,
// which is what grows when something leaks.
const minutes = new Map<number, { rss: number; heap: number }>();
for (const s of samples) {
  const minute = Math.floor(s.t / 60);
  const m = minutes.get(minute) ?? {
    rss: Number.POSITIVE_INFINITY,
    heap: Number.POSITIVE_INFINITY,
  };
  minutes.set(minute, { rss: Math.min(m.rss, s.rssMb), heap: Math.min(m.heap, s.heapMb) });
}
console.log(
  '| minute | lowest RSS MiB | lowest heap used MiB (post-GC baseline) |\n|---:|---:|---:|',
);
for (const [minute, m] of [...minutes].sort((a, b) => a[0] - b[0])) {
  console.log(`| ${minute} | ${m.rss.toFixed(1)} | ${m.heap.toFixed(1)} |`);
}
const settled = [...minutes].filter(([minute]) => minute >= 1).sort((a, b) => a[0] - b[0]);
const first = settled[0]?.[1];
const last = settled[settled.length - 1]?.[1];
if (first && last) {
  console.log(
    `\nafter warm-up (minute 1 → minute ${settled[settled.length - 1]?.[0]}): baseline RSS ${(last.rss - first.rss).toFixed(1)} MiB, baseline heap ${(last.heap - first.heap).toFixed(1)} MiB`,
  );
}
console.log(
  `requests: ${result.requests.total}, average ${Math.round(result.requests.average)}/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
);
