import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type DnsblAnswer, type PrivacySignals, scoreIp } from './score-ip.js';
import { describeScoreTable, GRADES, SCORE_WEIGHTS } from './weights.js';

const weight = (signal: string) => SCORE_WEIGHTS.find((w) => w.signal === signal)?.weight;

const LISTS = [
  ['Spamhaus ZEN', 'zen.spamhaus.org'],
  ['SpamCop', 'bl.spamcop.net'],
  ['Barracuda', 'b.barracudacentral.org'],
  ['SORBS', 'dnsbl.sorbs.net'],
  ['UCEPROTECT 1', 'dnsbl-1.uceprotect.net'],
] as const;
const answers = (...statuses: string[]): DnsblAnswer[] =>
  statuses.map((status, i) => ({
    name: LISTS[i % LISTS.length]?.[0] ?? `list${i}`,
    zone: LISTS[i % LISTS.length]?.[1] ?? `list${i}.example`,
    status,
  }));

describe('the weights table', () => {
  test('is what the docs say: one row per signal, penalties only', () => {
    expect(SCORE_WEIGHTS.map((w) => w.signal)).toEqual([
      'tor_exit',
      'vpn',
      'proxy',
      'datacenter',
      'dnsbl_listed',
      'mobile',
      'residential',
    ]);
    for (const w of SCORE_WEIGHTS) expect(w.weight).toBeLessThanOrEqual(0);
    expect(describeScoreTable()).toContain('tor_exit -50');
    expect(describeScoreTable()).toContain('dnsbl_listed -15 (capped at -45)');
    expect(describeScoreTable()).toContain('A ≥ 80 "Clean"');
  });
});

describe('scoreIp, one signal at a time', () => {
  test.each<[string, PrivacySignals, string, string[]]>([
    ['tor_exit', { tor: true }, 'vpn', ['Tor exit node']],
    ['vpn', { vpn: true }, 'vpn', []],
    ['proxy', { proxy: true }, 'vpn', []],
    ['datacenter', { datacenter: true }, 'datacenter', []],
    [
      'mobile',
      { mobile: true, residential: true },
      'residential',
      ['Mobile network', 'Residential ISP'],
    ],
  ])('%s', (signal, signals, type, flags) => {
    const result = scoreIp({ signals: { ...signals, sources: { tor: 'Tor Project exit list' } } });
    expect(result.score).toBe(100 + (weight(signal) as number));
    expect(result.type).toBe(type);
    expect(result.flags).toEqual(flags);
    expect(result.evidence).toEqual([expect.objectContaining({ signal, weight: weight(signal) })]);
    if (signal === 'tor_exit') expect(result.evidence[0]?.source).toBe('Tor Project exit list');
    else expect(result.evidence[0]?.source).toBe('IP intelligence');
  });

  test('residential, nothing else: 100, A, the residential flag, no evidence', () => {
    expect(
      scoreIp({ signals: { residential: true }, dnsbl: answers('not_listed', 'not_listed') }),
    ).toEqual({
      type: 'residential',
      score: 100,
      grade: 'A',
      label: 'Clean',
      flags: ['Residential ISP'],
      evidence: [],
      is_vpn: false,
      is_datacenter: false,
      is_residential: true,
      is_tor: false,
      is_proxy: false,
      is_mobile: false,
    });
  });

  test('the dataset saying "not residential" drops the flag; type and is_residential agree', () => {
    const r = scoreIp({ signals: { residential: false, mobile: true } });
    expect(r.type).toBe('residential');
    expect(r.is_residential).toBe(true);
    expect(r.flags).toEqual(['Mobile network']);
  });

  test('a datacenter or anonymiser is never residential', () => {
    for (const signals of [{ datacenter: true }, { vpn: true }, { tor: true }, { proxy: true }]) {
      const r = scoreIp({ signals: { ...signals, residential: true } });
      expect(r.is_residential).toBe(false);
      expect(r.flags).not.toContain('Residential ISP');
    }
  });
});

