/**
 * CLI cold start: wall time and peak RSS of whole `netdiag` processes (built code), against
 * `node -e 0` (the floor every Node CLI pays) in the same run, rounds interleaved.
 * - `netdiag --version`: loads no command module;
 * - `netdiag lookup 8.8.8.8 --json`: the engine and the IP tables (from the on-disk table cache,
 *   warmed once before timing), no server code;
 * - `netdiag dns example.test --json`: the engine against a loopback DNS fixture.
 * Peak RSS comes from the process itself (`process.resourceUsage().maxRSS`, written at exit by a
 * preloaded module), so nothing outside Node is needed.
 * Run: npx pnpm@10 build && npx tsx bench/cli/start.bench.ts   (BENCH_ROUNDS, default 15)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDnsServer } from '@netdiag/test-utils';
import { percentile } from '../lib.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const bin = fileURLToPath(new URL('../../packages/cli/bin.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'netdiag-bench-cli-'));
const rssFile = join(dir, 'rss');
const preload = join(dir, 'rss.mjs');
writeFileSync(
  preload,
  `import { appendFileSync } from 'node:fs';
process.on('exit', () => appendFileSync(${JSON.stringify(rssFile)}, process.resourceUsage().maxRSS + '\\n'));`,
);
const dns = await startDnsServer({ zone: { 'example.test': { A: ['192.0.2.10'] } } });
// Every upstream on loopback: nothing here may leave the machine.
const env = {
  PATH: process.env.PATH,
  NETDIAG_CACHE_DIR: dir,
  NETDIAG_DNS_SERVERS: dns.address,
  NETDIAG_TOR_EXIT_LIST_URL: 'http://127.0.0.1:9/tor',
};

const cases: { name: string; args: string[] }[] = [
  { name: '`node -e 0` (floor)', args: ['-e', '0'] },
  { name: '`netdiag --version`', args: [bin, '--version'] },
  { name: '`netdiag lookup 8.8.8.8 --json`', args: [bin, 'lookup', '8.8.8.8', '--json'] },
  { name: '`netdiag dns example.test --json`', args: [bin, 'dns', 'example.test', '--json'] },
];

/** One process; asynchronous, so the DNS fixture in this process keeps answering. */
async function once(args: string[]): Promise<{ ms: number; rssMb: number }> {
  rmSync(rssFile, { force: true });
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, ['--import', preload, ...args], { env }, (error, _out, stderr) =>
      error ? reject(new Error(`${args.join(' ')} failed: ${stderr}`)) : resolve(),
    );
  });
  const ms = performance.now() - started;
  return { ms, rssMb: Number(readFileSync(rssFile, 'utf8').trim()) / 1024 };
}

// Warm-up: builds the lookup tables' disk cache, as any second run of the CLI finds it.
for (const c of cases) await once(c.args);
const samples = cases.map(() => ({ ms: [] as number[], rss: [] as number[] }));
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < cases.length; k++) {
    const i = (k + round) % cases.length; // rotate the order so machine load falls alike
    const { ms, rssMb } = await once((cases[i] as (typeof cases)[number]).args);
    samples[i]?.ms.push(ms);
    samples[i]?.rss.push(rssMb);
  }
}
console.log(`| command | wall p50 ms | wall p90 ms | peak RSS p50 MB | (${rounds} rounds)`);
console.log('|---|---:|---:|---:|');
cases.forEach((c, i) => {
  const ms = [...(samples[i]?.ms ?? [])].sort((a, b) => a - b);
  const rss = [...(samples[i]?.rss ?? [])].sort((a, b) => a - b);
  console.log(
    `| ${c.name} | ${percentile(ms, 50).toFixed(0)} | ${percentile(ms, 90).toFixed(0)} | ${percentile(rss, 50).toFixed(0)} |`,
  );
});
await dns.close();
rmSync(dir, { recursive: true, force: true });
