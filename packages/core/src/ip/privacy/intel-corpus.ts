/**
 * Reads the upstream files of `../shared/corpora/ip-intel/` (nine redistributable sources, see
 * its README for each one's traps) into `IntelData`. Used by `scripts/build-ip-intel.ts` (the
 * shipped data) and by the privacy conformance test (the same data minus a held-out split).
 * Each source's tier (lower wins) follows the precedence in classify.ts.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAddressParts, parseAddressInto } from '../address.js';
import type { IntelData, IntelSource, IntelSourceMeta } from './intel-pack.js';
import { rangesFromTokens } from './range-table.js';

type Format = 'cidr' | 'misp' | 'tor-csv' | 'geofeed' | 'asn-csv' | 'asn-x4b';

export interface CatalogueEntry {
  id: string;
  /** Corpus folder (its manifest entry gives repository, commit, licence). */
  folder: string;
  files: string[];
  format: Format;
  kind: IntelSourceMeta['kind'];
  signal: IntelSourceMeta['signal'];
  provider: string;
  tier: number;
  /** Class of the conformance test this source labels (its held-out part is measured). */
  label?: 'datacenter' | 'vpn' | 'relay' | 'tor' | 'mobile' | 'residential';
}

/** A catalogue entry as written: its folder is its id's first part. */
type Source = Omit<CatalogueEntry, 'folder'>;

/** lord-alfred lists without an IPv6 file upstream. */
const V4_ONLY = new Set(
  'bing duckassistbot duckduckbot openai oracle perplexity protonvpn statuscake'.split(' '),
);
const la = (list: string, provider: string, label?: 'datacenter'): Source => ({
  id: `lord-alfred-ipranges/${list}`,
  files: V4_ONLY.has(list)
    ? [`${list}/ipv4_merged.txt`]
    : [`${list}/ipv4_merged.txt`, `${list}/ipv6_merged.txt`],
  format: 'cidr',
  kind: 'range-list',
  signal: 'hosting',
  provider,
  tier: 5,
  ...(label ? { label } : {}),
});
const misp = (
  list: string,
  provider: string,
  signal: IntelSourceMeta['signal'] = 'hosting',
  label?: 'datacenter',
): Source => ({
  id: `misp-warninglists/${list}`,
  files: [`${list}.json`],
  format: 'misp',
  kind: 'range-list',
  signal,
  provider,
  tier: 5,
  ...(label ? { label } : {}),
});

const asnList = (
  id: string,
  file: string,
  format: Format,
  signal: IntelSourceMeta['signal'],
  tier: number,
  label?: 'residential',
): Source => ({
  id,
  files: [file],
  format,
  kind: 'asn-list',
  signal,
  provider: '',
  tier,
  ...(label ? { label } : {}),
});

/**
 * Every source used. Not used: lord-alfred `apple-proxy` (the same Apple CSV as hroost's) and
 * OXL `crawler`/`scanner`/`education` (ASN kinds without a SPEC class).
 */
