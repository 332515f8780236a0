/**
 * The overall grade. Points are data, checks are elsewhere (the mdn-http-observatory split):
 * each section earns points by its status, the total (0–100) maps to a letter, and a missing
 * or broken SPF or DMARC caps the grade, because without both a domain can be spoofed freely.
 * @module
 */
import type { z } from 'zod';
import type { sectionScoreSchema, summarySchema } from './schema.js';
import type { SectionStatus } from './types.js';

/** The graded sections, in the order of the summary and the rule text. */
export const EMAIL_AUTH_SECTIONS = [
  'spf',
  'dmarc',
  'dkim',
  'mx',
  'mta_sts',
  'tls_rpt',
  'bimi',
] as const;
export type EmailAuthSection = (typeof EMAIL_AUTH_SECTIONS)[number];

/** Every grade, best first (a tuple, for enums in schemas and docs). */
export const EMAIL_AUTH_GRADES = ['A', 'B', 'C', 'D', 'F'] as const;
export type EmailAuthGrade = (typeof EMAIL_AUTH_GRADES)[number];

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

/** How each section is written for people (the rule text, the CLI). */
export const EMAIL_AUTH_SECTION_LABELS: Readonly<Record<EmailAuthSection, string>> = {
  spf: 'SPF',
  dmarc: 'DMARC',
  dkim: 'DKIM',
  mx: 'MX',
  mta_sts: 'MTA-STS',
  tls_rpt: 'TLS-RPT',
  bimi: 'BIMI',
};

/** Lowest score for each grade. */
export const GRADE_MINIMUM_SCORES: Readonly<Record<EmailAuthGrade, number>> = {
  A: 90,
  B: 75,
  C: 60,
  D: 40,
  F: 0,
};

/** Sections whose failure caps the grade: without both, a domain can be spoofed freely. */
export const CAPPING_SECTIONS: readonly EmailAuthSection[] = ['spf', 'dmarc'];

/** A failing SPF or DMARC section caps the grade here. */
export const FAILING_CORE_CAP: EmailAuthGrade = 'D';

const STATUSES: readonly SectionStatus[] = ['pass', 'warn', 'fail', 'none'];

/**
 * The grade of a score (0–100) given the sections' statuses: the first threshold the score
 * reaches, capped at {@link FAILING_CORE_CAP} when a {@link CAPPING_SECTIONS} section fails.
 */
export function emailAuthGrade(
  score: number,
  statuses: Readonly<Record<EmailAuthSection, SectionStatus>>,
): EmailAuthGrade {
  const lowest = EMAIL_AUTH_GRADES[EMAIL_AUTH_GRADES.length - 1] as EmailAuthGrade;
  const grade = EMAIL_AUTH_GRADES.find((g) => score >= GRADE_MINIMUM_SCORES[g]) ?? lowest;
  const capped = CAPPING_SECTIONS.some((section) => statuses[section] === 'fail');
  return capped && rank(grade) < rank(FAILING_CORE_CAP) ? FAILING_CORE_CAP : grade;
}

function rank(grade: EmailAuthGrade): number {
  return EMAIL_AUTH_GRADES.indexOf(grade);
}

/** The rule in one sentence, returned with every summary; written from the tables above. */
export const GRADE_RULE = ruleText();

function ruleText(): string {
  const label = EMAIL_AUTH_SECTION_LABELS;
  const points = EMAIL_AUTH_SECTIONS.map(
    (s) => `${label[s]} ${STATUSES.map((t) => SECTION_POINTS[s][t]).join('/')}`,
  ).join(', ');
  const above = EMAIL_AUTH_GRADES.slice(0, -1)
    .map((grade) => `${grade} ≥ ${GRADE_MINIMUM_SCORES[grade]}`)
    .join(', ');
  const lowest = EMAIL_AUTH_GRADES[EMAIL_AUTH_GRADES.length - 1];
  const capping = CAPPING_SECTIONS.map((s) => label[s]).join(' or ');
  return (
    `Points per section by status (${STATUSES.join('/')}): ${points}; ` +
    `grade ${above}, ${lowest} below; a failing ${capping} caps the grade at ${FAILING_CORE_CAP}.`
  );
}

/** One section's status and the points it earned. */
export type SectionScore = z.output<typeof sectionScoreSchema>;

/** The `summary`: score, grade, per-section points and the rule in words. */
export type EmailAuthSummary = z.output<typeof summarySchema>;

export function summarise(statuses: Record<EmailAuthSection, SectionStatus>): EmailAuthSummary {
  const sections = EMAIL_AUTH_SECTIONS.map((section) => {
    const table = SECTION_POINTS[section];
    return {
      section,
      status: statuses[section],
      points: table[statuses[section]],
      max_points: table.pass,
    };
  });
  const score = sections.reduce((sum, s) => sum + s.points, 0);
  return { score, grade: emailAuthGrade(score, statuses), sections, rule: GRADE_RULE };
}
