import { describe, expect, test } from 'vitest';
import { createRateGate } from './rate-gate.js';

function clock(start = 1_000_000) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

describe('createRateGate', () => {
  test('spaces requests to 2 per second (plus margin)', () => {
    const c = clock();
    const gate = createRateGate({ now: c.now, marginMs: 100 });
    expect(gate.reserve()).toBe(0);
    expect(gate.reserve()).toBe(0);
    expect(gate.reserve()).toBe(1100);
    expect(gate.reserve()).toBe(1100);
    expect(gate.reserve()).toBe(2200);
  });

  test('no window ever holds more than its limit', () => {
    const c = clock();
    const limits = [
      { limit: 2, windowMs: 1000 },
      { limit: 5, windowMs: 10_000 },
    ];
    const gate = createRateGate({ now: c.now, limits, marginMs: 0, maxWaitMs: 1e9 });
    const times: number[] = [];
    for (let i = 0; i < 40; i++) {
      times.push(c.now() + gate.reserve());
      c.advance(137);
    }
    for (const { limit, windowMs } of limits) {
      for (const t of times) {
        expect(times.filter((u) => u > t - windowMs && u <= t).length).toBeLessThanOrEqual(limit);
      }
    }
  });

  test('refuses with the wait in seconds when the queue is too long', () => {
    const c = clock();
    const gate = createRateGate({ now: c.now, maxWaitMs: 3000, marginMs: 0 });
    for (let i = 0; i < 8; i++) gate.reserve(); // slots at 0,0,1s,1s,2s,2s,3s,3s
    expect(() => gate.reserve()).toThrow(
      expect.objectContaining({
        code: 'UPSTREAM_THROTTLED',
        retryAfterS: 4,
        message:
          "netdiag's own limit on breach checks is reached (at most 2 a second, 25 an hour, " +
          "100 a day, to stay within the breach service's limits per client); nothing was sent " +
          'to it; retry in 4 s',
      }),
    );
    c.advance(1000);
    expect(gate.reserve()).toBe(3000);
  });

  test('the daily budget is refused until the oldest request leaves the window', () => {
    const c = clock();
    const gate = createRateGate({
      now: c.now,
      limits: [{ limit: 3, windowMs: 86_400_000 }],
      marginMs: 0,
    });
    for (let i = 0; i < 3; i++) {
      expect(gate.reserve()).toBe(0);
      c.advance(60_000);
    }
    expect(() => gate.reserve()).toThrow(expect.objectContaining({ retryAfterS: 86_400 - 180 }));
    c.advance(86_400_000 - 180_000);
    expect(gate.reserve()).toBe(0);
  });

  test('after a 429 nothing goes out until Retry-After has passed', () => {
    const c = clock();
    const gate = createRateGate({ now: c.now, maxWaitMs: 3000 });
    gate.block(30);
    expect(() => gate.reserve()).toThrow(
      expect.objectContaining({
        retryAfterS: 30,
        message: '[netdiag] [breach] the upstream is rate limiting us; retry in 30 s',
      }),
    );
    c.advance(28_000);
    expect(gate.reserve()).toBe(2000);
  });
});
