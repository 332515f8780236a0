/**
 * Privacy conformance on addresses the tables in use have never seen (docs/ip-intelligence.md,
 * "Measured accuracy"). Each labelled source of `../shared/corpora/ip-intel/` is split by a
 * hash of the entry's upstream text: one entry in five is held out. The evaluation build is the
 * shipped data minus every held-out entry; the cases are one address inside each held-out entry
 * (residential: inside a held-out ISP AS). Nothing here is tuned per address.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite } from '@netdiag/test-utils';
import { beforeAll, describe, expect, test } from 'vitest';
import { formatV4, formatV6 } from '../address.js';
import { type IpDatasets, installedIntel, loadIpDatasets } from '../datasets.js';
import { parseTorExitList } from '../tor-exit-list.js';
import type { IpPrivacy } from '../types.js';
import { CATALOGUE, type CatalogueEntry, readEntries, readIntelCorpus } from './intel-corpus.js';
import { rangesFromTokens } from './range-table.js';

const corpora =
  process.env['NETDIAG_CORPORA'] ??
  fileURLToPath(new URL('../../../../../../shared/corpora', import.meta.url));
const corpus = join(corpora, 'ip-intel');
const present = prerequisite(
  'ip-intel corpus',
  existsSync(join(corpus, 'manifest.json')),
  'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
);

/** FNV-1a 32-bit: a stable hash of an entry's upstream text. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
/** The split rule: an entry of a labelled source is held out when its hash is 0 mod 5. */
const heldOut = (source: CatalogueEntry, text: string) =>
  source.label !== undefined && fnv1a(`${source.id} ${text}`) % 5 === 0;

type Class = 'datacenter' | 'vpn' | 'relay' | 'tor' | 'mobile' | 'residential';
const CLASSES: Class[] = ['datacenter', 'vpn', 'relay', 'tor', 'mobile', 'residential'];

/** The class an answer gives: the most specific flag first. */
function classOf(p: Readonly<IpPrivacy>): Class {
  if (p.is_tor) return 'tor';
  if (p.is_relay) return 'relay';
  if (p.type === 'vpn') return 'vpn';
  if (p.is_mobile) return 'mobile';
  return p.type === 'datacenter' ? 'datacenter' : 'residential';
}

interface Case {
  ip: string;
  label: Class;
  source: string;
}

/** One address inside a CIDR, chosen by the hash of its text (not its first address). */
function addressIn(cidr: string): string | undefined {
  const r = rangesFromTokens([cidr]);
  const h = fnv1a(`pick ${cidr}`);
  if (r.v4.length === 2) {
    const start = r.v4[0] as number;
    const size = (r.v4[1] as number) - start + 1;
    return formatV4((start + (size > 2 ? 1 + (h % (size - 2)) : 0)) >>> 0);
  }
  if (r.v6.length === 4) {
    const [hi, lo, , loEnd] = r.v6 as unknown as number[];
    const span = (loEnd as number) - (lo as number);
    const w1 = ((lo as number) + (span > 0 ? h % (span + 1) : 0)) >>> 0;
    return formatV6(hi as number, w1, fnv1a(`w2 ${cidr}`), fnv1a(`w3 ${cidr}`) | 1);
  }
  return undefined;
}

/** Announced ranges of each AS in the library's own AS data (@ip-location-db/asn, IPv4). */
function asRanges(): Map<number, [number, number][]> {
  // The source of the AS data of @netdiag/ip-data's file (a devDependency of that package).
  const ipData = createRequire(new URL('../../../../ip-data/package.json', import.meta.url));
  const dir = dirname(ipData.resolve('@ip-location-db/asn/package.json'));
  const out = new Map<number, [number, number][]>();
  for (const line of readFileSync(join(dir, 'asn-ipv4-num.csv'), 'utf8').split('\n')) {
    const [a, b, asn] = line.split(',', 3);
    if (!asn) continue;
    const n = Number(asn);
    const list = out.get(n) ?? [];
    if (list.length === 0) out.set(n, list);
    list.push([Number(a), Number(b)]);
  }
  return out;
}

