/**
 * `--fail-under GRADE`: the run fails (exit 5) when a graded check comes out below the grade.
 * Grades compare on one scale, best first (A+ … F, the security-header chart), which holds every
 * grade netdiag gives: header grades (A+…F), email-auth (A–F) and the privacy score (A–D).
 * @module
 */
import { SECURITY_GRADES } from '@netdiag/core/capabilities';
import { InvalidArgumentError } from 'commander';
import type { GateFailure } from './command.js';

const RANK = new Map<string, number>(SECURITY_GRADES.map((g, i) => [g, i]));

/** Option parser: one of `grades` (case-insensitive). */
export function gradeOption(grades: readonly string[]) {
  return (value: string): string => {
    const grade = grades.find((g) => g === value.trim().toUpperCase());
    if (!grade) throw new InvalidArgumentError(`give one of ${grades.join(', ')}`);
    return grade;
  };
}

/** A failure when `grade` is worse than `floor`. */
export function gradeGate(
  what: string,
  grade: string,
  floor: string | undefined,
): GateFailure | undefined {
  if (floor === undefined) return undefined;
  const worse = (RANK.get(grade) ?? Number.POSITIVE_INFINITY) > (RANK.get(floor) ?? -1);
  return worse ? { message: `${what} grade ${grade} is below --fail-under ${floor}` } : undefined;
}
