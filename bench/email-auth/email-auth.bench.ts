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
import '../built.js';
import { checkEmailAuth, createResolver, evaluateSpf } from '@netdiag/core';
import { measure, type MeasureRow as Row, startChild } from '../lib.js';
import { BENCH_DOMAIN, zone } from './zone.js';

installNetworkGuard();

const CHECKS = Number(process.env.BENCH_CHECKS ?? 300);

// How many questions one cold check asks (counted on an in-process copy of the fixture).
const counter = await startDnsServer({ zone });
const counted = await checkEmailAuth(
  { domain: BENCH_DOMAIN, ip: '93.184.219.1' },
  {
    fetchMtaStsPolicy: false,
    resolver: createResolver({ servers: [counter.address], cache: false }),
  },
);
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
  checkEmailAuth(
    { domain: BENCH_DOMAIN, ip: '93.184.219.1' },
    { fetchMtaStsPolicy: false, resolver },
  );
const spf = (resolver = cold()) =>
  evaluateSpf({ ip: '93.184.219.1', sender: `alice@${BENCH_DOMAIN}` }, { resolver });

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
