/**
 * WHOIS parser conformance against likexian/whois-parser's test data (144 real answers over
 * 60 TLD groups, 59 "not found" answers; ../shared/corpora/whois, see its index.json).
 *
 * For every sample, each field that upstream requires to be non-empty and that netdiag
 * outputs (registrar, creation/expiration/update dates, name servers, status) is compared with
 * upstream's expected value: names and lists exactly (name servers as lower-case sets,
 * statuses as sets after the same RDAP-name mapping), dates as instants against upstream's
 * `*_in_time`. Dates for which upstream has no instant cannot be checked and are reported
 * separately. The share parsed right is printed and must stay ≥ 95 % (docs/whois.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { toRdapStatus } from './status.js';
import { decodeWhois } from './whois-client.js';
import { type ParsedWhois, parseWhoisText } from './whois-parser.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const corpora = process.env.NETDIAG_CORPORA ?? join(repo, '..', 'shared', 'corpora');
const root = join(corpora, 'whois');
const present = prerequisite(
  'WHOIS corpus',
  existsSync(join(root, 'index.json')),
  'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
);

interface Case {
  raw: string;
  expected: string;
  domain: string;
  upstream_asserts_nonempty: string[];
}
interface Index {
  cases: Case[];
  notfound_cases: { raw: string }[];
  inline_error_cases: { raw_text: string; expected_error: string }[];
}

/** Upstream field → netdiag field. Fields netdiag does not output are not compared. */
const FIELDS: Record<string, keyof ParsedWhois> = {
  'registrar.name': 'registrar',
  'domain.created_date': 'creation_date',
  'domain.updated_date': 'last_updated',
  'domain.expiration_date': 'expiration_date',
  'domain.name_servers': 'name_servers',
  'domain.status': 'status',
};

type Verdict = 'right' | 'wrong' | 'unverifiable';

function judge(
  field: keyof ParsedWhois,
  expectedDoc: Record<string, Record<string, unknown>>,
  path: string,
  got: ParsedWhois,
): { verdict: Verdict; expected: unknown } {
  const [object = '', key = ''] = path.split('.');
  const expected = expectedDoc[object]?.[key];
  const value = got[field];
  if (field === 'creation_date' || field === 'expiration_date' || field === 'last_updated') {
    const instant = expectedDoc[object]?.[`${key}_in_time`];
    if (typeof instant !== 'string') return { verdict: 'unverifiable', expected };
    const right = value !== '' && Date.parse(value as string) === Date.parse(instant);
    return { verdict: right ? 'right' : 'wrong', expected: `${expected} = ${instant}` };
  }
  if (field === 'name_servers') {
    const want = new Set((expected as string[]).map((s) => s.toLowerCase().replace(/\.$/, '')));
    const have = value as string[];
    const right = have.length === want.size && have.every((h) => want.has(h));
    return { verdict: right ? 'right' : 'wrong', expected };
  }
  if (field === 'status') {
    const want = new Set((expected as string[]).map((s) => toRdapStatus(s).toLowerCase()));
    const have = new Set((value as string[]).map((s) => s.toLowerCase()));
    const right = have.size === want.size && [...want].every((s) => have.has(s));
    return { verdict: right ? 'right' : 'wrong', expected };
  }
  return { verdict: value === expected ? 'right' : 'wrong', expected };
}

const suite = present ? describe : describe.skip;
if (!present) {
  console.warn(`[whois conformance] skipped: no corpus at ${root} (set NETDIAG_CORPORA)`);
}

suite('WHOIS parser conformance (likexian/whois-parser corpus)', () => {
  const index = present
    ? (JSON.parse(readFileSync(join(root, 'index.json'), 'utf8')) as Index)
    : { cases: [], notfound_cases: [], inline_error_cases: [] };
  const read = (file: string) => decodeWhois(readFileSync(join(root, file)));

  // An emptied or truncated corpus must fail, not shrink the suites below to nothing.
  test('the corpus holds 144 answers, 59 not-found answers and 7 inline errors', () => {
    expect([
      index.cases.length,
      index.notfound_cases.length,
      index.inline_error_cases.length,
    ]).toEqual([144, 59, 7]);
  });

  test('required fields parsed right: ≥ 95 %', () => {
    let right = 0;
    let checked = 0;
    const failures: string[] = [];
    const unverifiable: string[] = [];
    for (const sample of index.cases) {
      const parsed = parseWhoisText(read(sample.raw));
      const expectedDoc = JSON.parse(readFileSync(join(root, sample.expected), 'utf8'));
      expect(parsed.outcome, sample.raw).toBe('found');
      for (const path of sample.upstream_asserts_nonempty) {
        const field = FIELDS[path];
        if (!field) continue;
        const { verdict, expected } = judge(field, expectedDoc, path, parsed);
        const line = `${sample.raw} ${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(parsed[field])}`;
        if (verdict === 'unverifiable') {
          unverifiable.push(line);
          continue;
        }
        checked++;
        if (verdict === 'right') right++;
        else failures.push(line);
      }
    }
    const share = (100 * right) / checked;
    console.log(
      `[whois conformance] ${right}/${checked} required fields parsed right = ${share.toFixed(1)} %` +
        ` (${index.cases.length} samples; ${unverifiable.length} dates without an upstream instant not counted)\n` +
        `  failures:\n    ${failures.join('\n    ')}\n` +
        `  not counted (no upstream instant):\n    ${unverifiable.join('\n    ')}`,
    );
    expect(checked).toBeGreaterThan(600);
    expect(share).toBeGreaterThanOrEqual(95);
  });

  test('dates without an upstream instant still parse to a date', () => {
    // Upstream could not normalise these (offsets like -0700, "(JST)", "(YYYY-MM-DD)"), so
    // there is no instant to compare with; at least every one must yield a timestamp.
    const missing: string[] = [];
    for (const sample of index.cases) {
      const parsed = parseWhoisText(read(sample.raw));
      const expectedDoc = JSON.parse(readFileSync(join(root, sample.expected), 'utf8'));
      for (const [path, field] of Object.entries(FIELDS)) {
        if (!path.endsWith('_date') || !sample.upstream_asserts_nonempty.includes(path)) continue;
        const [object = '', key = ''] = path.split('.');
        const raw = expectedDoc[object]?.[key];
        if (expectedDoc[object]?.[`${key}_in_time`] || /^before\b/i.test(String(raw))) continue;
        if (parsed[field] === '') missing.push(`${sample.raw} ${path} ${raw}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test.each(index.notfound_cases.map((c) => c.raw))('%s is "not found"', (file) => {
    expect(parseWhoisText(read(file)).outcome).toBe('not_found');
  });

  /**
   * Upstream error → netdiag outcome. Reserved, premium and blocked names are not registered
   * (404); an answer with no domain data at all describes nothing (404 too).
   */
  const OUTCOME: Record<string, string> = {
    ErrNotFoundDomain: 'not_found',
    ErrReservedDomain: 'not_found',
    ErrPremiumDomain: 'not_found',
    ErrBlockedDomain: 'not_found',
    ErrDomainDataInvalid: 'not_found',
    ErrDomainLimitExceed: 'limit_exceeded',
  };
  test.each(index.inline_error_cases.map((c) => [c.raw_text, c.expected_error] as const))(
    'inline case %j (%s)',
    (text, error) => {
      expect(OUTCOME[error]).toBeDefined();
      expect(parseWhoisText(text).outcome).toBe(OUTCOME[error]);
    },
  );
});
