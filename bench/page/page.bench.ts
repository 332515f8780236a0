/**
 * The page at `/`: bytes transferred (HTML, script, style sheet) and time to the first answer
 * on loopback — the server-rendered HTML with the visitor's address, score and evidence — for a
 * public visitor (X-Forwarded-For through a trusted loopback proxy; blocklist answers from a
 * loopback DNS server, first uncached, then cached) and for curl's plain-text answer.
 * Run: npx --yes pnpm@10 build && npx tsx bench/page/page.bench.ts   (BENCH_ROUNDS, default 200)
 */
// First: re-runs this bench on the built packages when started on the sources (see built.ts).
import '../built.js';
import type { AddressInfo } from 'node:net';
import { createApp } from '@netdiag/http';
import { removeTempDirs, startDnsServer, tempDir } from '@netdiag/test-utils';
import { percentile } from '../lib.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 200);
const dns = await startDnsServer({ zone: {} });
const app = createApp({
  env: false,
  logLevel: 'silent',
  trustProxy: 'loopback',
  rateLimit: 1_000_000,
  dnsServers: [dns.address],
  torExitListUrl: 'http://127.0.0.1:1/tor',
  cacheDir: tempDir('netdiag-bench-page-'),
});
await app.locals.netdiag.engine.datasets();
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function time(path: string, headers: Record<string, string>): Promise<[number, number]> {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, { headers });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return [performance.now() - t0, bytes];
}

const html = { accept: 'text/html' };
let weight = 0;
for (const path of ['/', '/assets/app.js', '/assets/app.css'])
  weight += (await time(path, html))[1];

const cold: number[] = [];
const warm: number[] = [];
const plain: number[] = [];
for (let i = 0; i < rounds; i++) {
  const visitor = `8.${(i >> 8) & 255}.${i & 255}.${(i * 7) & 255}`;
  cold.push((await time('/', { ...html, 'x-forwarded-for': visitor }))[0]);
  warm.push((await time('/', { ...html, 'x-forwarded-for': visitor }))[0]);
  plain.push((await time('/', { 'x-forwarded-for': visitor }))[0]);
}
const row = (name: string, values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `| ${name} | ${percentile(sorted, 50).toFixed(2)} | ${percentile(sorted, 95).toFixed(2)} |`;
};
console.log(
  `page weight (HTML + app.js + app.css): ${weight} bytes (${(weight / 1024).toFixed(1)} KiB)\n`,
);
console.log(`${rounds} visitors, one request at a time, ms:\n`);
console.log('| request | p50 ms | p95 ms |\n|---|---:|---:|');
console.log(row('HTML page, new visitor (12 DNSBL queries, PTR)', cold));
console.log(row('HTML page, same visitor again (cached)', warm));
console.log(row('`curl /` plain text', plain));
server.close();
await app.locals.netdiag.engine.close();
await dns.close();
removeTempDirs();
