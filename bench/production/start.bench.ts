/**
 * Server start to first answer: a server process is forked and `GET /api/lookup?ip=8.8.8.8`
 * polled every 20 ms from the fork until it answers 200; then its peak RSS (VmHWM) is read.
 * - "fresh machine": a new, empty NETDIAG_CACHE_DIR every round: the AS index and lookup tables
 *   come from the package build (`packages/core/data/ip-tables`, scripts/build-ip-tables.mjs);
 *   without that folder (removed, or a build with NETDIAG_BUILD_TABLES=0) everything is built
 *   at start, as before the package build made them;
 * - "warm cache": the directory the first fresh round filled (the usual restart).
 * Rounds interleaved. The child loads through tsx (bench/lib.ts `startChild`), which adds its
 * own start-up to every row alike. Linux only (VmHWM from /proc).
 * Run: npx pnpm@10 build && npx tsx bench/production/start.bench.ts   (BENCH_ROUNDS, default 5)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { percentile, startChild } from '../lib.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const script = fileURLToPath(new URL('./server.ts', import.meta.url));
const warmDir = mkdtempSync(join(tmpdir(), 'netdiag-bench-start-warm-'));

/** Peak resident set of a process, in MB. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function once(cacheDir: string): Promise<{ ms: number; rssMb: number }> {
  const started = performance.now();
  const server = await startChild(script, { NETDIAG_CACHE_DIR: cacheDir });
  for (;;) {
    const res = await request(`${server.url}/api/lookup?ip=8.8.8.8`).catch(() => undefined);
    const ok = res?.statusCode === 200;
    await res?.body.text();
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const ms = performance.now() - started;
  const rssMb = peakRssMb(server.child.pid as number);
  await server.stop();
  return { ms, rssMb };
}

await once(warmDir); // fills the warm directory
const samples = {
  fresh: { ms: [] as number[], rss: [] as number[] },
  warm: { ms: [] as number[], rss: [] as number[] },
};
for (let round = 0; round < rounds; round++) {
  for (const kind of round % 2 ? (['warm', 'fresh'] as const) : (['fresh', 'warm'] as const)) {
    const dir = kind === 'fresh' ? mkdtempSync(join(tmpdir(), 'netdiag-bench-start-')) : warmDir;
    const { ms, rssMb } = await once(dir);
    samples[kind].ms.push(ms);
    samples[kind].rss.push(rssMb);
    if (kind === 'fresh') rmSync(dir, { recursive: true, force: true });
  }
}
rmSync(warmDir, { recursive: true, force: true });
console.log(
  `| start | to first answer p50 ms | max ms | peak RSS p50 MB | max MB | (${rounds} rounds)`,
);
console.log('|---|---:|---:|---:|---:|');
for (const [kind, s] of Object.entries(samples)) {
  const ms = [...s.ms].sort((a, b) => a - b);
  const rss = [...s.rss].sort((a, b) => a - b);
  console.log(
    `| ${kind === 'fresh' ? 'fresh machine (empty cache)' : 'warm cache'} | ${percentile(ms, 50).toFixed(0)} | ${(ms.at(-1) ?? 0).toFixed(0)} | ${percentile(rss, 50).toFixed(0)} | ${(rss.at(-1) ?? 0).toFixed(0)} |`,
  );
}
