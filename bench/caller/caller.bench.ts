/**
 * Caller endpoints and breach check under load, on loopback fixtures only:
 * - GET /api/ip, /api/v1/ip, /api/score for a public address (X-Forwarded-For 8.8.8.8; the
 *   DNSBL answers come from a loopback DNS server and are cached per address, as in production);
 * - GET /api/breach for an address already in the 1-hour cache (the upstream is never asked
 *   again: the fake XposedOrNot counts its requests);
 * - scoreIp alone, in process.
 * Run: npx --yes pnpm@10 build && npx tsx bench/caller/caller.bench.ts   (BENCH_DURATION_S, default
 * 10); the server and scoreIp are the built packages.
 */
// First: re-runs this bench on the built packages when started on the sources (see built.ts).
import '../built.js';
import { fileURLToPath } from 'node:url';
import { scoreIp } from '@netdiag/core';
import { startDnsServer } from '@netdiag/test-utils';
import { startXposedOrNotServer } from '../../test-utils/src/xposedornot-server.js';
import { type LoadResult, load, startChild, table } from '../lib.js';

const duration = Number(process.env.BENCH_DURATION_S ?? 10);
const dns = await startDnsServer({
  zone: { '8.8.8.8.zen.spamhaus.org': { A: ['127.0.0.2'] } },
});
const xon = await startXposedOrNotServer({
  accounts: { 'johndoe@example.com': ['Adobe', 'LinkedIn', 'Canva', 'RockYou'] },
});
const server = await startChild(fileURLToPath(new URL('./server.ts', import.meta.url)), {
  NETDIAG_DNS_SERVERS: dns.address,
  NETDIAG_BREACH_API_URL: xon.url,
  NETDIAG_TOR_EXIT_LIST_URL: 'http://127.0.0.1:1/torbulkexitlist',
});

const headers = { 'x-forwarded-for': '8.8.8.8' };
const rows: LoadResult[] = [];
for (const [name, path] of [
  ['GET /api/ip', '/api/ip'],
  ['GET /api/v1/ip', '/api/v1/ip'],
  ['GET /api/score', '/api/score'],
  ['GET /api/breach (cached)', '/api/breach?email=johndoe%40example.com'],
] as const) {
  await load(`${name} (warm-up)`, { url: `${server.url}${path}`, headers, duration: 2 });
  rows.push(await load(name, { url: `${server.url}${path}`, headers, duration }));
}
await server.stop();
console.log(table(rows));
console.log(`\nbreach upstream requests during the run: ${xon.requests.length} (1 = cache held)`);
console.log(
  `DNS queries during the run: ${dns.queries.length} (12 lists + 12 control queries + PTR ≈ cached once)`,
);

// scoreIp alone.
const dnsbl = Array.from({ length: 12 }, (_, i) => ({
  name: `list${i}`,
  zone: `list${i}.example`,
  status: i < 2 ? 'listed' : i === 5 ? 'timeout' : 'not_listed',
}));
const signals = { datacenter: true, vpn: true, sources: { vpn: 'asn-list: AS64500' } };
const n = 1_000_000;
let sink = 0;
const start = process.hrtime.bigint();
for (let i = 0; i < n; i++) sink += scoreIp({ signals, dnsbl }).score;
const ns = Number(process.hrtime.bigint() - start) / n;
console.log(
  `scoreIp: ${(1e9 / ns / 1e6).toFixed(2)} M calls/s (${ns.toFixed(0)} ns per call; checksum ${sink % 97})`,
);

await Promise.all([dns.close(), xon.close()]);
process.exit(0);
