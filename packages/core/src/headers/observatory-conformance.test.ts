/**
 * Conformance with the MDN HTTP Observatory (mdn/mdn-http-observatory @94042bb): the score
 * table, the grade chart, the 24 CSP parser cases and the 103 analyzer cases of the shared
 * corpus (read from NETDIAG_CORPORA or ../shared/corpora; never copied into the repository).
 * Agreement is reported per analyzer; header-based cases must agree 100 %.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { parseCsp } from './checks/csp-parser.js';
import { CHECKS } from './checks/index.js';
import type { CapturedResponse, Cookie, ScanInput } from './checks/types.js';
import { gradeForScore, gradeScore } from './grade.js';
import { scanHtml } from './html.js';
import { GRADE_CHART, MINIMUM_SCORE_FOR_EXTRA_CREDIT, SCORE_TABLE } from './score-table.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const corpora = process.env.NETDIAG_CORPORA ?? resolve(here, '../../../../../shared/corpora');
const dir = join(corpora, 'http-observatory');
const available = existsSync(join(dir, 'analyzer-cases.json'));
if (!available) {
  console.warn(
    `[observatory conformance] skipped: corpus not found at ${dir} (set NETDIAG_CORPORA)`,
  );
}
const read = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8'));

interface RawResponse {
  status: number;
  verified: boolean;
  headers: Record<string, string | string[]>;
  requestHeaders?: Record<string, string>;
  httpEquiv?: Record<string, string[]>;
}
interface AnalyzerCase {
  id: string;
  analyzer: string;
  source: { test: string };
  input: {
    site: { hostname: string };
    resources: { path: string | null };
    responses: {
      auto: RawResponse | null;
      http: RawResponse | null;
      https: RawResponse | null;
      cors: RawResponse | null;
      httpRedirects: { url: string; status: number }[];
    };
    sessionUrl: string | null;
    cookieJar: {
      key: string;
      secure?: boolean;
      httpOnly?: boolean;
      sameSite?: string;
      domain?: string;
      path?: string;
    }[];
  };
  expected: { result: string; pass: boolean; score_modifier: number };
}

function captured(raw: RawResponse | null): CapturedResponse | null {
  if (!raw) return null;
  const headers: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(raw.headers ?? {})) {
    const key = name.toLowerCase();
    headers[key] = [...(headers[key] ?? []), ...(Array.isArray(value) ? value : [value])];
  }
  return { status: raw.status, verified: raw.verified, headers, httpEquiv: raw.httpEquiv ?? {} };
}

function toScanInput(c: AnalyzerCase): ScanInput {
  const r = c.input.responses;
  const cors = captured(r.cors);
  return {
    hostname: c.input.site.hostname,
    url: c.input.sessionUrl ? new URL(c.input.sessionUrl) : null,
    auto: captured(r.auto),
    http: captured(r.http),
    https: captured(r.https),
    cors: cors ? { ...cors, requestOrigin: r.cors?.requestHeaders?.origin ?? '' } : null,
    httpRedirects: r.httpRedirects ?? [],
    cookies: (c.input.cookieJar ?? []).map(
      (j): Cookie => ({
        name: j.key,
        secure: j.secure === true,
        httpOnly: j.httpOnly === true,
        sameSite: ['strict', 'lax', 'none'].includes(j.sameSite ?? '')
          ? (j.sameSite as Cookie['sameSite'])
          : undefined,
        domain: j.domain ?? null,
        path: j.path ?? null,
      }),
    ),
    body: c.input.resources.path,
  };
}

/** HTML-based cases: SRI reads the page, and CSP cases whose policy comes from <meta>. */
function htmlBased(c: AnalyzerCase): boolean {
  if (c.analyzer === 'subresource-integrity') return true;
  return Object.values(c.input.responses.auto?.httpEquiv ?? {}).some((v) => v.length > 0);
}

describe.skipIf(!available)('Observatory score table and grade chart', () => {
  test('every upstream expectation has the same modifier', () => {
    const upstream = read('scoring.json');
    const ids = Object.keys(upstream.score_table);
    expect(ids.length).toBe(77);
    for (const id of ids) {
      expect([id, SCORE_TABLE[id]?.modifier]).toEqual([id, upstream.score_table[id].modifier]);
    }
    expect(MINIMUM_SCORE_FOR_EXTRA_CREDIT).toBe(upstream.minimum_score_for_extra_credit);
    for (const [key, grade] of Object.entries(upstream.grade_chart)) {
      expect(GRADE_CHART[Number(key)]).toBe(grade);
    }
    for (const g of upstream.grade_cases_from_upstream_tests) {
      expect(gradeForScore(g.input_score)).toEqual(g.expected);
    }
    for (const m of upstream.modifier_cases_from_upstream_tests) {
      expect(SCORE_TABLE[m.expectation]?.modifier).toBe(m.modifier);
    }
  });
  test('extra credit only from 90 up', () => {
    expect(gradeScore([-5, 10])).toEqual({ score: 105, grade: 'A+' });
    expect(gradeScore([-15, 10])).toEqual({ score: 85, grade: 'A-' });
    expect(gradeScore([-200])).toEqual({ score: 0, grade: 'F' });
  });
});

