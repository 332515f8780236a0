/**
 * Load: autocannon at saturation for BENCH_DURATION_S (default 60) on the mixed workload
 * (lookup, DNS against a loopback fixture, headers echo, bulk) with the limits raised.
 * Reports requests/second for one server process (= one core) and p50/p99, and fails when
 * any answer is not 2xx (the limits are raised, so even a 429 would be an error here).
 * Run: npx --yes pnpm@10 build && npx tsx bench/production/load.bench.ts
 */
import { fileURLToPath } from 'node:url';
import { load, startChild, table } from '../lib.js';
import { startWorkloadDns, workloadRequests } from './workload.js';

const duration = Number(process.env.BENCH_DURATION_S ?? 60);
const dns = await startWorkloadDns();
const server = await startChild(fileURLToPath(new URL('./server.ts', import.meta.url)), {
  NETDIAG_DNS_SERVERS: dns.address,
  NETDIAG_TOR_EXIT_LIST_URL: 'http://127.0.0.1:9/tor',
});
const requests = workloadRequests();
await load('warm-up', { url: server.url, requests, duration: 3 });
const result = await load(`mixed workload, ${duration} s, 1 server process`, {
  url: server.url,
  requests,
  duration,
  connections: 64,
});
await server.stop();
await dns.close();
console.log(table([result]));
console.log(
  `\nrequests/second per core: ${result.rps}; non-2xx: ${result.non2xx}; errors: ${result.errors}`,
);
if (result.non2xx > 0 || result.errors > 0) process.exitCode = 1;