function buildCases(): Case[] {
  const cases: Case[] = [];
  const relay = CATALOGUE.find((c) => c.label === 'relay') as CatalogueEntry;
  const relayRanges = rangesFromTokens(readEntries(corpus, relay).map((e) => e.text));
  const inRelay = (ip: string) => {
    const probe = rangesFromTokens([ip]);
    if (probe.v4.length === 2) {
      const x = probe.v4[0] as number;
      for (let i = 0; i < relayRanges.v4.length; i += 2) {
        if ((relayRanges.v4[i] as number) <= x && x <= (relayRanges.v4[i + 1] as number))
          return true;
      }
    }
    return false;
  };
  let ranges: Map<number, [number, number][]> | undefined;
  for (const source of CATALOGUE) {
    if (!source.label) continue;
    for (const entry of readEntries(corpus, source)) {
      if (!heldOut(source, entry.text)) continue;
      if (source.label === 'residential') {
        ranges ??= asRanges();
        const list = ranges.get(Number(entry.text));
        if (!list || list.length === 0) continue; // not announced: nothing to look up
        const h = fnv1a(`as ${entry.text}`);
        const [s, e] = list[h % list.length] as [number, number];
        cases.push({
          ip: formatV4((s + (h % (e - s + 1))) >>> 0),
          label: 'residential',
          source: source.id,
        });
        continue;
      }
      const ip = source.kind === 'address-list' ? entry.text : addressIn(entry.text);
      if (!ip) continue;
      // Provider lists of CDNs hold relay egress (README trap): such an address is the relay's.
      if (source.label === 'datacenter' && inRelay(ip)) continue;
      cases.push({ ip, label: source.label, source: source.id });
    }
  }
  // The Tor list names a relay once per ORPort address: one case per distinct address.
  const seen = new Set<string>();
  return cases.filter((c) => !seen.has(`${c.label} ${c.ip}`) && seen.add(`${c.label} ${c.ip}`));
}

interface Score {
  total: number;
  correct: number;
  confusion: Record<Class, Record<Class, number>>;
  /** Misclassified cases per source and answer, to see where the errors come from. */
  misses: Map<string, number>;
}

function score(datasets: IpDatasets, cases: Case[]): Score {
  const confusion = Object.fromEntries(
    CLASSES.map((c) => [c, Object.fromEntries(CLASSES.map((d) => [d, 0]))]),
  ) as Record<Class, Record<Class, number>>;
  let correct = 0;
  const misses = new Map<string, number>();
  for (const c of cases) {
    const got = classOf(datasets.lookup(c.ip).privacy);
    confusion[c.label][got]++;
    if (got === c.label) correct++;
    else if (process.env['PRIVACY_DEBUG']) {
      const info = datasets.lookup(c.ip);
      console.log(c.source, c.ip, got, info.network.asn, info.network.as_name);
    }
    if (got !== c.label)
      misses.set(`${c.source} → ${got}`, (misses.get(`${c.source} → ${got}`) ?? 0) + 1);
  }
  return { total: cases.length, correct, confusion, misses };
}

const recall = (s: Score, c: Class) => {
  const row = Object.values(s.confusion[c]).reduce((a, b) => a + b, 0);
  return row === 0 ? 1 : s.confusion[c][c] / row;
};
const precision = (s: Score, c: Class) => {
  const col = CLASSES.reduce((a, l) => a + s.confusion[l][c], 0);
  return col === 0 ? 1 : s.confusion[c][c] / col;
};

