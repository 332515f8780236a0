/**
 * The Observatory's scoring (`src/grader/grader.js`, algorithm version 6): bonuses count only
 * when the score from the penalties alone is at least 90.
 * @module
 */
import {
  GRADE_CHART,
  MINIMUM_SCORE_FOR_EXTRA_CREDIT,
  type SecurityGrade,
  STARTING_SCORE,
} from './score-table.js';

type GradedScore = { score: number; grade: SecurityGrade };

export function gradeScore(modifiers: readonly number[]): GradedScore {
  let uncurved = STARTING_SCORE;
  let withExtraCredit = STARTING_SCORE;
  for (const modifier of modifiers) {
    withExtraCredit += modifier;
    if (modifier < 0) uncurved += modifier;
  }
  const score = uncurved >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withExtraCredit : uncurved;
  return gradeForScore(score);
}

/** Score → grade: floored at 0, in steps of 5, anything from 100 up is A+. */
export function gradeForScore(score: number): GradedScore {
  const floored = Math.max(score, 0);
  const key = Math.min(floored - (floored % 5), 100);
  return { score: floored, grade: GRADE_CHART[key] ?? 'F' };
}
