/**
 * Server memory under `/api/lookup` load: `node packages/http/dist/bin.js` as operators start it
 * (no V8 flag), fresh cache directory, RSS (VmRSS) at the first answer and after 60 s of
 * autocannon with a new random public address per request (1 in 5 IPv6), peak (VmHWM) at the
 * end. Every upstream on a closed loopback port; run inside `unshare -n`. Linux only.
 * Run: npx --yes pnpm@10 build && npx tsx bench/ip/server-rss.bench.ts   (BENCH_DURATION_S,
 * default 60)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyAddress } from '@netdiag/core';
import { seededRandom32 } from '@netdiag/test-utils';
import { request } from 'undici';
import { LOOPBACK_UPSTREAMS, load } from '../lib.js';

const duration = Number(process.env.BENCH_DURATION_S ?? 60);
const port = 18_000 + Math.floor(Math.random() * 1000);
const bin = fileURLToPath(new URL('../../packages/http/dist/bin.js', import.meta.url));
const child = spawn(process.execPath, [bin], {
  env: {
    PATH: process.env.PATH,
    ...LOOPBACK_UPSTREAMS,
    PORT: String(port),
    HOST: '127.0.0.1',
    NETDIAG_LOG_LEVEL: 'silent',
    NETDIAG_RATE_LIMIT: '1000000',
    NETDIAG_CACHE_DIR: mkdtempSync(join(tmpdir(), 'netdiag-bench-rss-')),
  },
  stdio: 'ignore',
});
// A server that cannot start (a bad setting) ends the bench instead of leaving it polling.
let done = false;
child.on('exit', (code) => {
  if (!done) throw new Error(`the server exited with ${code} before the bench ended`);
});
const status = (field: string) =>
  Number(
    readFileSync(`/proc/${child.pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`))?.[1],
  ) / 1024;

const url = `http://127.0.0.1:${port}`;
for (;;) {
  try {
    const r = await request(`${url}/api/lookup?ip=8.8.8.8`);
    await r.body.dump();
    if (r.statusCode === 200) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 20));
}
const first = status('VmRSS');

const random = seededRandom32(20_261_203);
const address = (): string => {
  for (;;) {
    const ip =
      random() % 5 === 0
        ? `2${(random() % 0x1000).toString(16).padStart(3, '0')}:${Array.from({ length: 7 }, () => (random() & 0xffff).toString(16)).join(':')}`
        : [random() >>> 24, (random() >>> 16) & 255, (random() >>> 8) & 255, random() & 255].join(
            '.',
          );
    if (classifyAddress(ip).public) return ip;
  }
};
const result = await load('lookup', {
  url,
  duration,
  connections: 20,
  requests: [{ setupRequest: (req) => ({ ...req, path: `/api/lookup?ip=${address()}` }) }],
});
const after = status('VmRSS');
const peak = status('VmHWM');
done = true;
child.kill('SIGTERM');
console.log(
  `| RSS at the first answer | after ${duration} s of /api/lookup (${result.rps} req/s, ${result.errors} errors, ${result.non2xx} non-2xx) | peak |\n|---:|---:|---:|\n| ${first.toFixed(0)} MB | ${after.toFixed(0)} MB | ${peak.toFixed(0)} MB |`,
);
