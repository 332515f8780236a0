/**
 * Colour on a terminal only, by the conventions people set once for every tool: `NO_COLOR`
 * (no-color.org: any non-empty value turns it off), `FORCE_COLOR` (on, even in a pipe; "0" or
 * "false" turns it off), `--no-color` / `--color`, and `TERM=dumb`.
 * @module
 */
import pc from 'picocolors';
import type { CliIO } from '../io.js';

export type Colors = ReturnType<typeof pc.createColors>;

/** Whether stdout gets colour. `flag` is `--color` (true) / `--no-color` (false), if given. */
export function colorEnabled(io: CliIO, flag: boolean | undefined): boolean {
  if (flag !== undefined) return flag;
  const env = io.env;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return !['0', 'false'].includes(force.toLowerCase());
  if (env['TERM'] === 'dumb') return false;
  return io.stdoutIsTTY === true;
}

export function colors(enabled: boolean): Colors {
  return pc.createColors(enabled);
}

/** Grades: A green, B/C yellow, D/F red (the colours of SSL Labs' and Observatory's reports). */
export function gradeColor(c: Colors, grade: string): string {
  const letter = grade.charAt(0);
  if (letter === 'A') return c.green(c.bold(grade));
  if (letter === 'B' || letter === 'C') return c.yellow(c.bold(grade));
  return c.red(c.bold(grade));
}