const SOURCES: Source[] = [
  {
    id: 'alireza-rezaee-tor-nodes/exits',
    files: ['latest.exits.csv'],
    format: 'tor-csv',
    kind: 'address-list',
    signal: 'tor',
    provider: 'Tor',
    tier: 0,
    label: 'tor',
  },
  {
    id: 'hroost-icloud-private-relay/egress',
    files: ['ipv4-ranges.txt', 'ipv6-ranges.txt'],
    format: 'cidr',
    kind: 'range-list',
    signal: 'relay',
    provider: 'iCloud Private Relay',
    tier: 1,
    label: 'relay',
  },
  {
    id: 'tn3w-protonvpn-ips/exits',
    files: ['protonvpn_exit_ips.txt'],
    format: 'cidr',
    kind: 'address-list',
    signal: 'vpn',
    provider: 'ProtonVPN',
    tier: 3,
    label: 'vpn',
  },
  // lord-alfred `protonvpn` holds Proton's entry servers (the README's trap): VPN servers, so
  // still VPN addresses, but below the exact exit list.
  { ...la('protonvpn', 'ProtonVPN'), signal: 'vpn', tier: 4 },
  la('amazon', 'AWS', 'datacenter'),
  la('google', 'Google', 'datacenter'),
  la('microsoft', 'Microsoft', 'datacenter'),
  la('oracle', 'Oracle Cloud', 'datacenter'),
  la('digitalocean', 'DigitalOcean', 'datacenter'),
  la('linode', 'Linode', 'datacenter'),
  la('vultr', 'Vultr', 'datacenter'),
  la('cloudflare', 'Cloudflare', 'datacenter'),
  la('github', 'GitHub', 'datacenter'),
  la('facebook', 'Meta', 'datacenter'),
  la('twitter', 'X (Twitter)', 'datacenter'),
  la('telegram', 'Telegram', 'datacenter'),
  la('googlebot', 'Googlebot', 'datacenter'),
  la('bing', 'Bingbot', 'datacenter'),
  la('openai', 'OpenAI', 'datacenter'),
  la('perplexity', 'Perplexity', 'datacenter'),
  la('duckduckbot', 'DuckDuckBot', 'datacenter'),
  la('duckassistbot', 'DuckAssistBot', 'datacenter'),
  la('pingdom', 'Pingdom', 'datacenter'),
  la('statuscake', 'StatusCake', 'datacenter'),
  misp('akamai', 'Akamai', 'hosting', 'datacenter'),
  misp('fastly', 'Fastly', 'hosting', 'datacenter'),
  misp('stackpath', 'StackPath', 'hosting', 'datacenter'),
  misp('google-gcp', 'Google Cloud', 'hosting', 'datacenter'),
  misp('bunny-net', 'Bunny CDN', 'hosting', 'datacenter'),
  misp('ovh-cluster', 'OVHcloud', 'hosting', 'datacenter'),
  // Corporate forward proxy: the client hides behind it, like the curated asn-proxy entry.
  misp('zscaler', 'Zscaler', 'proxy'),
  {
    id: 'tmobile-tmus-geofeed/geofeed',
    files: ['tmus-geo-ip.txt'],
    format: 'geofeed',
    kind: 'range-list',
    signal: 'mobile',
    provider: 'T-Mobile US',
    tier: 6,
    label: 'mobile',
  },
  asnList('x4bnet-lists-vpn/vpn-asn', 'input-vpn-ASN.txt', 'asn-x4b', 'vpn', 8),
  asnList('oxl-risk-db-lists/vpn', 'asn-kind_vpn.csv', 'asn-csv', 'vpn', 8),
  // X4BNet's ranges are whole ASes (iptoasn.com): AS-level evidence, below provider ranges.
  {
    id: 'x4bnet-lists-vpn/vpn',
    files: ['vpn-ipv4.txt', 'vpn-ipv6.txt'],
    format: 'cidr',
    kind: 'range-list',
    signal: 'vpn',
    provider: '',
    tier: 9,
  },
  {
    id: 'x4bnet-lists-vpn/datacenter',
    files: ['datacenter-ipv4.txt', 'datacenter-ipv6.txt'],
    format: 'cidr',
    kind: 'range-list',
    signal: 'hosting',
    provider: '',
    tier: 10,
  },
  asnList('x4bnet-lists-vpn/datacenter-asn', 'input-datacenter-ASN.txt', 'asn-x4b', 'hosting', 10),
  asnList('brianhama-bad-asn-list/bad-asn', 'bad-asn-list.csv', 'asn-csv', 'hosting', 10),
  asnList('oxl-risk-db-lists/hosting', 'asn-kind_hosting.csv', 'asn-csv', 'hosting', 10),
  asnList('oxl-risk-db-lists/isp', 'asn-kind_isp.csv', 'asn-csv', 'isp', 13, 'residential'),
];
export const CATALOGUE: readonly CatalogueEntry[] = SOURCES.map((e) => ({
  ...e,
  folder: e.id.slice(0, e.id.indexOf('/')),
}));

interface ManifestEntry {
  name: string;
  repo: string;
  commit: string;
  date: string;
  licence: string;
}

/** One entry of a source file as written upstream (the hold-out split hashes this text). */
export interface CorpusEntry {
  text: string;
  /** AS holder name, for AS lists. */
  name?: string;
}

