/**
 * WHOIS/RDAP, one process, loopback fixtures only:
 * - `parseWhoisText` over the 203 real answers of ../shared/corpora/whois (answers/s, MB/s);
 * - `rdapLookup` against a loopback RDAP registry, bootstrap cached (latency, lookups/s at
 *   concurrency 1 and 50), and with a cold bootstrap on every call (what the 24 h cache saves);
 * - `whois()` through the WHOIS fallback (no RDAP service → IANA → registry over TCP).
 * Run: npx tsx bench/whois/whois.bench.ts   (BENCH_LOOKUPS to change the size)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import {
  bootstrapFile,
  bootstrapRoute,
  startRdapServer,
} from '../../test-utils/src/rdap-server.js';
import { startWhoisServer } from '../../test-utils/src/whois-server.js';
import { bundled } from '../bundle.js';
import { measure, type MeasureRow as Row } from '../lib.js';

// The parsers and the bootstrap loader are internal (measured on their own): the whole of core
// is bundled from the sources, as tsup builds it, with them as further entries sharing its
// modules, and loaded as built (../bundle.ts).
type Core = typeof import('../../packages/core/src/index.js');
type Bootstrap = typeof import('../../packages/core/src/whois/bootstrap.js');
type WhoisClient = typeof import('../../packages/core/src/whois/whois-client.js');
type WhoisParser = typeof import('../../packages/core/src/whois/whois-parser.js');
const core = await bundled({
  index: 'packages/core/src/index.ts',
  bootstrap: 'packages/core/src/whois/bootstrap.ts',
  client: 'packages/core/src/whois/whois-client.ts',
  parser: 'packages/core/src/whois/whois-parser.ts',
});
const { createMemoryCache, rdapLookup, whois } = core.modules.index as unknown as Core;
const { createBootstrapLoader } = core.modules.bootstrap as unknown as Bootstrap;
const { decodeWhois } = core.modules.client as unknown as WhoisClient;
const { parseWhoisText } = core.modules.parser as unknown as WhoisParser;

/** The fixture registries are on loopback: exempt, as NETDIAG_ALLOWED_TARGETS would make them. */
const LOOPBACK = ['127.0.0.0/8'];

/** This bench's warm-up: 50 sequential calls before measuring. */
const measureWith = (...args: Parameters<typeof measure>) =>
  measure(args[0], args[1], args[2], args[3], { warmup: 50 });

installNetworkGuard();

const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 2_000);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const corpus = join(process.env.NETDIAG_CORPORA ?? join(repo, '..', 'shared', 'corpora'), 'whois');

// --- 1. Parser throughput over the corpus ---
if (existsSync(corpus)) {
  const files = ['noterror', 'notfound'].flatMap((dir) =>
    readdirSync(join(corpus, dir))
      .filter((f) => !f.endsWith('.json'))
      .map((f) => decodeWhois(readFileSync(join(corpus, dir, f)))),
  );
  const bytes = files.reduce((n, t) => n + Buffer.byteLength(t), 0);
  for (const text of files) parseWhoisText(text); // warm-up
  const rounds = 50;
  const started = performance.now();
  for (let r = 0; r < rounds; r++) for (const text of files) parseWhoisText(text);
  const elapsed = (performance.now() - started) / 1000;
  console.log(
    `parseWhoisText: ${files.length} corpus answers × ${rounds}: ` +
      `${Math.round((files.length * rounds) / elapsed)} answers/s, ` +
      `${((bytes * rounds) / elapsed / 1e6).toFixed(1)} MB/s (mean answer ${Math.round(bytes / files.length)} bytes)`,
  );
} else {
  console.log(`parseWhoisText: skipped (no corpus at ${corpus})`);
}

// --- 2. Lookups against loopback fixtures ---
const rdap = await startRdapServer();
const record = {
  objectClassName: 'domain',
  status: ['client transfer prohibited'],
  events: [
    { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
    { eventAction: 'expiration', eventDate: '2030-08-13T04:00:00Z' },
    { eventAction: 'last changed', eventDate: '2024-08-14T07:01:34Z' },
  ],
  nameservers: [{ ldhName: 'A.IANA-SERVERS.NET' }, { ldhName: 'B.IANA-SERVERS.NET' }],
  entities: [
    {
      roles: ['registrar'],
      publicIds: [{ type: 'IANA Registrar ID', identifier: '376' }],
      vcardArray: [
        'vcard',
        [
          ['version', {}, 'text', '4.0'],
          ['fn', {}, 'text', 'Example Registrar'],
        ],
      ],
    },
  ],
};
// A bootstrap file the size of IANA's (about 1,200 TLDs over ~600 services).
const services: [string[], string[]][] = [[['com'], [`${rdap.url}/com/`]]];
for (let i = 0; i < 600; i++) {
  services.push([[`tld${i}a`, `tld${i}b`], [`https://rdap${i}.example/`]]);
}
Object.assign(rdap.routes, {
  '/dns.json': bootstrapRoute(bootstrapFile(services)),
  '/com/domain/example.com': { body: record },
});
const registry = await startWhoisServer({
  answers: {
    'example.org':
      'Domain Name: EXAMPLE.ORG\r\nCreation Date: 1995-04-30T04:00:00Z\r\nRegistry Expiry Date: 2030-04-30T04:00:00Z\r\nRegistrar: Example Registrar\r\nRegistrar IANA ID: 376\r\nDomain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited\r\nName Server: A.IANA-SERVERS.NET\r\nUpdated Date: 2024-01-01T00:00:00Z\r\n',
  },
});
const iana = await startWhoisServer({ answers: () => `refer: ${registry.address}\n` });

const bootstrap = createBootstrapLoader({
  url: `${rdap.url}/dns.json`,
  cache: createMemoryCache(),
});
const rows: Row[] = [];
rows.push(
  await measureWith('rdapLookup, bootstrap cached, 1 at a time', LOOKUPS, 1, () =>
    rdapLookup('example.com', { bootstrap, allowedTargets: LOOPBACK }),
  ),
);
rows.push(
  await measureWith('rdapLookup, bootstrap cached, 50 concurrent', LOOKUPS * 2, 50, () =>
    rdapLookup('example.com', { bootstrap, allowedTargets: LOOPBACK }),
  ),
);
rows.push(
  await measureWith('rdapLookup, cold bootstrap every call, 1 at a time', LOOKUPS / 4, 1, () =>
    rdapLookup('example.com', {
      allowedTargets: LOOPBACK,
      bootstrap: createBootstrapLoader({ url: `${rdap.url}/dns.json`, cache: createMemoryCache() }),
    }),
  ),
);
rows.push(
  await measureWith('whois() via WHOIS (IANA → registry, TCP), 1 at a time', LOOKUPS, 1, () =>
    whois('example.org', { bootstrap, whoisServer: iana.address, allowedTargets: LOOPBACK }),
  ),
);
rows.push(
  await measureWith(
    'whois() via WHOIS (IANA → registry, TCP), 50 concurrent',
    LOOKUPS * 2,
    50,
    () => whois('example.org', { bootstrap, whoisServer: iana.address, allowedTargets: LOOPBACK }),
  ),
);

console.log('\n| lookup | lookups/s | p50 ms | p99 ms |\n|---|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.name} | ${r.perSecond} | ${r.p50} | ${r.p99} |`);
console.log(
  `\nbootstrap requests served: ${rdap.requests.filter((r) => r.path === '/dns.json').length}`,
);

await Promise.all([rdap.close(), registry.close(), iana.close()]);
core.dispose();
