/**
 * Rebuilds @netdiag/ip-data's `data/ip-intel.json.gz` (and its licence folder `data/ip-intel-licenses/`) from the
 * upstream files of the shared corpus: `npx tsx packages/core/scripts/build-ip-intel.ts
 * [corpus dir]` (default `$NETDIAG_CORPORA/ip-intel`, else `../shared/corpora/ip-intel` beside
 * the repository). The sources and their precedence are listed in
 * `src/ip/privacy/intel-corpus.ts`; to update, copy newer upstream snapshots into the corpus
 * (with their SOURCE.md and manifest entry) and run this again.
 * @module
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CATALOGUE, readIntelCorpus } from '../src/ip/privacy/intel-corpus.js';
import { INTEL_FILE, packIntel } from '../src/ip/privacy/intel-pack.js';
import { rangeCount } from '../src/ip/privacy/range-table.js';

const here = dirname(fileURLToPath(import.meta.url));
const corpus =
  process.argv[2] ??
  (process.env['NETDIAG_CORPORA']
    ? join(process.env['NETDIAG_CORPORA'], 'ip-intel')
    : join(here, '../../../../shared/corpora/ip-intel'));
const dataDir = join(here, '../../ip-data/data');
if (!existsSync(join(corpus, 'manifest.json'))) {
  console.error(`no ip-intel corpus at ${corpus} (pass its path or set NETDIAG_CORPORA)`);
  process.exit(1);
}

const data = readIntelCorpus(corpus);
const bytes = packIntel(data);
writeFileSync(join(dataDir, INTEL_FILE), bytes);

// Licence duties: MIT, BSD-3-Clause and Apache-2.0 require the notice; keep each source's
// LICENSE and SOURCE.md (provenance, and for Apache-2.0 the statement of changes below).
const licences = join(dataDir, 'ip-intel-licenses');
for (const folder of new Set(CATALOGUE.map((c) => c.folder))) {
  mkdirSync(join(licences, folder), { recursive: true });
  for (const file of readdirSync(join(corpus, folder))) {
    if (file === 'LICENSE' || file === 'SOURCE.md') {
      copyFileSync(join(corpus, folder, file), join(licences, folder, file));
    }
  }
}
writeFileSync(
  join(licences, 'CHANGES.md'),
  `# Changes made to the bundled IP-intelligence data

\`ip-intel.json.gz\` holds data from the sources in this folder (each with its LICENSE and
SOURCE.md: repository, commit, licence). It was converted by
\`packages/core/scripts/build-ip-intel.ts\`: CIDR ranges and addresses were parsed and stored as
binary ranges (IPv6 at /64 granularity), AS numbers with their holder names kept, comments and
geolocation columns (T-Mobile geofeed) dropped, the Tor relay list reduced to distinct addresses.
No entry was added or edited by hand.
`,
);

for (const s of data.sources) {
  const size = s.ranges
    ? `${rangeCount(s.ranges)} ranges`
    : s.addresses
      ? `${s.addresses.length} addresses`
      : `${s.asns?.size ?? 0} ASNs`;
  console.log(`${s.id.padEnd(42)} ${s.version.padEnd(22)} ${size}`);
}
console.log(`${INTEL_FILE}: ${bytes.length} bytes (built ${data.built})`);
