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

  test('the dataset saying "not residential" drops the flag but the type stays residential', () => {
    const r = scoreIp({ signals: { residential: false, mobile: true } });
    expect(r.type).toBe('residential');
    expect(r.is_residential).toBe(false);
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

  test('a failed DNSBL step is named and scored as clean', () => {
    const r = scoreIp({ signals: { datacenter: true }, dnsbl: null });
    expect(r.score).toBe(75);
    expect(r.evidence.at(-1)).toMatchObject({ signal: 'dnsbl_unavailable', weight: 0 });
  });

  test('DNSBL not requested: no DNSBL evidence', () => {
    expect(scoreIp({ signals: {} }).evidence).toEqual([]);
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