describe('DNSBL listings', () => {
  test.each([
    [0, 100, 'A', []],
    [1, 85, 'A', ['Listed on 1 spam blacklist']],
    [2, 70, 'B', ['Listed on 2 spam blacklists']],
    [3, 55, 'C', ['Listed on 3 spam blacklists']],
    [5, 55, 'C', ['Listed on 5 spam blacklists']],
  ])('%i listed → %i', (count, score, grade, flags) => {
    const statuses = [
      ...Array(count).fill('listed'),
      ...Array(5 - count).fill('not_listed'),
    ] as string[];
    const r = scoreIp({ signals: {}, dnsbl: answers(...statuses) });
    expect(r.score).toBe(score);
    expect(r.grade).toBe(grade);
    expect(r.flags).toEqual([...flags, 'Residential ISP']);
    const listed = r.evidence.filter((e) => e.signal === 'dnsbl_listed');
    expect(listed).toHaveLength(count);
    expect(listed.reduce((sum, e) => sum + e.weight, 0)).toBe(score - 100);
    if (count > 0) expect(listed[0]).toMatchObject({ source: 'zen.spamhaus.org', weight: -15 });
    if (count > 3) expect(listed[3]?.detail).toMatch(/cap of -45 reached/);
  });

  test('lists that did not answer are named, and the score uses the ones that did', () => {
    const r = scoreIp({
      signals: {},
      dnsbl: answers('listed', 'timeout', 'error', 'not_listed', 'skipped'),
    });
    expect(r.score).toBe(85);
    expect(r.evidence).toContainEqual({
      signal: 'dnsbl_unavailable',
      weight: 0,
      detail: expect.stringContaining('SpamCop, Barracuda'),
      source: 'bl.spamcop.net, b.barracudacentral.org',
    });
  });

  test('a failed DNSBL step is named and scored without DNSBL evidence', () => {
    const r = scoreIp({ signals: { datacenter: true }, dnsbl: null });
    expect(r.score).toBe(75);
    expect(r.evidence.at(-1)).toEqual({
      signal: 'dnsbl_unavailable',
      weight: 0,
      detail: 'the DNSBL check could not be done; scored without DNSBL evidence',
      source: 'DNSBL',
    });
  });

  test('no list answered is treated like a failed check, never as "not listed"', () => {
    const failed = scoreIp({ signals: { datacenter: true }, dnsbl: null });
    const silent = scoreIp({
      signals: { datacenter: true },
      dnsbl: answers('timeout', 'error', 'timeout', 'skipped'),
    });
    expect(silent).toMatchObject({
      score: failed.score,
      grade: failed.grade,
      flags: failed.flags,
    });
    const item = silent.evidence.at(-1);
    expect(item).toMatchObject({ signal: 'dnsbl_unavailable', weight: 0 });
    expect(item?.detail).toMatch(/^the DNSBL check could not be done: no list answered/);
    expect(item?.detail).toContain('SpamCop, Barracuda');
    expect(item?.detail).not.toMatch(/lists that answered/);
    expect(item?.source).toBe('zen.spamhaus.org, bl.spamcop.net, b.barracudacentral.org');
  });

  test('no list could be asked (every list skipped): the step could not be done', () => {
    const r = scoreIp({ signals: {}, dnsbl: answers('skipped', 'skipped') });
    expect(r.evidence).toEqual([
      expect.objectContaining({
        signal: 'dnsbl_unavailable',
        detail: expect.stringContaining('no list could be asked'),
      }),
    ]);
  });

  test('DNSBL not requested: no DNSBL evidence', () => {
    expect(scoreIp({ signals: {} }).evidence).toEqual([]);
  });
});

