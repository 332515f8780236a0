/**
 * The one email-auth grade rule: points per section, score → letter, the SPF/DMARC cap, and the
 * rule sentence (returned with every summary and quoted in the OpenAPI text) written from them.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  EMAIL_AUTH_GRADES,
  type EmailAuthSection,
  emailAuthGrade,
  GRADE_MINIMUM_SCORES,
  GRADE_RULE,
  SECTION_POINTS,
  summarise,
} from './summary.js';
import type { SectionStatus } from './types.js';

const all = (status: SectionStatus): Record<EmailAuthSection, SectionStatus> => ({
  mx: status,
  spf: status,
  dmarc: status,
  dkim: status,
  mta_sts: status,
  tls_rpt: status,
  bimi: status,
});

describe('summary and grade', () => {
  test('the points table adds up to 100', () => {
    expect(Object.values(SECTION_POINTS).reduce((s, t) => s + t.pass, 0)).toBe(100);
  });

  test.each([
    [all('pass'), 100, 'A'],
    [{ ...all('pass'), mta_sts: 'none', tls_rpt: 'none', bimi: 'none' }, 90, 'A'],
    [{ ...all('pass'), bimi: 'none', dkim: 'warn' }, 87, 'B'],
    [{ ...all('none'), spf: 'pass', dmarc: 'warn', dkim: 'warn', mx: 'pass' }, 65, 'C'],
    [{ ...all('pass'), spf: 'fail' }, 70, 'D'],
    [{ ...all('pass'), dmarc: 'fail' }, 70, 'D'],
    [{ ...all('none'), mx: 'warn' }, 5, 'F'],
    [all('fail'), 0, 'F'],
  ] as const)('%j → %i, %s', (statuses, score, grade) => {
    const summary = summarise(statuses);
    expect(summary.score).toBe(score);
    expect(summary.grade).toBe(grade);
    expect(summary.rule).toBe(GRADE_RULE);
  });

  test('the thresholds, and the cap only ever lowers a grade', () => {
    const pass = all('pass');
    expect([90, 89, 75, 74, 60, 59, 40, 39, 0].map((s) => emailAuthGrade(s, pass))).toEqual([
      'A',
      'B',
      'B',
      'C',
      'C',
      'D',
      'D',
      'F',
      'F',
    ]);
    expect(EMAIL_AUTH_GRADES).toEqual(['A', 'B', 'C', 'D', 'F']);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), (score) => {
        const free = emailAuthGrade(score, pass);
        const capped = emailAuthGrade(score, { ...pass, spf: 'fail' });
        expect(EMAIL_AUTH_GRADES.indexOf(capped)).toBeGreaterThanOrEqual(
          Math.max(EMAIL_AUTH_GRADES.indexOf(free), EMAIL_AUTH_GRADES.indexOf('D')),
        );
        const min = GRADE_MINIMUM_SCORES[free];
        expect(score).toBeGreaterThanOrEqual(min);
      }),
    );
  });

  test('the rule sentence is written from the tables', () => {
    expect(GRADE_RULE).toBe(
      'Points per section by status (pass/warn/fail/none): SPF 30/20/0/0, DMARC 30/15/0/0, ' +
        'DKIM 20/10/0/0, MX 10/5/0/0, MTA-STS 4/2/0/0, TLS-RPT 3/1/0/0, BIMI 3/1/0/0; ' +
        'grade A ≥ 90, B ≥ 75, C ≥ 60, D ≥ 40, F below; a failing SPF or DMARC caps the grade at D.',
    );
  });
});
