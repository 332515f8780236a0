/**
 * `netdiag bulk` on 100,000 addresses read from stdin: wall time and peak RSS of the whole built
 * CLI process per output format, against two floors in the same run, rounds interleaved:
 * - `node` copying stdin to stdout (what any Node CLI pays to read and write the bytes);
 * - geoip-lite (the most used IP-geolocation package on npm) looking up every line and writing
 *   one JSON line each, when installed (`npm install --prefix bench/peers`).
 * `lookup -` (the generic batch path: one engine call and one item per target) is measured too.
 * Addresses are random public IPv4 (seeded). Peak RSS: GNU time's %M. Every upstream on loopback
 * (run inside `unshare -n`); the IP tables come from a warmed disk cache.
 * Run: npx --yes pnpm@10 build && npx tsx bench/cli/bulk.bench.ts   (BENCH_ROUNDS, default 3;
 * BENCH_BULK_N, default 100000)
 */
// First: re-runs this bench on the built packages when started on the sources (see built.ts).
import '../built.js';
import { execFile } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPublicAddress } from '@netdiag/core';
import { seededRandom32 } from '@netdiag/test-utils';
import { percentile } from '../lib.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const count = Number(process.env.BENCH_BULK_N ?? 100_000);
const bin = fileURLToPath(new URL('../../packages/cli/bin.js', import.meta.url));
const peers = fileURLToPath(new URL('../peers/node_modules', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'netdiag-bench-bulk-'));
const input = join(dir, 'ips.txt');

const random = seededRandom32(15);
const lines: string[] = [];
while (lines.length < count) {
  const n = random() >>> 0;
  const ip = `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  if (isPublicAddress(ip)) lines.push(ip);
}
writeFileSync(input, `${lines.join('\n')}\n`);

const copy = join(dir, 'copy.mjs');
writeFileSync(copy, 'process.stdin.pipe(process.stdout);\n');
const geoip = join(dir, 'geoip.cjs');
writeFileSync(
  geoip,
  `const geoip = require(${JSON.stringify(join(peers, 'geoip-lite'))});
const rl = require('node:readline').createInterface({ input: process.stdin });
const out = [];
rl.on('line', (ip) => { out.push(JSON.stringify({ ip, ...geoip.lookup(ip) })); if (out.length >= 1000) { process.stdout.write(out.join('\\n') + '\\n'); out.length = 0; } });
rl.on('close', () => process.stdout.write(out.join('\\n') + '\\n'));
`,
);

const env = {
  PATH: process.env.PATH,
  NETDIAG_CACHE_DIR: dir,
  NETDIAG_DNS_SERVERS: '127.0.0.1:9',
  NETDIAG_TOR_EXIT_LIST_URL: 'http://127.0.0.1:9/tor',
};
const cases = [
  { name: '`node` copying stdin to stdout (floor)', args: [copy] },
  ...(existsSync(join(peers, 'geoip-lite'))
    ? [{ name: 'geoip-lite, one JSON line per address (peer)', args: [geoip] }]
    : []),
  { name: '`netdiag bulk -` (text table)', args: [bin, 'bulk', '-'] },
  { name: '`netdiag bulk - --format jsonl`', args: [bin, 'bulk', '-', '--format', 'jsonl'] },
  { name: '`netdiag bulk - --format csv`', args: [bin, 'bulk', '-', '--format', 'csv'] },
  { name: '`netdiag bulk - --json` (one document)', args: [bin, 'bulk', '-', '--json'] },
  { name: '`netdiag lookup - --format jsonl`', args: [bin, 'lookup', '-', '--format', 'jsonl'] },
];

/** One process under GNU time: stdin from the file, stdout discarded. */
function once(args: string[]): Promise<{ s: number; rssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      '/usr/bin/time',
      ['-f', '%e %M', process.execPath, ...args],
      { env, maxBuffer: 1 << 30 },
      (error, _stdout, stderr) => {
        if (error) return reject(new Error(`${args.join(' ')}: ${stderr.slice(-400)}`));
        const [s, kb] = stderr.trim().split('\n').at(-1)?.split(' ') ?? [];
        resolve({ s: Number(s), rssMb: Number(kb) / 1024 });
      },
    );
    // execFile has no stdin option: feed the file through the pipe.
    createReadStream(input).pipe(child.stdin as NodeJS.WritableStream);
  });
}

await once(cases[2]?.args ?? []); // warm the table cache
const samples = cases.map(() => ({ s: [] as number[], rss: [] as number[] }));
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < cases.length; k++) {
    const i = (k + round) % cases.length;
    const r = await once(cases[i]?.args ?? []);
    samples[i]?.s.push(r.s);
    samples[i]?.rss.push(r.rssMb);
  }
}
console.log(`${count} addresses on stdin, ${rounds} rounds, medians\n`);
console.log('| command | wall s | addresses/s | peak RSS MB |\n|---|---:|---:|---:|');
cases.forEach((c, i) => {
  const s = percentile(
    [...(samples[i]?.s ?? [])].sort((a, b) => a - b),
    50,
  );
  const rss = percentile(
    [...(samples[i]?.rss ?? [])].sort((a, b) => a - b),
    50,
  );
  console.log(
    `| ${c.name} | ${s.toFixed(2)} | ${Math.round(count / s).toLocaleString('en')} | ${rss.toFixed(0)} |`,
  );
});