/** The entries of one catalogue source, in file order. */
export function readEntries(corpusDir: string, source: CatalogueEntry): CorpusEntry[] {
  const out: CorpusEntry[] = [];
  for (const file of source.files) {
    const text = readFileSync(join(corpusDir, source.folder, file), 'utf8');
    out.push(...parseEntries(text, source.format));
  }
  return out;
}

export function parseEntries(text: string, format: Format): CorpusEntry[] {
  const out: CorpusEntry[] = [];
  if (format === 'misp') {
    const json = JSON.parse(text) as { list?: unknown };
    if (!Array.isArray(json.list)) throw new Error('MISP warninglist without a list');
    for (const item of json.list) if (typeof item === 'string') out.push({ text: item.trim() });
    return out;
  }
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '').trim();
    if (line === '' || line.startsWith('#')) continue;
    if (format === 'cidr') out.push({ text: line });
    else if (format === 'geofeed') out.push({ text: (line.split(',')[0] as string).trim() });
    else if (format === 'tor-csv') {
      // `fingerprint, ipaddr, port` with a header; one relay may list several addresses.
      const address = line.split(',')[1]?.trim();
      if (i > 0 && address) out.push({ text: address });
    } else if (format === 'asn-x4b') {
      const match = /^AS(\d+)\s*(?:#\s*(.*))?$/i.exec(line);
      if (match) out.push({ text: match[1] as string, name: (match[2] ?? '').trim() });
    } else {
      // `ASN,Name` with a header; brianhama quotes some numbers and has a stray space before
      // some quotes: the first field, unquoted, is the number.
      const comma = line.indexOf(',');
      const unquote = (field: string) => field.trim().replace(/^"|"$/g, '');
      const asn = unquote(line.slice(0, comma < 0 ? undefined : comma));
      if (!/^\d+$/.test(asn)) continue;
      const name = comma < 0 ? '' : unquote(line.slice(comma + 1));
      out.push({ text: asn, name });
    }
  }
  return out;
}

function manifest(corpusDir: string): Map<string, ManifestEntry> {
  const list = JSON.parse(
    readFileSync(join(corpusDir, 'manifest.json'), 'utf8'),
  ) as ManifestEntry[];
  return new Map(list.map((m) => [m.name, m]));
}

export interface ReadCorpusOptions {
  /** Leaves an entry out (the conformance test's held-out split). */
  exclude?: (source: CatalogueEntry, entry: CorpusEntry) => boolean;
}

/** All catalogue sources, with provenance from the corpus manifest. */
export function readIntelCorpus(corpusDir: string, options: ReadCorpusOptions = {}): IntelData {
  const meta = manifest(corpusDir);
  const parts = createAddressParts();
  const sources: IntelSource[] = [];
  for (const entry of CATALOGUE) {
    const m = meta.get(entry.folder);
    if (!m) throw new Error(`${entry.folder} is not in the corpus manifest`);
    const entries = readEntries(corpusDir, entry).filter((e) => !options.exclude?.(entry, e));
    const source: IntelSource = {
      id: entry.id,
      dataset: m.repo,
      kind: entry.kind,
      signal: entry.signal,
      provider: entry.provider,
      tier: entry.tier,
      version: `${m.commit.slice(0, 7)} (${m.date.slice(0, 10)})`,
      licence: m.licence,
    };
    if (entry.kind === 'asn-list') {
      source.asns = new Map();
      for (const e of entries) {
        const asn = Number(e.text);
        if (!source.asns.has(asn)) source.asns.set(asn, e.name ?? '');
      }
    } else if (entry.format === 'tor-csv') {
      const set = new Set<string>();
      for (const e of entries) if (parseAddressInto(e.text, parts)) set.add(parts.text);
      source.addresses = [...set].sort();
    } else {
      const { v4, v6, invalid } = rangesFromTokens(entries.map((e) => e.text));
      if (invalid > entries.length / 100) {
        throw new Error(`${entry.id}: ${invalid} of ${entries.length} entries are not CIDRs`);
      }
      source.ranges = { v4, v6 };
    }
    sources.push(source);
  }
  // Named by the newest snapshot, so rebuilding from the same corpus gives the same file.
  const built =
    [...meta.values()]
      .map((m) => m.date.slice(0, 10))
      .sort()
      .at(-1) ?? '';
  return { built, sources };
}
