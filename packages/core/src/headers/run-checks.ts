/**
 * The checks of one scan, each in its own turn of the event loop: on a hostile page the heaviest
 * (CSP, SRI) are tens of milliseconds each, so in between other requests run and a caller that
 * gave up stops the grade (test/adversarial/grade-pages.test.ts).
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
