/**
 * DNS resolver and DNSBL check, loopback only (the DNS fixture runs in a child process).
 *  1. Queries per second of netdiag's resolver (dns-packet over the pooled, rotating UDP sockets
 *     of resolver-socket-pool.ts) and of Node's built-in `dns.promises.Resolver` (c-ares) with
 *     `setServers` on the same fixture, same names, same run: A and MX, 50 in flight and 1 in
 *     flight; plus netdiag's warm cache. Then the UDP transport alone, pooled vs a fresh socket
 *     per query (a pool with `maxQueriesPerSocket: 1`, i.e. the design before the pool).
 *     The cases are run BENCH_ROUNDS times, interleaved, and the median of each is printed: the
 *     benchmark machine is shared, so one round says little.
 *  2. `checkBlacklist` when every list answers after 50 ms: one round trip, not twelve.
 *  3. `checkBlacklist` when one list never answers: bounded by the deadline.
 * Run: npx tsx bench/dns/resolver.bench.ts   (BENCH_QUERIES to change the size, BENCH_ROUNDS the
 * number of rounds, default 3)
 */
import dns from 'node:dns';
import { fileURLToPath } from 'node:url';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import '../built.js';
import { checkBlacklist, createResolver, parseDnsServer } from '@netdiag/core';
import { bundled } from '../bundle.js';
import { measure, percentile, type MeasureRow as Row, startChild } from '../lib.js';
import { HOSTS, hostName } from './zone.js';

/** This bench's warm-up: 200 sequential calls before measuring. */
const measureWith = (...args: Parameters<typeof measure>) =>
  measure(args[0], args[1], args[2], args[3], { warmup: 200 });

installNetworkGuard();

// The UDP transport and its socket pool are internal: bundled from the sources and loaded as
// built (../bundle.ts). The resolver and checkBlacklist are the built package's.
type Pool = typeof import('../../packages/core/src/net/resolver-socket-pool.js');
type Transport = typeof import('../../packages/core/src/net/resolver-transport.js');
type Wire = typeof import('../../packages/core/src/net/resolver-wire.js');
const internals = await bundled({
  pool: 'packages/core/src/net/resolver-socket-pool.ts',
  transport: 'packages/core/src/net/resolver-transport.ts',
  wire: 'packages/core/src/net/resolver-wire.ts',
});
const { createUdpSocketPool } = internals.modules.pool as unknown as Pool;
const { udpExchange } = internals.modules.transport as unknown as Transport;
const { buildQuery } = internals.modules.wire as unknown as Wire;
type UdpSocketPool = ReturnType<typeof createUdpSocketPool>;

const QUERIES = Number(process.env.BENCH_QUERIES ?? 20_000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const fixture = fileURLToPath(new URL('./dns-fixture.ts', import.meta.url));

function print(title: string, rows: Row[]): void {
  console.log(`\n${title}`);
  console.log('| case | per second | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.perSecond} | ${r.p50} | ${r.p99} | ${r.errors} |`);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The median of each case over the rounds (per second, p50 and p99 separately). */
function medians(rounds: Row[][]): Row[] {
  return (rounds[0] ?? []).map((first, i) => {
    const runs = rounds.map((round) => round[i] as Row);
    return {
      name: first.name,
      perSecond: Math.round(median(runs.map((r) => r.perSecond))),
      p50: Number(median(runs.map((r) => r.p50)).toFixed(2)),
      p99: Number(median(runs.map((r) => r.p99)).toFixed(2)),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
    };
  });
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
  const target = parseDnsServer(address);
  if (!target) throw new Error(`bad fixture address ${address}`);
  const pooled = createUdpSocketPool();
  const socketPerQuery = createUdpSocketPool({ maxQueriesPerSocket: 1, maxSocketsPerServer: 1 });
  const transport = (pool: UdpSocketPool) => (i: number) =>
    udpExchange(
      target,
      buildQuery(name(i), 'A', { edns: true }),
      2000,
      new AbortController().signal,
      pool,
    );
  // A crash must not leave the fixture child running (it holds the terminal's stderr).
  try {
    const resolverRounds: Row[][] = [];
    const transportRounds: Row[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const rows: Row[] = [];
      for (const concurrency of [50, 1]) {
        const count = concurrency === 1 ? Math.min(QUERIES, 5_000) : QUERIES;
        rows.push(
          await measureWith(`netdiag A, ${concurrency} in flight`, count, concurrency, (i) =>
            netdiag.query(name(i), 'A'),
          ),
          await measureWith(
            `node:dns Resolver A, ${concurrency} in flight`,
            count,
            concurrency,
            (i) => node.resolve4(name(i), { ttl: true }),
          ),
          await measureWith(`netdiag MX, ${concurrency} in flight`, count, concurrency, (i) =>
            netdiag.query(name(i), 'MX'),
          ),
          await measureWith(
            `node:dns Resolver MX, ${concurrency} in flight`,
            count,
            concurrency,
            (i) => node.resolveMx(name(i)),
          ),
        );
      }
      for (let i = 0; i < HOSTS; i++) await cachedResolver.query(name(i), 'A');
      rows.push(
        await measureWith('netdiag A, warm cache, 50 in flight', QUERIES * 5, 50, (i) =>
          cachedResolver.query(name(i), 'A'),
        ),
      );
      resolverRounds.push(rows);
      transportRounds.push([
        await measureWith(
          'UDP transport, pooled sockets, 50 in flight',
          QUERIES,
          50,
          transport(pooled),
        ),
        await measureWith(
          'UDP transport, a fresh socket per query, 50 in flight',
          QUERIES,
          50,
          transport(socketPerQuery),
        ),
      ]);
    }
    const rounds = `median of ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}`;
    print(
      `Resolver, ${QUERIES} queries over ${HOSTS} names (fixture in a child process; ${rounds})`,
      medians(resolverRounds),
    );
    print(`UDP transport alone, A queries (${rounds})`, medians(transportRounds));
    const stats = pooled.stats();
    console.log(
      `\npooled transport: ${stats.opened} sockets opened for ${ROUNDS * (QUERIES + 200)} queries`,
    );
  } finally {
    pooled.close();
    socketPerQuery.close();
    await server.stop();
  }
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
  try {
    const rows: Row[] = [];
    for (const c of cases) {
      const latencies: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await checkBlacklist(c.ip, {
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
  } finally {
    await server.stop();
  }
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
internals.dispose();
