import { describe, expect, test } from 'vitest';
import { breachAnalyticsBody } from '../../../../test-utils/src/xposedornot-server.js';
import { breachAnalyticsUrl, mapBreachAnalytics, retryAfterFrom } from './xposedornot.js';

const ZERO = { plain_text: 0, weak_hash: 0, strong_hash: 0, unknown: 0, total: 0 };

describe('mapBreachAnalytics', () => {
  test('several breaches: every SPEC 2.6 field from its upstream field', () => {
    // Adobe, LinkedIn, Zynga: easytocrack; Dropbox, Canva: hardtocrack; RockYou: plaintext;
    // Collection1: unknown.
    const body = breachAnalyticsBody({
      breaches: ['Adobe', 'LinkedIn', 'Dropbox', 'RockYou', 'Canva', 'Zynga', 'Collection1'],
      risk: { risk_label: 'Critical', risk_score: 88 },
    });
    expect(mapBreachAnalytics(body)).toEqual({
      breaches: 7,
      services: ['Adobe', 'LinkedIn', 'Dropbox', 'RockYou', 'Canva', 'Zynga', 'Collection1'],
      passwords: { plain_text: 1, weak_hash: 3, strong_hash: 2, unknown: 1, total: 7 },
      risk: { score: 88, level: 'critical' },
    });
  });

  test('the risk label is lower-cased as given', () => {
    for (const label of ['Low', 'Moderate', 'High', 'Medium']) {
      const body = breachAnalyticsBody({
        breaches: ['Dropbox'],
        risk: { risk_label: label, risk_score: 30 },
      });
      expect(mapBreachAnalytics(body).risk).toEqual({ score: 30, level: label.toLowerCase() });
    }
  });

  test('no breach (200 with nulls) is zeros', () => {
    expect(mapBreachAnalytics(breachAnalyticsBody({ breaches: [] }))).toEqual({
      breaches: 0,
      services: [],
      passwords: ZERO,
      risk: { score: 0, level: 'low' },
    });
  });

  test('an empty object or an error object is zeros', () => {
    expect(mapBreachAnalytics({}).breaches).toBe(0);
    expect(mapBreachAnalytics({ Error: 'Not found' }).breaches).toBe(0);
  });

  test('without passwords_strength the counts come from each password_risk', () => {
    const body = breachAnalyticsBody({ breaches: ['Adobe', 'RockYou', 'Dropbox', 'Collection1'] });
    const metrics = (body as { BreachMetrics: Record<string, unknown> }).BreachMetrics;
    delete metrics['passwords_strength'];
    expect(mapBreachAnalytics(body).passwords).toEqual({
      plain_text: 1,
      weak_hash: 1,
      strong_hash: 1,
      unknown: 1,
      total: 4,
    });
  });

  test('without details the services come from BreachesSummary.site', () => {
    const result = mapBreachAnalytics({
      BreachesSummary: { site: 'Adobe;LinkedIn;;Adobe' },
      BreachMetrics: {
        passwords_strength: [{ EasyToCrack: 2, PlainText: 0, StrongHash: 0, Unknown: 0 }],
        risk: [{ risk_label: 'High', risk_score: 55 }],
      },
    });
    expect(result.services).toEqual(['Adobe', 'LinkedIn']);
    expect(result.breaches).toBe(2);
    expect(result.passwords.weak_hash).toBe(2);
  });

  test('a missing label is derived from the score with the upstream zones', () => {
    const cases: [number, string][] = [
      [0, 'low'],
      [25, 'low'],
      [26, 'moderate'],
      [50, 'moderate'],
      [51, 'high'],
      [75, 'high'],
      [76, 'critical'],
      [100, 'critical'],
    ];
    for (const [score, level] of cases) {
      const body = breachAnalyticsBody({ breaches: ['Adobe'] }) as {
        BreachMetrics: { risk: unknown[] };
      };
      body.BreachMetrics.risk = [{ risk_score: score }];
      expect(mapBreachAnalytics(body).risk).toEqual({ score, level });
    }
  });

  test('numeric strings are accepted (the upstream is Python)', () => {
    const body = breachAnalyticsBody({ breaches: ['Adobe'] }) as {
      BreachMetrics: { risk: unknown[] };
    };
    body.BreachMetrics.risk = [{ risk_label: 'Low', risk_score: '12' }];
    expect(mapBreachAnalytics(body).risk.score).toBe(12);
  });

  test.each([
    ['not an object', [1, 2]],
    ['a string', 'Adobe'],
    ['ExposedBreaches a string', { ExposedBreaches: 'Adobe;LinkedIn' }],
    ['details not an array', { ExposedBreaches: { breaches_details: {} } }],
    ['a detail without a name', { ExposedBreaches: { breaches_details: [{ domain: 'x.com' }] } }],
    [
      'passwords_strength not a list of objects',
      {
        ExposedBreaches: { breaches_details: [{ breach: 'Adobe' }] },
        BreachMetrics: { passwords_strength: 'lots' },
      },
    ],
    [
      'a negative count',
      {
        ExposedBreaches: { breaches_details: [{ breach: 'Adobe' }] },
        BreachMetrics: {
          passwords_strength: [{ PlainText: -1, EasyToCrack: 0, StrongHash: 0, Unknown: 0 }],
        },
      },
    ],
    [
      'risk not a list',
      {
        ExposedBreaches: { breaches_details: [{ breach: 'Adobe' }] },
        BreachMetrics: { risk: { risk_score: 3 } },
      },
    ],
    [
      'BreachMetrics a list',
      { ExposedBreaches: { breaches_details: [{ breach: 'Adobe' }] }, BreachMetrics: [] },
    ],
  ])('an unexpected shape (%s) is an upstream error', (_name, body) => {
    expect(() => mapBreachAnalytics(body)).toThrow(
      expect.objectContaining({ code: 'UPSTREAM_ERROR', upstream: 'breach' }),
    );
  });
});

describe('request helpers', () => {
  test.each([
    [
      'https://api.xposedornot.com',
      'https://api.xposedornot.com/v1/breach-analytics?email=a%2Bb%40x.com',
    ],
    [
      'https://api.xposedornot.com/',
      'https://api.xposedornot.com/v1/breach-analytics?email=a%2Bb%40x.com',
    ],
    ['http://127.0.0.1:9/base', 'http://127.0.0.1:9/base/v1/breach-analytics?email=a%2Bb%40x.com'],
  ])('URL from %s', (base, expected) => {
    expect(breachAnalyticsUrl(base, 'a+b@x.com')).toBe(expected);
  });

  const response = (headers: Record<string, string>, body: string) => ({
    status: 429,
    headers,
    body: Buffer.from(body),
    url: '',
  });
  test.each([
    [{ 'retry-after': '42' }, '', 42],
    [{}, JSON.stringify({ detail: { retry_after: 13 } }), 13],
    [{}, JSON.stringify({ detail: { error: 'Request dropped due to violation history' } }), 60],
    [{}, '<html>', 60],
  ])('Retry-After from %j %s', (headers, body, expected) => {
    expect(retryAfterFrom(response(headers, body))).toBe(expected);
  });
});
