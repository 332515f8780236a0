/**
 * The overall grade. Points are data, checks are elsewhere (the mdn-http-observatory split):
 * each section earns points by its status, the total (0–100) maps to a letter, and a missing
 * or broken SPF or DMARC caps the grade, because without both a domain can be spoofed freely.
 * @module
 */
import type { SectionStatus } from './types.js';

export type EmailAuthSection = 'mx' | 'spf' | 'dmarc' | 'dkim' | 'mta_sts' | 'tls_rpt' | 'bimi';
export type EmailAuthGrade = 'A' | 'B' | 'C' | 'D' | 'F';

/**
 * Points per section and status. SPF and DMARC carry most weight (they are what stops direct
 * spoofing), DKIM next, MX is table stakes; MTA-STS, TLS-RPT and BIMI are extras. `none` (not
 * published) earns nothing and costs nothing more than not having it.
 */
export const SECTION_POINTS: Readonly<Record<EmailAuthSection, Record<SectionStatus, number>>> = {
  spf: { pass: 30, warn: 20, fail: 0, none: 0 },
  dmarc: { pass: 30, warn: 15, fail: 0, none: 0 },
  dkim: { pass: 20, warn: 10, fail: 0, none: 0 },
  mx: { pass: 10, warn: 5, fail: 0, none: 0 },
  mta_sts: { pass: 4, warn: 2, fail: 0, none: 0 },
  tls_rpt: { pass: 3, warn: 1, fail: 0, none: 0 },
  bimi: { pass: 3, warn: 1, fail: 0, none: 0 },
};

/** Lowest score for each grade, best first. */
export const GRADE_THRESHOLDS: readonly [EmailAuthGrade, number][] = [
  ['A', 90],
  ['B', 75],
  ['C', 60],
  ['D', 40],
  ['F', 0],
];

/** A failing SPF or DMARC section caps the grade here. */
export const FAILING_CORE_CAP: EmailAuthGrade = 'D';

/** The rule in one sentence, returned with every summary. */
export const GRADE_RULE =
  'Points per section by status (pass/warn/fail/none): SPF 30/20/0/0, DMARC 30/15/0/0, ' +
  'DKIM 20/10/0/0, MX 10/5/0/0, MTA-STS 4/2/0/0, TLS-RPT 3/1/0/0, BIMI 3/1/0/0; ' +
  'grade A ≥ 90, B ≥ 75, C ≥ 60, D ≥ 40, F below; a failing SPF or DMARC caps the grade at D.';

export interface SectionScore {
  section: EmailAuthSection;
  status: SectionStatus;
  points: number;
  max_points: number;
}

export interface EmailAuthSummary {
  score: number;
  grade: EmailAuthGrade;
  sections: SectionScore[];
  rule: string;
}

export function summarise(statuses: Record<EmailAuthSection, SectionStatus>): EmailAuthSummary {
  const sections = (Object.keys(SECTION_POINTS) as EmailAuthSection[]).map((section) => {
    const table = SECTION_POINTS[section];
    return {
      section,
      status: statuses[section],
      points: table[statuses[section]],
      max_points: table.pass,
    };
  });
  const score = sections.reduce((sum, s) => sum + s.points, 0);
  let grade = (GRADE_THRESHOLDS.find(([, min]) => score >= min) as [EmailAuthGrade, number])[0];
  const coreFails = statuses.spf === 'fail' || statuses.dmarc === 'fail';
  if (coreFails && gradeRank(grade) < gradeRank(FAILING_CORE_CAP)) grade = FAILING_CORE_CAP;
  return { score, grade, sections, rule: GRADE_RULE };
}

function gradeRank(grade: EmailAuthGrade): number {
  return GRADE_THRESHOLDS.findIndex(([g]) => g === grade);
}