describe.skipIf(!available)('Observatory CSP parser cases', () => {
  interface CspCase {
    id: string;
    input: string[];
    expected_output: Record<string, string[]> | null;
    expected_throw: { message: string } | null;
  }
  const cases: CspCase[] = available ? read('csp-parser-cases.json').cases : [];
  test('24 cases', () => expect(cases.length).toBe(24));
  test.each(cases.map((c): [string, CspCase] => [c.id, c]))('%s', (_id, c) => {
    const { input, expected_output, expected_throw } = c;
    if (expected_throw) {
      expect(() => parseCsp(input)).toThrow(expected_throw.message);
      return;
    }
    const parsed = parseCsp(input);
    const actual: Record<string, string[]> = {};
    for (const [directive, sources] of parsed.directives) actual[directive] = [...sources];
    if (parsed.duplicateWarnings.size > 0) {
      actual._observatory_duplicate_key_warnings = [...parsed.duplicateWarnings];
    }
    expect(actual).toEqual(expected_output);
  });
});

describe.skipIf(!available)('Observatory analyzer cases', () => {
  const all: AnalyzerCase[] = available ? read('analyzer-cases.json').cases : [];
  const tally = new Map<string, { agree: number; total: number }>();
  const disagreements: string[] = [];
  afterAll(() => {
    if (!available) return;
    const rows = [...tally.entries()].map(([k, v]) => `${k.padEnd(40)} ${v.agree}/${v.total}`);
    const agree = [...tally.values()].reduce((s, v) => s + v.agree, 0);
    console.info(
      `[observatory conformance] result id + modifier agreement: ${agree}/${all.length}\n${rows.join('\n')}${
        disagreements.length ? `\ndisagreements:\n${disagreements.join('\n')}` : ''
      }`,
    );
  });
  test('103 cases', () => expect(all.length).toBe(103));
  test.each(all.map((c) => [c.id, c.analyzer, c]))('%s %s', (_id, analyzer, c) => {
    const kase = c as AnalyzerCase;
    const check = CHECKS.find((d) => d.test === analyzer);
    expect(check, `no check for ${analyzer}`).toBeDefined();
    const outcome = check?.run(toScanInput(kase));
    const agrees =
      outcome?.result === kase.expected.result &&
      SCORE_TABLE[outcome.result]?.modifier === kase.expected.score_modifier;
    const group = `${analyzer}${htmlBased(kase) ? ' (html)' : ''}`;
    const row = tally.get(group) ?? { agree: 0, total: 0 };
    row.total++;
    if (agrees) row.agree++;
    else
      disagreements.push(
        `${kase.id} ${kase.source.test}: got ${outcome?.result}, want ${kase.expected.result}`,
      );
    tally.set(group, row);
    expect(outcome?.result).toBe(kase.expected.result);
    expect(SCORE_TABLE[outcome?.result ?? '']?.modifier).toBe(kase.expected.score_modifier);
    expect(outcome?.pass).toBe(kase.expected.pass);
  });
});

describe.skipIf(!available)('http-equiv parsing matches the upstream HTML fixtures', () => {
  const html = (name: string) => readFileSync(join(dir, 'html-files', name), 'utf8');
  test.each([
    [
      'test_parse_http_equiv_headers_csp1.html',
      { 'content-security-policy': ["default-src 'none';"] },
    ],
    [
      'test_parse_http_equiv_headers_csp2.html',
      { 'content-security-policy': ['default-src https:'] },
    ],
    [
      'test_parse_http_equiv_headers_referrer1.html',
      { 'referrer-policy': ['no-referrer, same-origin'] },
    ],
    [
      'test_parse_http_equiv_headers_case_insensitivity.html',
      { 'referrer-policy': ['no-referrer, same-origin'] },
    ],
    ['test_parse_http_equiv_headers_x_frame_options.html', { 'x-frame-options': ['DENY'] }],
    [
      'test_parse_http_equiv_headers_not_allowed.html',
      { 'content-security-policy': ["frame-ancestors 'none'"] },
    ],
  ])('%s', (file, expected) => {
    expect(scanHtml(html(file)).httpEquiv).toEqual(expected);
  });
  test('four CSP meta tags in order, names normalised', () => {
    const equiv = scanHtml(
      html('test_parse_http_equiv_headers_csp_multiple_http_equiv1.html'),
    ).httpEquiv;
    expect(equiv['content-security-policy']).toHaveLength(4);
    expect(equiv['content-security-policy']?.[3]).toMatch(/^script-src 'self'/);
  });
});
