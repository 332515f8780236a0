/**
 * Server start to first answer: a server process is forked and `GET /api/lookup?ip=8.8.8.8`
 * polled every 20 ms from the fork until it answers 200; then its peak RSS (VmHWM) is read.
 * - "fresh machine": a new, empty NETDIAG_CACHE_DIR every round: the AS index and lookup tables
 *   come from the package build (`packages/core/data/ip-tables`, scripts/build-ip-tables.mjs);
 *   without that folder (removed, or a build with NETDIAG_BUILD_TABLES=0) everything is built
 *   at start, as before the package build made them;
 * - "warm cache": the directory the first fresh round filled (the usual restart).
 * Rounds interleaved. The child loads through tsx (bench/lib.ts `startChild`), which adds its
 * own start-up to every row alike (~0.5 s and ~50 MB); the last row is the server as operators
 * start it, `node packages/http/dist/bin.js`, on a fresh machine, without tsx (and so without
 * the child network guard: every upstream points at a closed loopback port, and the bench is
 * meant to run inside `unshare -n`). Linux only (VmHWM from /proc).
 * Run: npx --yes pnpm@10 build && npx tsx bench/production/start.bench.ts   (BENCH_ROUNDS, default 5)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { LOOPBACK_UPSTREAMS, percentile, startChild } from '../lib.js';

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

const bin = fileURLToPath(new URL('../../packages/http/dist/bin.js', import.meta.url));

/** A free loopback port (bound and released). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `node packages/http/dist/bin.js` with an empty cache directory, to its first answer. */
async function bare(): Promise<{ ms: number; rssMb: number }> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'netdiag-bench-start-bin-'));
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [bin], {
    env: {
      ...LOOPBACK_UPSTREAMS,
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NETDIAG_CACHE_DIR: cacheDir,
      NETDIAG_LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    const res = await request(`http://127.0.0.1:${port}/api/lookup?ip=8.8.8.8`).catch(
      () => undefined,
    );
    const ok = res?.statusCode === 200;
    await res?.body.text();
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const ms = performance.now() - started;
  const rssMb = peakRssMb(child.pid as number);
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  rmSync(cacheDir, { recursive: true, force: true });
  return { ms, rssMb };
}

await once(warmDir); // fills the warm directory
const samples = {
  fresh: { ms: [] as number[], rss: [] as number[] },
  warm: { ms: [] as number[], rss: [] as number[] },
  bin: { ms: [] as number[], rss: [] as number[] },
};
for (let round = 0; round < rounds; round++) {
  for (const kind of round % 2 ? (['warm', 'fresh'] as const) : (['fresh', 'warm'] as const)) {
    const dir = kind === 'fresh' ? mkdtempSync(join(tmpdir(), 'netdiag-bench-start-')) : warmDir;
    const { ms, rssMb } = await once(dir);
    samples[kind].ms.push(ms);
    samples[kind].rss.push(rssMb);
    if (kind === 'fresh') rmSync(dir, { recursive: true, force: true });
  }
  const { ms, rssMb } = await bare();
  samples.bin.ms.push(ms);
  samples.bin.rss.push(rssMb);
}
rmSync(warmDir, { recursive: true, force: true });
const LABELS = {
  fresh: 'fresh machine (empty cache), through tsx',
  warm: 'warm cache, through tsx',
  bin: 'fresh machine (empty cache), `node packages/http/dist/bin.js`',
};
console.log(
  `| start | to first answer p50 ms | max ms | peak RSS p50 MB | max MB | (${rounds} rounds)`,
);
console.log('|---|---:|---:|---:|---:|');
for (const [kind, s] of Object.entries(samples)) {
  const ms = [...s.ms].sort((a, b) => a - b);
  const rss = [...s.rss].sort((a, b) => a - b);
  console.log(
    `| ${LABELS[kind as keyof typeof LABELS]} | ${percentile(ms, 50).toFixed(0)} | ${(ms.at(-1) ?? 0).toFixed(0)} | ${percentile(rss, 50).toFixed(0)} | ${(rss.at(-1) ?? 0).toFixed(0)} |`,
  );
}
