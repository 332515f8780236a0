/**
 * Part of the package build (`pnpm build` runs it after tsup): builds the AS index and the IP
 * lookup tables from the embedded DB-IP and ip-location-db data into `data/ip-tables/`, which
 * `loadIpDatasets` reads before its cache directory (`prebuiltDir`). Without them, the first
 * start on a machine builds them itself: ~4.6 s and ~670 MB peak to a server's first answer,
 * against ~1.2 s and ~300 MB when they are there (issue 22 item 6, BENCHMARKS.md).
 * Files of older data versions in the folder are removed. Plain JavaScript on the built
 * package: it needs no TypeScript loader. NETDIAG_BUILD_TABLES=0 skips it.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (process.env.NETDIAG_BUILD_TABLES === '0') {
  console.log('build-ip-tables: skipped (NETDIAG_BUILD_TABLES=0)');
  process.exit(0);
}
const here = dirname(fileURLToPath(import.meta.url));
const { loadIpDatasets } = await import(join(here, '../dist/index.js'));
// PREBUILT_TABLES in src/ip/datasets.ts.
const dir = join(here, '../data/ip-tables');
mkdirSync(dir, { recursive: true });
const started = performance.now();
// Built into the folder as a cache: it is then what a later load reads.
const datasets = await loadIpDatasets({ cacheDir: dir, prebuiltDir: false });
const { asn_index: asn, geo_index: geo } = datasets.info;
// One file of each kind is this data's (written now, or by an earlier build of the same data
// and read back just now): the newest. Older ones are other data versions.
const keep = new Set();
for (const kind of ['netdiag-asn-index-', 'netdiag-ip-tables-']) {
  const files = readdirSync(dir)
    .filter((file) => file.startsWith(kind))
    .sort((a, b) => statSync(join(dir, b)).mtimeMs - statSync(join(dir, a)).mtimeMs);
  if (files[0]) keep.add(files[0]);
}
for (const file of readdirSync(dir)) {
  if (!keep.has(file)) rmSync(join(dir, file), { force: true });
}
if (datasets.lookup('1.1.1.1').network.asn !== 13335) {
  console.error('build-ip-tables: the built tables do not answer 1.1.1.1 with AS13335');
  process.exit(1);
}
const mb = [...keep].reduce((sum, file) => sum + statSync(join(dir, file)).size, 0) / 1e6;
console.log(
  `build-ip-tables: AS index ${asn}, lookup tables ${geo}; ${mb.toFixed(0)} MB in ${dir} (${Math.round(performance.now() - started)} ms)`,
);
