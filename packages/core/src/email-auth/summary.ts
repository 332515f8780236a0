/**
 * The overall grade: points per section by status (data, the mdn-http-observatory split), a
 * letter per total, capped when SPF or DMARC fails, since without both a domain is spoofable.
 * @module
 */
import type { z } from 'zod';
import type { summarySchema } from './schema.js';
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
 * Points per section and status: SPF and DMARC most (they stop direct spoofing), DKIM next, MX
 * table stakes, MTA-STS, TLS-RPT and BIMI extras. `none` (not published) earns nothing.
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
  const better = EMAIL_AUTH_GRADES.indexOf(grade) < EMAIL_AUTH_GRADES.indexOf(FAILING_CORE_CAP);
  return capped && better ? FAILING_CORE_CAP : grade;
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

/** The `summary`: score, grade, per-section points and the rule in words. */
export function summarise(
  statuses: Record<EmailAuthSection, SectionStatus>,
): z.output<typeof summarySchema> {
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
