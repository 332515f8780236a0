/**
 * Privacy classification with evidence. Every piece of data that says something about an
 * address becomes a candidate signal with a tier; the most specific one decides.
 *
 * Precedence (lower tier wins; ranges beat AS matches, specific beats broad), as the networks
 * overlap (../shared/corpora/ip-intel/README.md): 0 Tor exit address → 1 privacy relay range →
 * 1.5 relay block → 3 VPN exit address → 3.5 VPN exit block → 4 VPN server range → 5 provider
 * range (cloud, CDN, crawler; a corporate proxy range) → 5.5 provider block (intel.ts) →
 * 6 mobile carrier range → 7 relay AS → 8 VPN or proxy
 * AS → 9 X4BNet VPN range (whole ASes) → 10 hosting AS or X4BNet datacenter range → 11 mobile
 * AS → 12 AS-name keyword → 13 ISP AS (`isp-list`) → no signal (`no-other-signal`).
 *
 * The winner sets the class; the signals kept are those that agree with it:
 * - an anonymiser (Tor, relay, VPN, proxy) keeps every anonymiser and hosting signal
 *   (a VPN server in a hosting network is both);
 * - hosting keeps the hosting signals (an AS-level VPN listing is overruled by a provider
 *   range: a cloud customer's address in a VPN-heavy AS is still the cloud's);
 * - mobile keeps the mobile signals; residential the ISP evidence (or `no-other-signal`).
 * `type` (SPEC 2.3) is `vpn` for an anonymiser, `datacenter` for hosting, else `residential`,
 * so `type` and the booleans never disagree; a relay is `type: 'vpn'`, `is_proxy` and `is_relay`.
 *
 * Hosting AS lists disagree at the edges (transit and enterprise ASes that also serve homes):
 * when an AS is also a listed ISP or mobile carrier, bundled AS-level hosting evidence counts
 * only when two independent datasets (or the curated list) agree.
 * @module
 */
import type { IpPrivacy, PrivacySignal, PrivacySignalName } from '../types.js';
import { type AsListing, BLOCK_SUFFIX } from './intel.js';
import type { IntelSourceMeta } from './intel-pack.js';
import {
  escapeRegExp,
  isStandardKeyword,
  keywordPattern,
  type ListedSignal,
  type NameKeyword,
  type SignalLists,
} from './signal-lists.js';

/** A signal with its precedence and the provider it names. */
export interface Candidate {
  signal: PrivacySignal;
  tier: number;
  provider: string;
  /** From a curated `data/asn-*.tsv` list (firmer than a bundled third-party list). */
  curated?: boolean;
}

const CURATED_TIER: Record<ListedSignal, number> = {
  relay: 7,
  vpn: 8,
  proxy: 8,
  hosting: 10,
  mobile: 11,
  isp: 13,
};
const KEYWORD_TIER = 12;
const CURATED: readonly ListedSignal[] = ['relay', 'vpn', 'proxy', 'hosting', 'mobile', 'isp'];
const ANONYMISERS = new Set<PrivacySignalName>(['tor', 'relay', 'vpn', 'proxy']);

/**
 * AS-level candidates of AS `asn` named `name`: curated lists, bundled lists (`asLists`, an
 * `IpIntel`'s), those `learnt` from provider ranges, keywords.
 */
export function asCandidates(
  asn: number,
  name: string,
  lists: SignalLists,
  asLists?: ReadonlyMap<number, readonly AsListing[]>,
  learnt?: ReadonlyMap<number, readonly AsListing[]>,
): Candidate[] {
  const out: Candidate[] = [];
  const add = (signal: PrivacySignal, tier: number, curated = false) =>
    out.push({ signal, tier, provider: '', ...(curated ? { curated } : {}) });
  for (const list of CURATED) {
    const entry = lists.lists[list].get(asn);
    if (entry === undefined) continue;
    const evidence = `AS${asn} is listed in ${entry.file}: ${entry.reason}`;
    const signal = list === 'isp' ? 'residential' : list;
    const source = list === 'isp' ? 'isp-list' : 'asn-list';
    add(
      { signal, source, evidence, dataset: entry.file, version: 'curated' },
      CURATED_TIER[list],
      true,
    );
  }
  for (const { source: list, name: holder } of asLists?.get(asn) ?? []) {
    const evidence = `AS${asn}${holder ? ` (${holder})` : ''} is listed in ${list.dataset} (${list.id})`;
    const signal = list.signal === 'isp' ? 'residential' : list.signal;
    const source = list.signal === 'isp' ? 'isp-list' : 'asn-list';
    add({ signal, source, evidence, dataset: list.dataset, version: list.version }, list.tier);
  }
  for (const { source: list, name: holder } of learnt?.get(asn) ?? []) {
    const evidence = `AS${asn} ${holder} (${list.id.replace(/#as$/, '')}, provider-ases.ts)`;
    const { dataset, version } = list;
    add({ signal: 'hosting', source: 'asn-list', evidence, dataset, version }, list.tier);
  }
  const matcher = keywordMatcher(lists.keywords);
  if (out.length === 0 && name !== '' && matcher.any(name)) {
    const seen = new Set<string>();
    for (const keyword of lists.keywords) {
      if (seen.has(keyword.signal) || !matcher.test(keyword, name)) continue;
      seen.add(keyword.signal);
      add(
        {
          signal: keyword.signal,
          source: 'as-name-keyword',
          evidence: `AS${asn} name "${name}" contains "${keyword.keyword}" (data/as-name-keywords.tsv: ${keyword.reason})`,
          dataset: 'data/as-name-keywords.tsv',
          version: 'curated',
        },
        KEYWORD_TIER,
        true,
      );
    }
  }
  return out;
}