describe('type and the is_* booleans (one mapping, never contradicting)', () => {
  const allSignals = fc.record({
    tor: fc.boolean(),
    vpn: fc.boolean(),
    proxy: fc.boolean(),
    datacenter: fc.boolean(),
    mobile: fc.boolean(),
    residential: fc.option(fc.boolean(), { nil: undefined }),
  });
  const dnsblInput = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.array(fc.constantFrom('listed', 'not_listed', 'error', 'timeout', 'skipped'), {
      maxLength: 12,
    }),
  );

  test('property: is_vpn ⇔ vpn, is_datacenter ⇔ datacenter, is_residential ⇔ residential', () => {
    fc.assert(
      fc.property(allSignals, dnsblInput, (signals, statuses) => {
        const dnsbl = Array.isArray(statuses) ? answers(...statuses) : statuses;
        const r = scoreIp({ signals, dnsbl });
        expect(r.is_vpn).toBe(r.type === 'vpn');
        expect(r.is_datacenter).toBe(r.type === 'datacenter');
        expect(r.is_residential).toBe(r.type === 'residential');
        // Exactly one of the three.
        expect([r.is_vpn, r.is_datacenter, r.is_residential].filter(Boolean)).toHaveLength(1);
        // The type follows the signals: any anonymiser → vpn, else hosting → datacenter.
        const anonymiser = signals.tor || signals.vpn || signals.proxy;
        expect(r.type).toBe(anonymiser ? 'vpn' : signals.datacenter ? 'datacenter' : 'residential');
        // Flags never contradict the type either.
        if (r.flags.includes('Tor exit node')) expect(r.type).toBe('vpn');
        if (r.flags.includes('Residential ISP')) expect(r.type).toBe('residential');
      }),
      { numRuns: 500 },
    );
  });

  test('every one of the 96 signal combinations agrees (exhaustive)', () => {
    const bools = [false, true];
    let combinations = 0;
    for (const tor of bools)
      for (const vpn of bools)
        for (const proxy of bools)
          for (const datacenter of bools)
            for (const mobile of bools)
              for (const residential of [undefined, false, true]) {
                const r = scoreIp({
                  signals: { tor, vpn, proxy, datacenter, mobile, residential },
                });
                expect({
                  vpn: r.is_vpn,
                  datacenter: r.is_datacenter,
                  residential: r.is_residential,
                }).toEqual({
                  vpn: r.type === 'vpn',
                  datacenter: r.type === 'datacenter',
                  residential: r.type === 'residential',
                });
                combinations++;
              }
    expect(combinations).toBe(96);
  });

  test('a Tor exit: type vpn and is_vpn true (is_tor says which anonymiser)', () => {
    expect(scoreIp({ signals: { tor: true, proxy: false } })).toMatchObject({
      type: 'vpn',
      is_vpn: true,
      is_datacenter: false,
      is_residential: false,
      is_tor: true,
      is_proxy: false,
    });
  });

  test('a VPN in a datacenter: type vpn, so is_datacenter is false', () => {
    expect(scoreIp({ signals: { vpn: true, datacenter: true } })).toMatchObject({
      type: 'vpn',
      is_vpn: true,
      is_datacenter: false,
    });
  });

  test('a special-purpose (bogon) address, no signal at all: residential, without the ISP flag', () => {
    const r = scoreIp({
      signals: {
        tor: false,
        vpn: false,
        proxy: false,
        datacenter: false,
        mobile: false,
        residential: false,
      },
    });
    expect(r).toMatchObject({
      type: 'residential',
      is_vpn: false,
      is_datacenter: false,
      is_residential: true,
      score: 100,
      flags: [],
      evidence: [],
    });
  });
});

describe('grades and combinations', () => {
  test.each([
    [{ vpn: true, datacenter: true }, 45, 'C', 'Suspicious'],
    [{ tor: true, datacenter: true }, 25, 'D', 'High risk'],
    [{ proxy: true }, 70, 'B', 'Mostly clean'],
    [{ tor: true, vpn: true, proxy: true, datacenter: true }, 0, 'D', 'High risk'],
  ])('%j → %i %s', (signals, score, grade, label) => {
    expect(scoreIp({ signals })).toMatchObject({ score, grade, label, type: 'vpn' });
  });

  test.each<[PrivacySignals, number, number, string]>([
    [{ mobile: true }, 1, 80, 'A'],
    [{ datacenter: true }, 0, 75, 'B'],
    [{ datacenter: true }, 1, 60, 'B'],
    [{ datacenter: true, mobile: true }, 1, 55, 'C'],
    [{ vpn: true }, 2, 40, 'C'],
    [{ vpn: true, mobile: true }, 2, 35, 'D'],
  ])('boundary: %j with %i listings → %i %s', (signals, listings, score, grade) => {
    const dnsbl = answers(...Array(listings).fill('listed'));
    expect(scoreIp({ signals, dnsbl })).toMatchObject({ score, grade });
  });

  test('properties: 0–100, grade from score, evidence sums to score, deterministic', () => {
    const status = fc.constantFrom('listed', 'not_listed', 'error', 'timeout', 'skipped');
    fc.assert(
      fc.property(
        fc.record({
          tor: fc.boolean(),
          vpn: fc.boolean(),
          proxy: fc.boolean(),
          datacenter: fc.boolean(),
          mobile: fc.boolean(),
          residential: fc.boolean(),
        }),
        fc.option(fc.array(status, { maxLength: 12 }), { nil: undefined }),
        (signals, statuses) => {
          const dnsbl = statuses ? answers(...statuses) : undefined;
          const r = scoreIp({ signals, dnsbl });
          expect(r.score).toBeGreaterThanOrEqual(0);
          expect(r.score).toBeLessThanOrEqual(100);
          const expectedGrade = GRADES.find((g) => r.score >= g.min);
          expect(r.grade).toBe(expectedGrade?.grade);
          expect(r.label).toBe(expectedGrade?.label);
          const sum = r.evidence.reduce((total, e) => total + e.weight, 100);
          expect(r.score).toBe(Math.max(0, sum));
          expect(scoreIp({ signals, dnsbl })).toEqual(r);
        },
      ),
    );
  });
});
