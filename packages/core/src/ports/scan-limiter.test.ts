import { describe, expect, test } from 'vitest';
import { createScanLimiter } from './scan-limiter.js';

describe('createScanLimiter', () => {
  test('runs at most N at once, queues the next, refuses beyond the queue with 503 data', async () => {
    const limiter = createScanLimiter(2, 1);
    const gates: (() => void)[] = [];
    const task = () => new Promise<void>((resolve) => gates.push(resolve));
    const a = limiter.run(task);
    const b = limiter.run(task);
    const c = limiter.run(task);
    await new Promise((r) => setTimeout(r, 5));
    expect(limiter.active).toBe(2);
    expect(limiter.queued).toBe(1);
    await expect(limiter.run(task)).rejects.toMatchObject({
      code: 'UPSTREAM_THROTTLED',
      retryAfterS: 5,
    });
    gates.shift()?.();
    await a;
    await new Promise((r) => setTimeout(r, 5));
    expect(limiter.active).toBe(2);
    expect(limiter.queued).toBe(0);
    for (const open of gates.splice(0)) open();
    await b;
    await new Promise((r) => setTimeout(r, 5));
    for (const open of gates.splice(0)) open();
    await c;
    expect(limiter.active).toBe(0);
  });

  test('a queued scan leaves the queue when its caller goes away', async () => {
    const limiter = createScanLimiter(1, 4);
    let release: () => void = () => {};
    const first = limiter.run(() => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const second = limiter.run(async () => 'never', controller.signal);
    await new Promise((r) => setTimeout(r, 5));
    expect(limiter.queued).toBe(1);
    controller.abort();
    await expect(second).rejects.toBeDefined();
    expect(limiter.queued).toBe(0);
    release();
    await first;
  });
});