/** Whether some keyword's pattern (`any`) or `keyword`'s (`test`) matches `name`. */
interface KeywordMatcher {
  any(name: string): boolean;
  test(keyword: NameKeyword, name: string): boolean;
}

// Unicode-aware patterns are slow to compile and match (BENCHMARKS.md). So for keywords as
// `loadSignalLists` makes them, a name is first folded to lower case and searched for the
// keywords as plain substrings; an ASCII name then takes an ASCII pattern (on ASCII text \p{L}
// and \p{N} are [A-Za-z] and [0-9]); only a non-ASCII name compiles a keyword's own pattern.
const matchers = new WeakMap<readonly NameKeyword[], KeywordMatcher>();
const ASCII = /^\p{ASCII}*$/u;
const LONG_S = /\u017f/g;

/**
 * `name` in lower case with the long s as the `s` it folds to. The characters whose case
 * folding (the patterns' `iu`) is an ASCII letter are the ASCII letters, the Kelvin sign (lower
 * case: k) and the long s (CaseFolding.txt), so every character a keyword's pattern matches
 * becomes that keyword's lower-case ASCII character: a name whose folded form lacks a keyword
 * cannot match it.
 */
function foldName(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes('\u017f') ? lower.replace(LONG_S, 's') : lower;
}

function keywordMatcher(keywords: readonly NameKeyword[]): KeywordMatcher {
  let matcher = matchers.get(keywords);
  if (matcher !== undefined) return matcher;
  const standard = keywords.every(
    (k) =>
      ASCII.test(k.keyword) &&
      (isStandardKeyword(k) ||
        (k.pattern.flags === 'iu' && k.pattern.source === keywordPattern(k.keyword).source)),
  );
  if (standard && keywords.length > 0) {
    const lower = new Map(keywords.map((k) => [k, k.keyword.toLowerCase()]));
    const words = [...new Set(lower.values())];
    const asciiPattern = (alternatives: string) =>
      new RegExp(`(?:^|[^a-z0-9])(?:${alternatives})(?:$|[^a-z0-9])`, 'i');
    const ascii = asciiPattern(words.map(escapeRegExp).join('|'));
    const asciiOf = new Map<NameKeyword, RegExp>();
    // The last name, whether it is ASCII and its folded form (made when first needed): `test`
    // runs once per keyword.
    let lastName = '';
    let lastAscii = true;
    let lastFolded: string | undefined;
    const see = (name: string): void => {
      if (name === lastName) return;
      lastName = name;
      lastAscii = ASCII.test(name);
      lastFolded = undefined;
    };
    const folded = (): string => {
      lastFolded ??= foldName(lastName);
      return lastFolded;
    };
    const test = (keyword: NameKeyword, name: string): boolean => {
      see(name);
      if (!folded().includes(lower.get(keyword) as string)) return false;
      if (!lastAscii) return keyword.pattern.test(name);
      let pattern = asciiOf.get(keyword);
      if (pattern === undefined) {
        pattern = asciiPattern(escapeRegExp(lower.get(keyword) as string));
        asciiOf.set(keyword, pattern);
      }
      return pattern.test(name);
    };
    matcher = {
      any(name) {
        see(name);
        if (lastAscii) return ascii.test(name);
        const text = folded();
        return words.some((w) => text.includes(w)) && keywords.some((k) => test(k, name));
      },
      test,
    };
  } else {
    // Keywords with patterns of their own: those patterns.
    const test = (k: NameKeyword, name: string) => k.pattern.test(name);
    matcher = { any: (name) => keywords.some((k) => test(k, name)), test };
  }
  matchers.set(keywords, matcher);
  return matcher;
}

/**
 * Candidates of the range sources `members` (a combination of a range table: indexes into
 * `sources`, an `IpIntel`'s `tableSources`).
 */
