/**
 * The checks of one scan, each in its own turn of the event loop. A hostile page puts up to
 * 1 MiB of policy in front of a check (a `<meta>` Content-Security-Policy), and the page was
 * read just before: run back to back, the reading and the checks held the process for
 * 110–140 ms per MiB of page (BENCHMARKS.md, issue 20 item 1), where the target is 50. Between
 * checks, other requests and timers run, and a caller that gave up stops the grade. A check
 * that reads item after item of the page (`CheckDef.steps`) gets a turn between its steps too.
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
    if (check.steps === undefined) {
      outcomes.push(check.run(input));
      continue;
    }
    const steps = check.steps(input);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        outcomes.push(step.value);
        break;
      }
      await nextTurn(signal);
    }
  }
  return outcomes;
}
