import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { PrivacySignalName } from '../types.js';
import { asCandidates, type Candidate, decide } from './classify.js';
import { loadSignalLists, type SignalLists } from './signal-lists.js';

const c = (
  signal: PrivacySignalName,
  tier: number,
  extra: Partial<Candidate> & { dataset?: string } = {},
): Candidate => ({
  signal: {
    signal,
    source: signal === 'residential' ? 'isp-list' : 'range-list',
    evidence: `${signal} at tier ${tier}`,
    dataset: extra.dataset ?? `dataset-${signal}-${tier}`,
    version: 'v1',
  },
  tier,
  provider: extra.provider ?? '',
  ...(extra.curated ? { curated: true } : {}),
});

describe('decide: precedence', () => {
  test('a relay range beats the CDN range and the hosting AS around it', () => {
    const p = decide([
      c('hosting', 5, { provider: 'Akamai' }),
      c('relay', 1, { provider: 'iCloud Private Relay' }),
      c('hosting', 10),
    ]);
    expect(p).toMatchObject({
      type: 'vpn',
      is_relay: true,
      is_proxy: true,
      is_vpn: false,
      is_hosting: true,
      provider: 'iCloud Private Relay',
    });
    expect(p.signals[0]?.signal).toBe('relay');
  });

  test('a VPN exit address beats the hosting range it sits in', () => {
    const p = decide([c('hosting', 10), c('vpn', 3, { provider: 'ProtonVPN' })]);
    expect(p).toMatchObject({ type: 'vpn', is_vpn: true, provider: 'ProtonVPN' });
  });

  test('a provider range beats an AS-level VPN listing (ranges beat AS matches)', () => {
    const p = decide([c('vpn', 8), c('hosting', 5, { provider: 'AWS' })]);
    expect(p).toMatchObject({
      type: 'datacenter',
      is_vpn: false,
      is_hosting: true,
      provider: 'AWS',
    });
    expect(p.signals.map((s) => s.signal)).toEqual(['hosting']);
  });

  test('Tor before everything', () => {
    const p = decide([c('relay', 1), c('vpn', 3), c('tor', 0, { provider: 'Tor' })]);
    expect(p).toMatchObject({ type: 'vpn', is_tor: true, provider: 'Tor' });
  });

  test('a listed ISP keeps a single bundled hosting listing from making it a datacenter', () => {
    expect(decide([c('hosting', 10, { dataset: 'a' }), c('residential', 13)])).toMatchObject({
      type: 'residential',
      is_residential: true,
      is_hosting: false,
    });
    // Two independent datasets, or the curated list, agree: hosting.
    expect(
      decide([
        c('hosting', 10, { dataset: 'a' }),
        c('hosting', 10, { dataset: 'b' }),
        c('residential', 13),
      ]),
    ).toMatchObject({ type: 'datacenter' });
    expect(decide([c('hosting', 10, { curated: true }), c('residential', 13)])).toMatchObject({
      type: 'datacenter',
    });
  });

  test('mobile: type residential, not is_residential; nothing: residential with no-other-signal', () => {
    expect(decide([c('mobile', 6)])).toMatchObject({
      type: 'residential',
      is_mobile: true,
      is_residential: false,
    });
    const none = decide([]);
    expect(none).toMatchObject({ type: 'residential', is_residential: true });
    expect(none.signals[0]?.source).toBe('no-other-signal');
  });
});

describe('decide: type and booleans never disagree', () => {
  const names: PrivacySignalName[] = [
    'hosting',
    'vpn',
    'proxy',
    'relay',
    'tor',
    'mobile',
    'residential',
  ];
  test('every subset of signals at random tiers', () => {
    let seed = 1;
    const next = () => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed;
    };
    for (let i = 0; i < 2000; i++) {
      const candidates = names.filter(() => next() % 2 === 0).map((n) => c(n, next() % 14));
      const p = decide(candidates);
      const anonymiser = p.is_vpn || p.is_proxy || p.is_tor || p.is_relay;
      expect(p.type === 'vpn').toBe(anonymiser);
      expect(p.type === 'datacenter').toBe(!anonymiser && p.is_hosting);
      if (p.is_residential) expect(p.type).toBe('residential');
      if (p.is_relay || p.is_tor) expect(p.is_proxy).toBe(true);
      // The winner is the lowest tier present (with no access network to overrule hosting).
      const best = Math.min(...candidates.map((x) => x.tier));
      const access = candidates.some((x) => ['residential', 'mobile'].includes(x.signal.signal));
      if (
        !access &&
        candidates.length > 0 &&
        candidates.filter((x) => x.tier === best).length === 1
      ) {
        expect(p.signals[0]?.evidence).toContain(`at tier ${best}`);
      }
    }
  });
});

describe('asCandidates: AS-name keywords', () => {
  const lists = loadSignalLists();
  const none: SignalLists = {
    lists: Object.fromEntries(
      Object.keys(lists.lists).map((k) => [k, new Map()]),
    ) as unknown as SignalLists['lists'],
    keywords: lists.keywords,
  };
  /** What the keywords' own patterns say, one by one: the first keyword of each signal. */
  const reference = (name: string) => {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const k of lists.keywords) {
      if (name === '' || seen.has(k.signal) || !k.pattern.test(name)) continue;
      seen.add(k.signal);
      out.push(`${k.signal}:${k.keyword}`);
    }
    return out;
  };
  const ofName = (name: string) =>
    asCandidates(64_512, name, none).map((c) => {
      const keyword = /contains "([^"]*)"/.exec(c.signal.evidence)?.[1];
      return `${c.signal.signal}:${keyword}`;
    });
  // Words around the keywords, and the characters where matching could differ: Unicode
  // letters and digits as boundaries, the Kelvin sign and long s (which fold to k and s).
  const pieces = [
    ...lists.keywords.map((k) => k.keyword),
    ...lists.keywords.map((k) => k.keyword.toUpperCase()),
    'Net',
    'LLC',
    'ghost',
    '4',
    'é',
    'ſ',
    '\u212a',
    'ß',
    'İ',
    'Σ',
    '٣',
    '',
  ];
  const separators = [' ', '-', '_', '.', '', 'x', '1', 'ü', '/', '\t'];

  test('the fast matcher finds what every keyword pattern finds (random names)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...pieces), fc.constantFrom(...separators)), {
          maxLength: 6,
        }),
        fc.string({ maxLength: 8 }),
        (parts, noise) => {
          const name = parts.map(([p, s]) => p + s).join('') + noise;
          expect(ofName(name)).toEqual(reference(name));
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('known cases: whole words, any case, Unicode boundaries', () => {
    expect(ofName('Hetzner Online HOSTING GmbH')).toEqual(['hosting:hosting']);
    expect(ofName('Ghosting Ltd')).toEqual([]);
    expect(ofName('éhosting')).toEqual([]);
    expect(ofName('China Mobile Cloud')).toEqual(['hosting:cloud', 'mobile:mobile']);
    expect(ofName('\u212aVPN ſervers')).toEqual(reference('\u212aVPN ſervers'));
    expect(reference('ſervers')).toEqual(['hosting:servers']);
    expect(ofName('ſervers')).toEqual(['hosting:servers']);
  });
});
