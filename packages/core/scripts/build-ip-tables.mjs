/**
 * Part of the package build (`pnpm build` runs it after tsup): builds the AS index, the IP
 * lookup tables and the shaped geolocation records from the embedded DB-IP and ip-location-db
 * data into `data/ip-tables/` (`prebuildIpTables`), which `loadIpDatasets` reads before its
 * cache directory (`prebuiltDir`). Without them, the first start on a machine builds the tables
 * itself: ~4.6 s and ~670 MB peak to a server's first answer, against ~1.2 s and ~300 MB when
 * they are there (issue 22 item 6, BENCHMARKS.md); and without the shaped records every
 * record's first lookup decodes it (issue 22 item 3).
 * Files of older data versions in the folder are removed. Plain JavaScript on the built
 * package: it needs no TypeScript loader. NETDIAG_BUILD_TABLES=0 skips it.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (process.env.NETDIAG_BUILD_TABLES === '0') {
  console.log('build-ip-tables: skipped (NETDIAG_BUILD_TABLES=0)');
  process.exit(0);
}
const here = dirname(fileURLToPath(import.meta.url));
const { loadIpDatasets, prebuildIpTables } = await import(join(here, '../dist/index.js'));
// PREBUILT_TABLES in src/ip/datasets.ts.
const dir = join(here, '../data/ip-tables');
mkdirSync(dir, { recursive: true });
const started = performance.now();
const { files } = await prebuildIpTables(dir);
// The files of this data are kept; others are older data versions.
const keep = new Set(files.map((file) => basename(file)));
for (const file of readdirSync(dir)) {
  if (!keep.has(file)) rmSync(join(dir, file), { force: true });
}
// Read back as a start reads them.
const datasets = await loadIpDatasets({ prebuiltDir: dir, cacheDir: false });
if (datasets.lookup('1.1.1.1').network.asn !== 13335) {
  console.error('build-ip-tables: the built tables do not answer 1.1.1.1 with AS13335');
  process.exit(1);
}
const mb = [...keep].reduce((sum, file) => sum + statSync(join(dir, file)).size, 0) / 1e6;
console.log(
  `build-ip-tables: AS index ${datasets.info.asn_index}, lookup tables ${datasets.info.geo_index}, records ${datasets.info.locations}; ${mb.toFixed(0)} MB in ${dir} (${Math.round(performance.now() - started)} ms)`,
);
