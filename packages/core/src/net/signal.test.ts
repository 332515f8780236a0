/**
 * `whenAborted`: every waiter on one signal behind a single 'abort' listener, removed after the
 * last; and a resolver with dozens of queries in flight under one signal stays under Node's
 * listener limit (it warned "possible memory leak" at 11).
 */
import { getEventListeners } from 'node:events';
import { startDnsServer } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { AbortedError } from '../errors.js';
import { createResolver } from './resolver.js';
import { raceAbort, whenAborted } from './signal.js';

const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

describe('whenAborted', () => {
  test('one listener for any number of waiters, gone after the last stops', () => {
    const controller = new AbortController();
    const stops = Array.from({ length: 50 }, () => whenAborted(controller.signal, () => {}));
    expect(listeners(controller.signal)).toBe(1);
    for (const stop of stops.slice(1)) stop();
    expect(listeners(controller.signal)).toBe(1);
    stops[0]?.();
    expect(listeners(controller.signal)).toBe(0);
    // Stopping twice changes nothing; a new waiter adds the listener again.
    stops[0]?.();
    const again = whenAborted(controller.signal, () => {});
    expect(listeners(controller.signal)).toBe(1);
    again();
    expect(listeners(controller.signal)).toBe(0);
  });

  test('an abort calls each waiter still waiting once, in order, then nothing is left', () => {
    const controller = new AbortController();
    const called: number[] = [];
    const shared = () => called.push(9);
    const stops = [0, 1, 2, 3].map((n) => whenAborted(controller.signal, () => called.push(n)));
    whenAborted(controller.signal, shared);
    whenAborted(controller.signal, shared); // the same function twice: two waiters
    stops[1]?.();
    controller.abort();
    controller.abort();
    expect(called).toEqual([0, 2, 3, 9, 9]);
    expect(listeners(controller.signal)).toBe(0);
    for (const stop of stops) stop(); // after the abort: harmless
  });

  test('raceAbort leaves no listener behind, settled or aborted', async () => {
    const controller = new AbortController();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => raceAbort(Promise.resolve(i), controller.signal)),
    );
    expect(listeners(controller.signal)).toBe(0);
    const pending = raceAbort(new Promise(() => {}), controller.signal);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    expect(listeners(controller.signal)).toBe(0);
  });
});

test('50 queries in flight under one signal: one listener, no warning', async () => {
  const server = await startDnsServer({
    zone: Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`n${i}.example.test`, { A: ['192.0.2.1'] }]),
    ),
  });
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    const resolver = createResolver({ servers: [server.address], cache: false });
    const controller = new AbortController();
    let most = 0;
    const queries = Array.from({ length: 50 }, (_, i) => {
      const query = resolver.query(`n${i}.example.test`, 'A', { signal: controller.signal });
      most = Math.max(most, listeners(controller.signal));
      return query;
    });
    const answers = await Promise.all(queries);
    expect(answers.map((a) => a.answers.map((r) => r.data))).toEqual(
      queries.map(() => ['192.0.2.1']),
    );
    expect(most).toBe(1);
    expect(listeners(controller.signal)).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  } finally {
    process.off('warning', onWarning);
    await server.close();
  }
});