export function rangeCandidates(
  members: readonly number[],
  sources: readonly IntelSourceMeta[],
): Candidate[] {
  const out: Candidate[] = [];
  const ids = new Set(members.map((i) => sources[i]?.id));
  for (const index of members) {
    const source = sources[index] as IntelSourceMeta;
    if (source.signal === 'isp') continue;
    const block = source.id.endsWith(BLOCK_SUFFIX);
    // A block says less than its source's own range: named only when the range is not.
    if (block && ids.has(source.id.slice(0, -BLOCK_SUFFIX.length))) continue;
    const what = source.provider || `${source.dataset} ${source.signal}`;
    if (source.signal === 'tor') {
      out.push(torCandidate(source.dataset, source.version));
      continue;
    }
    out.push({
      signal: {
        signal: source.signal,
        source: block ? 'block' : source.kind === 'address-list' ? 'address-list' : 'range-list',
        evidence: block
          ? `The address lies in a block dense with ${what} ${source.kind === 'address-list' ? 'addresses' : 'ranges'} (${source.id})`
          : source.kind === 'address-list'
            ? `The address is a listed ${what} address (${source.id})`
            : `The address is in a published ${what} range (${source.id})`,
        dataset: source.dataset,
        version: source.version,
      },
      tier: source.tier,
      provider: source.provider,
    });
  }
  return out;
}

/** The Tor candidate: `dataset`/`version` name the list that has the address. */
export function torCandidate(dataset: string, version: string): Candidate {
  return {
    signal: {
      signal: 'tor',
      source: 'tor-exit-list',
      evidence: `The address is a Tor exit (${dataset})`,
      dataset,
      version,
    },
    tier: 0,
    provider: 'Tor',
  };
}

/**
 * Decides the class from candidates (see the module comment). Does not modify the input's
 * order or members; the signals it keeps are frozen.
 */
export function decide(input: readonly Candidate[]): Readonly<IpPrivacy> {
  // Most ASes have no signal at all (four in five of those random addresses meet).
  if (input.length === 0) return noSignal();
  let candidates = [...input].sort((a, b) => a.tier - b.tier);
  const access = candidates.some(
    (c) => c.signal.signal === 'residential' || c.signal.signal === 'mobile',
  );
  if (access) {
    // Bundled AS-level hosting evidence against a listed access network: two datasets must agree.
    const asHosting = candidates.filter((c) => c.signal.signal === 'hosting' && c.tier >= 10);
    const firm =
      asHosting.some((c) => c.curated) || new Set(asHosting.map((c) => c.signal.dataset)).size >= 2;
    if (!firm) candidates = candidates.filter((c) => !asHosting.includes(c));
  }
  const winner = candidates[0];
  if (winner === undefined) return noSignal();
  const w = winner.signal.signal;
  const keep = ANONYMISERS.has(w)
    ? (s: PrivacySignalName) => ANONYMISERS.has(s) || s === 'hosting'
    : (s: PrivacySignalName) => s === w;
  return summarise(
    candidates.filter((c) => keep(c.signal.signal)),
    w,
  );
}

/** The answer when nothing says more than that the address is someone's access network. */
function noSignal(): Readonly<IpPrivacy> {
  NO_SIGNAL ??= summarise(
    [
      {
        signal: {
          signal: 'residential',
          source: 'no-other-signal',
          evidence: 'No hosting, VPN, relay, proxy, Tor or mobile signal',
          dataset: 'netdiag',
          version: 'rule',
        },
        tier: 99,
        provider: '',
      },
    ],
    'residential',
  );
  return NO_SIGNAL;
}
let NO_SIGNAL: Readonly<IpPrivacy> | undefined;

function summarise(kept: Candidate[], winner: PrivacySignalName): Readonly<IpPrivacy> {
  // The signals are frozen in place (made for this classification or cached candidates, never
  // changed) rather than copied.
  const found = new Set<PrivacySignalName>();
  let provider = '';
  const signals: PrivacySignal[] = [];
  const seen = new Set<string>();
  for (const { signal, provider: named } of kept) {
    found.add(signal.signal);
    if (provider === '') provider = named;
    // One evidence line per dataset and signal (a /64 in three lists of one dataset says it once).
    const key = `${signal.signal}|${signal.dataset}|${signal.evidence}`;
    if (seen.has(key)) continue;
    seen.add(key);
    signals.push(Object.isFrozen(signal) ? signal : Object.freeze(signal));
  }
  return Object.freeze({
    type: ANONYMISERS.has(winner) ? 'vpn' : winner === 'hosting' ? 'datacenter' : 'residential',
    is_hosting: found.has('hosting'),
    is_vpn: found.has('vpn'),
    is_proxy: found.has('proxy') || found.has('tor') || found.has('relay'),
    is_relay: found.has('relay'),
    is_tor: found.has('tor'),
    is_mobile: found.has('mobile'),
    is_residential: winner === 'residential',
    provider,
    signals: Object.freeze(signals),
  });
}
