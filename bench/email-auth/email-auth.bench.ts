/**
 * Email authentication, loopback only: a full `checkEmailAuth` (MX, SPF through a 3-level
 * include chain, DMARC with an external destination, 17 DKIM selectors, MTA-STS, TLS-RPT, BIMI)
 * and one `evaluateSpf` through the chain, each cold (a fresh resolver, every answer from the
 * DNS fixture, which runs in a child process) and cached (one warm resolver with its TTL cache).
 * The MTA-STS policy fetch (HTTPS) is switched off: this measures the DNS work.
 * Run: npx tsx bench/email-auth/email-auth.bench.ts   (BENCH_CHECKS to change the size)
 */
import { fileURLToPath } from 'node:url';
import { startDnsServer } from '@netdiag/test-utils';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import { checkEmailAuth, createResolver, evaluateSpf } from '../../packages/core/src/index.js';
import { startChild } from '../lib.js';
import { BENCH_DOMAIN, zone } from './zone.js';

installNetworkGuard();

const CHECKS = Number(process.env.BENCH_CHECKS ?? 300);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

interface Row {
  name: string;
  perSecond: number;
  p50: number;
  p99: number;
}

async function measure(
  name: string,
  count: number,
  concurrency: number,
  task: () => Promise<unknown>,
): Promise<Row> {
  for (let i = 0; i < 20; i++) await task(); // warm-up (JIT, sockets)
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) {
        const t = performance.now();
        await task();
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
  };
}

// How many questions one cold check asks (counted on an in-process copy of the fixture).
const counter = await startDnsServer({ zone });
const counted = await checkEmailAuth({
  domain: BENCH_DOMAIN,
  ip: '93.184.219.1',
  fetchMtaStsPolicy: false,
  resolver: createResolver({ servers: [counter.address], cache: false }),
});
const questions = counter.queries.length;
await counter.close();
if (counted.spf.evaluation?.result !== 'pass' || counted.spf.dns_lookups !== 5) {
  throw new Error(`unexpected fixture result: ${JSON.stringify(counted.summary)}`);
}

const fixture = await startChild(fileURLToPath(new URL('./dns-fixture.ts', import.meta.url)));
const servers = [fixture.url];
const cold = () => createResolver({ servers, cache: false });
const warm = createResolver({ servers });
const full = (resolver = cold()) =>
  checkEmailAuth({ domain: BENCH_DOMAIN, ip: '93.184.219.1', fetchMtaStsPolicy: false, resolver });
const spf = (resolver = cold()) =>
  evaluateSpf({ ip: '93.184.219.1', sender: `alice@${BENCH_DOMAIN}`, resolver });

const rows: Row[] = [];
rows.push(await measure('checkEmailAuth, cold, 1 at a time', CHECKS, 1, () => full()));
rows.push(await measure('checkEmailAuth, cold, 10 concurrent', CHECKS, 10, () => full()));
rows.push(await measure('checkEmailAuth, cached, 1 at a time', CHECKS * 10, 1, () => full(warm)));
rows.push(
  await measure('checkEmailAuth, cached, 10 concurrent', CHECKS * 10, 10, () => full(warm)),
);
rows.push(await measure('evaluateSpf (3-level chain), cold', CHECKS * 4, 1, () => spf()));
rows.push(await measure('evaluateSpf (3-level chain), cached', CHECKS * 40, 1, () => spf(warm)));

console.log(
  `\nOne full check asks ${questions} DNS questions (SPF policy ${counted.spf.dns_lookups} lookups, evaluation ${counted.spf.evaluation?.dns_lookups}).`,
);
console.log('\n| operation | checks/s | p50 ms | p99 ms |\n|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.name} | ${r.perSecond} | ${r.p50} | ${r.p99} |`);

await fixture.stop();
