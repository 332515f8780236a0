/**
 * The checks of one scan, each in its own turn of the event loop: the page was just read, and
 * each of the heaviest checks (CSP of a 64 KiB `<meta>` policy, SRI of thousands of scripts) is
 * tens of milliseconds on a hostile page; back to back they would hold the process past the
 * 100 ms a grade may (test/adversarial/grade-pages.test.ts). Between checks other requests and
 * timers run, and a caller that gave up stops the grade.
 * @module
 */
import { nextTurn } from '../net/signal.js';
import type { CheckDef } from './checks/index.js';
import type { CheckOutcome, ScanInput } from './checks/types.js';

export async function runChecks(
  input: ScanInput,
  checks: readonly CheckDef[],
  signal?: AbortSignal,
): Promise<CheckOutcome[]> {
  const outcomes: CheckOutcome[] = [];
  for (const check of checks) {
    await nextTurn(signal);
    outcomes.push(check.run(input));
  }
  return outcomes;
}
