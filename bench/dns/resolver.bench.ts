/**
 * DNS resolver and DNSBL check, loopback only (the DNS fixture runs in a child process).
 *  1. Queries per second of netdiag's resolver (dns-packet, a fresh UDP socket per query) and of
 *     Node's built-in `dns.promises.Resolver` (c-ares) with `setServers` on the same fixture,
 *     same names, same run: A and MX, 50 in flight and 1 in flight; plus netdiag's warm cache.
 *  2. `checkBlacklist` when every list answers after 50 ms: one round trip, not twelve.
 *  3. `checkBlacklist` when one list never answers: bounded by the deadline.
 * Run: npx tsx bench/dns/resolver.bench.ts   (BENCH_QUERIES to change the size)
 */
import dns from 'node:dns';
import { fileURLToPath } from 'node:url';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import { checkBlacklist, createResolver } from '../../packages/core/src/index.js';
import { startChild } from '../lib.js';
import { HOSTS, hostName } from './zone.js';

installNetworkGuard();

const QUERIES = Number(process.env.BENCH_QUERIES ?? 20_000);
const fixture = fileURLToPath(new URL('./dns-fixture.ts', import.meta.url));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

interface Row {
  name: string;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(
  name: string,
  count: number,
  concurrency: number,
  task: (i: number) => Promise<unknown>,
): Promise<Row> {
  for (let i = 0; i < 200; i++) await task(i); // warm-up (JIT, sockets)
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t = performance.now();
        try {
          await task(i);
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    perSecond: Math.round(count / elapsed),
    p50: Number(percentile(latencies, 50).toFixed(2)),
    p99: Number(percentile(latencies, 99).toFixed(2)),
    errors,
  };
}

function print(title: string, rows: Row[]): void {
  console.log(`\n${title}`);
  console.log('| case | per second | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.perSecond} | ${r.p50} | ${r.p99} | ${r.errors} |`);
  }
}

// --- 1. Resolver throughput ---
{
  const server = await startChild(fixture);
  const address = server.url;
  const netdiag = createResolver({ servers: [address], cache: false });
  const cachedResolver = createResolver({ servers: [address] });
  const node = new dns.promises.Resolver({ timeout: 2000, tries: 2 });
  node.setServers([address]);
  const name = (i: number) => hostName(i % HOSTS);
  const rows: Row[] = [];
  for (const concurrency of [50, 1]) {
    const count = concurrency === 1 ? Math.min(QUERIES, 5_000) : QUERIES;
    rows.push(
      await measure(`netdiag A, ${concurrency} in flight`, count, concurrency, (i) =>
        netdiag.query(name(i), 'A'),
      ),
      await measure(`node:dns Resolver A, ${concurrency} in flight`, count, concurrency, (i) =>
        node.resolve4(name(i), { ttl: true }),
      ),
      await measure(`netdiag MX, ${concurrency} in flight`, count, concurrency, (i) =>
        netdiag.query(name(i), 'MX'),
      ),
      await measure(`node:dns Resolver MX, ${concurrency} in flight`, count, concurrency, (i) =>
        node.resolveMx(name(i)),
      ),
    );
  }
  for (let i = 0; i < HOSTS; i++) await cachedResolver.query(name(i), 'A');
  rows.push(
    await measure('netdiag A, warm cache, 50 in flight', QUERIES * 5, 50, (i) =>
      cachedResolver.query(name(i), 'A'),
    ),
  );
  print(`Resolver, ${QUERIES} queries over ${HOSTS} names (fixture in a child process)`, rows);
  await server.stop();
}

// --- 2 and 3. DNSBL check ---
async function blacklistRuns(
  title: string,
  env: Record<string, string>,
  cases: { name: string; ip: string; timeout?: number }[],
  runs: number,
): Promise<void> {
  const server = await startChild(fixture, env);
  const resolver = createResolver({ servers: [server.url], cache: false });
  const rows: Row[] = [];
  for (const c of cases) {
    const latencies: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await checkBlacklist({
        ip: c.ip,
        resolver,
        cache: false,
        ...(c.timeout ? { timeout: c.timeout } : {}),
      });
      latencies.push(performance.now() - t);
    }
    latencies.sort((a, b) => a - b);
    rows.push({
      name: c.name,
      perSecond: Number((1000 / percentile(latencies, 50)).toFixed(2)),
      p50: Number(percentile(latencies, 50).toFixed(1)),
      p99: Number(percentile(latencies, 99).toFixed(1)),
      errors: 0,
    });
  }
  print(title, rows);
  await server.stop();
}

await blacklistRuns(
  'checkBlacklist, every list answers after 50 ms (12 lists, control queries on)',
  { BENCH_DELAY_MS: '50' },
  [
    { name: 'not listed (A + control per list)', ip: '192.0.2.1' },
    { name: 'listed everywhere (A, control, then TXT)', ip: '127.0.0.2' },
  ],
  20,
);

await blacklistRuns(
  'checkBlacklist, bl.spamcop.net never answers (others answer at once)',
  { BENCH_DROP_SUFFIX: '.bl.spamcop.net' },
  [
    { name: 'default deadline (5000 ms)', ip: '192.0.2.1' },
    { name: 'timeout: 1000', ip: '192.0.2.1', timeout: 1000 },
  ],
  3,
);
