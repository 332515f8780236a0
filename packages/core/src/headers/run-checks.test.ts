import { describe, expect, test } from 'vitest';
import { pageScanInput } from '../../test/fixtures/scan-input.js';
import { AbortedError } from '../errors.js';
import type { CheckDef } from './checks/index.js';
import { runChecks } from './run-checks.js';

const input = pageScanInput({ httpEquiv: {} });
const outcome = (result: string) => ({ result, pass: true, present: true, value: null });

describe('runChecks: one check per turn of the event loop', () => {
  test('the outcomes come in the order of the checks', async () => {
    const checks: CheckDef[] = ['a', 'b', 'c'].map((test) => ({
      test,
      header: '',
      run: () => outcome(test),
    }));
    expect((await runChecks(input, checks)).map((o) => o.result)).toEqual(['a', 'b', 'c']);
  });

  test('timers and I/O callbacks run between two checks', async () => {
    let turned = false;
    const seen: boolean[] = [];
    const checks: CheckDef[] = [
      {
        test: 'first',
        header: '',
        run: () => {
          // A callback of the next turn (as a socket's data or a timer would be).
          setImmediate(() => {
            turned = true;
          });
          seen.push(turned);
          return outcome('first');
        },
      },
      {
        test: 'second',
        header: '',
        run: () => {
          seen.push(turned);
          return outcome('second');
        },
      },
    ];
    await runChecks(input, checks);
    expect(seen).toEqual([false, true]);
  });

  test('a caller that gives up stops the checks at the next turn', async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const checks: CheckDef[] = ['a', 'b', 'c'].map((test) => ({
      test,
      header: '',
      run: () => {
        ran.push(test);
        if (test === 'b') controller.abort(new Error('client went away'));
        return outcome(test);
      },
    }));
    await expect(runChecks(input, checks, controller.signal)).rejects.toBeInstanceOf(AbortedError);
    expect(ran).toEqual(['a', 'b']);
  });
});
