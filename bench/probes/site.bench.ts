/**
 * `checkSite` overhead against a plain undici request, same run, same loopback target (a child
 * process, so the target does not share our event loop). Calls are sequential; each row reads
 * the whole (small) body.
 * - undici `request` on the global pooled dispatcher (keep-alive: the cheapest possible GET);
 * - undici `request` through a fresh `Client` per call (a new TCP connection, like checkSite);
 * - `checkSite` on an IP-literal URL (guard check, pinned connect, one connection per call);
 * - `checkSite` on a host name through the netdiag resolver and a loopback DNS fixture.
 * Run: npx tsx bench/probes/site.bench.ts   (BENCH_CALLS to change the count)
 */
// First: re-runs this bench on the built packages when started on the sources (see built.ts).
import '../built.js';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { checkSite, createResolver } from '@netdiag/core';
import { startDnsServer } from '@netdiag/test-utils';
import { startChild } from '../lib.js';

// The same undici that core uses (the bench package does not depend on it directly).
const { Client, request } = createRequire(
  new URL('../../packages/core/package.json', import.meta.url),
)('undici') as typeof import('undici');

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const target = await startChild(fileURLToPath(new URL('./target-server.ts', import.meta.url)));
const port = new URL(target.url).port;
const dns = await startDnsServer({ zone: { 'bench.fixture.test': { A: ['127.0.0.1'] } } });
const resolver = createResolver({ servers: [dns.address] });
const allowedTargets = ['127.0.0.1/32'];

async function measure(name: string, call: () => Promise<unknown>) {
  for (let i = 0; i < 100; i++) await call(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((s, t) => s + t, 0) / times.length;
  const at = (q: number) =>
    times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
  return { name, mean, p50: at(0.5), p99: at(0.99) };
}

const rows = [
  await measure('undici request, pooled keep-alive', async () => {
    const res = await request(`${target.url}/`);
    await res.body.arrayBuffer();
  }),
  await measure('undici request, new connection per call', async () => {
    const client = new Client(target.url);
    const res = await client.request({ path: '/', method: 'GET' });
    await res.body.arrayBuffer();
    // As safe-fetch does: the exchange is over, drop the socket without a graceful wait.
    void client.destroy();
  }),
  await measure('checkSite, IP literal', async () => {
    const result = await checkSite(`${target.url}/`, { allowedTargets });
    if (!result.is_up) throw new Error(result.note ?? 'down');
  }),
  await measure('checkSite, host name (resolver, cached)', async () => {
    const result = await checkSite(`http://bench.fixture.test:${port}/`, {
      allowedTargets,
      resolver,
    });
    if (!result.is_up) throw new Error(result.note ?? 'down');
  }),
];
const base = rows[1]?.mean ?? 0;
console.log(`${CALLS} sequential calls each\n`);
console.log('| client | mean µs | p50 µs | p99 µs | vs new-connection undici |');
console.log('|---|---:|---:|---:|---:|');
for (const r of rows) {
  const delta = r.mean - base;
  console.log(
    `| ${r.name} | ${(r.mean * 1000).toFixed(0)} | ${(r.p50 * 1000).toFixed(0)} | ${(r.p99 * 1000).toFixed(0)} | ${delta >= 0 ? '+' : ''}${(delta * 1000).toFixed(0)} µs |`,
  );
}
await dns.close();
await target.stop();
