import { describe, expect, test } from 'vitest';
import { createDeadlineQueue } from './deadlines.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createDeadlineQueue', () => {
  test('fires each deadline once, in time order across lengths', async () => {
    const queue = createDeadlineQueue();
    const fired: string[] = [];
    const started = performance.now();
    const at: Record<string, number> = {};
    const mark = (name: string) => () => {
      fired.push(name);
      at[name] = performance.now() - started;
    };
    queue.add(60, mark('60a'));
    queue.add(20, mark('20a'));
    queue.add(60, mark('60b'));
    queue.add(40, mark('40a'));
    queue.add(20, mark('20b'));
    expect(queue.size).toBe(5);
    await sleep(120);
    expect(fired).toEqual(['20a', '20b', '40a', '60a', '60b']);
    for (const [name, ms] of Object.entries(at)) {
      expect(ms).toBeGreaterThanOrEqual(Number.parseInt(name, 10) - 1);
    }
    expect(queue.size).toBe(0);
  });

  test('a late timer still fires in deadline order across lengths', async () => {
    // The clock jumps past every deadline before the timer runs, as on a blocked event loop.
    let clock = 0;
    const queue = createDeadlineQueue(() => clock);
    const fired: number[] = [];
    queue.add(60, () => fired.push(60));
    queue.add(20, () => fired.push(20));
    queue.add(40, () => fired.push(40));
    queue.add(20, () => fired.push(21));
    clock = 1_000;
    await sleep(80);
    expect(fired).toEqual([20, 21, 40, 60]);
  });

  test('a cancelled deadline never fires, and cancelling twice is harmless', async () => {
    const queue = createDeadlineQueue();
    let fired = 0;
    const first = queue.add(10, () => fired++);
    queue.add(30, () => fired++);
    first.cancel();
    first.cancel();
    expect(queue.size).toBe(1);
    await sleep(60);
    expect(fired).toBe(1);
  });

  test('a deadline added from a firing one is honoured', async () => {
    const queue = createDeadlineQueue();
    const order: number[] = [];
    queue.add(10, () => {
      order.push(1);
      queue.add(10, () => order.push(3));
    });
    queue.add(15, () => order.push(2));
    await sleep(60);
    expect(order).toEqual([1, 2, 3]);
  });

  test('with everything cancelled no timer is left to keep the process alive', async () => {
    const queue = createDeadlineQueue();
    const handles = Array.from({ length: 100 }, (_, i) => queue.add(10_000 + i, () => {}));
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    for (const handle of handles) handle.cancel();
    const after = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    expect(after).toBe(before - 1);
    expect(queue.size).toBe(0);
  });

  test('thousands of deadlines cost one timer', () => {
    const queue = createDeadlineQueue();
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const handles = Array.from({ length: 5_000 }, (_, i) => queue.add(2_000 + (i % 3), () => {}));
    const during = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    expect(during - before).toBe(1);
    for (const handle of handles) handle.cancel();
  });
});