function report(name: string, s: Score): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const lines = [
    `${name}: ${s.correct}/${s.total} correct (${pct(s.correct / s.total)})`,
    `| class | cases | precision | recall | ${CLASSES.join(' | ')} |`,
    `|---|---|---|---|${CLASSES.map(() => '---').join('|')}|`,
  ];
  for (const c of CLASSES) {
    const row = Object.values(s.confusion[c]).reduce((a, b) => a + b, 0);
    lines.push(
      `| ${c} | ${row} | ${pct(precision(s, c))} | ${pct(recall(s, c))} | ${CLASSES.map((d) => s.confusion[c][d]).join(' | ')} |`,
    );
  }
  const worst = [...s.misses].sort((a, b) => b[1] - a[1]).slice(0, 12);
  lines.push('', 'largest error groups:', ...worst.map(([k, n]) => `  ${n}\t${k}`));
  return lines.join('\n');
}

describe.skipIf(!present)('privacy classification on held-out addresses', () => {
  let cases: Case[];
  let datasets: IpDatasets;
  beforeAll(async () => {
    cases = buildCases();
    const evaluation = readIntelCorpus(corpus, { exclude: (s, e) => heldOut(s, e.text) });
    datasets = await loadIpDatasets({ intel: evaluation });
  }, 120_000);

  test('the split gives the expected cases per class', () => {
    const count = (c: Class) => cases.filter((x) => x.label === c).length;
    expect(Object.fromEntries(CLASSES.map((c) => [c, count(c)]))).toEqual({
      datacenter: 3088,
      vpn: 478,
      relay: 2641,
      tor: 481,
      mobile: 587,
      residential: 943,
    });
  });

  test('the shipped data is what the build script makes of the corpus', () => {
    // scripts/build-ip-intel.ts = readIntelCorpus + packIntel: a stale or hand-edited file fails.
    const shipped = installedIntel() as NonNullable<ReturnType<typeof installedIntel>>;
    const rebuilt = readIntelCorpus(corpus);
    expect(shipped.built).toBe(rebuilt.built);
    expect(shipped.sources.map((s) => [s.id, s.version])).toEqual(
      rebuilt.sources.map((s) => [s.id, s.version]),
    );
    for (const [i, s] of shipped.sources.entries()) {
      const r = rebuilt.sources[i];
      expect([...(s.ranges?.v4 ?? [])], s.id).toEqual([...(r?.ranges?.v4 ?? [])]);
      expect([...(s.ranges?.v6 ?? [])], s.id).toEqual([...(r?.ranges?.v6 ?? [])]);
      expect(s.addresses, s.id).toEqual(r?.addresses);
      expect(s.asns, s.id).toEqual(r?.asns);
    }
  });

  test('no held-out address is in the evaluation tables of its own source', () => {
    // The relay, VPN-exit, Tor, cloud and carrier answers must come from other evidence.
    for (const c of cases.slice(0, 2000)) {
      const own = datasets
        .lookup(c.ip)
        .privacy.signals.filter((s) => s.evidence.includes(`(${c.source})`));
      expect(own, `${c.ip} (${c.source})`).toEqual([]);
    }
  });

  test('bundled data only: per-class recall and precision', () => {
    datasets.setTorExitList(undefined);
    const s = score(datasets, cases);
    console.log(report('bundled data, no feeds', s));
  });

  test('with the Tor feed loaded: ≥ 90 % overall, ≥ 80 % recall each, ≥ 90 % precision', () => {
    const tor = readFileSync(join(corpus, 'alireza-rezaee-tor-nodes/latest.exits.csv'), 'utf8')
      .split('\n')
      .slice(1)
      .map((l) => l.split(',')[1]?.trim() ?? '')
      .join('\n');
    datasets.setTorExitList(parseTorExitList(tor, '2026-08-22T21:13:34Z'));
    try {
      const s = score(datasets, cases);
      console.log(report('with the Tor feed', s));
      expect(s.correct / s.total).toBeGreaterThanOrEqual(0.9);
      for (const c of CLASSES) expect(recall(s, c), `${c} recall`).toBeGreaterThanOrEqual(0.8);
      expect(precision(s, 'datacenter')).toBeGreaterThanOrEqual(0.9);
      expect(precision(s, 'residential')).toBeGreaterThanOrEqual(0.9);
    } finally {
      datasets.setTorExitList(undefined);
    }
  });
});
