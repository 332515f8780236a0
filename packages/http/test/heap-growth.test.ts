/**
 * NETDIAG_HEAP_GROWTH_PERCENT: `startServer` hands V8 its heap growth factor (what it does to
 * memory under load is measured in bench/ip/http.bench.ts), unless node was started with one.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';

const setFlags = vi.hoisted(() => vi.fn());
vi.mock('node:v8', async (importOriginal) => ({
  ...(await importOriginal<typeof import('node:v8')>()),
  setFlagsFromString: setFlags,
}));

const { loadConfig } = await import('../src/config.js');
const { startQuietServer } = await import('./quiet-server.js');

const start = (heapGrowthPercent: number) => startQuietServer({ heapGrowthPercent });

const nodeOptions = process.env.NODE_OPTIONS;
afterEach(() => {
  setFlags.mockClear();
  if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = nodeOptions;
});

describe('heap growth', () => {
  test('read from NETDIAG_HEAP_GROWTH_PERCENT (default 30, 0 = V8 decides), bad values refused', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(30);
    expect(loadConfig({ NETDIAG_HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(loadConfig({ NETDIAG_HEAP_GROWTH_PERCENT: '75' }).heapGrowthPercent).toBe(75);
    expect(() => loadConfig({ NETDIAG_HEAP_GROWTH_PERCENT: 'lots' })).toThrow(
      /NETDIAG_HEAP_GROWTH_PERCENT/,
    );
    expect(() => loadConfig({ NETDIAG_HEAP_GROWTH_PERCENT: '-5' })).toThrow(
      /NETDIAG_HEAP_GROWTH_PERCENT/,
    );
  });

  test('startServer sets it, leaves V8 alone at 0 and when NODE_OPTIONS already says', async () => {
    const a = await start(45);
    await a.close();
    expect(setFlags).toHaveBeenCalledWith('--heap-growing-percent=45');

    setFlags.mockClear();
    const b = await start(0);
    await b.close();
    expect(setFlags).not.toHaveBeenCalled();

    process.env.NODE_OPTIONS = '--heap-growing-percent=80';
    const c = await start(30);
    await c.close();
    expect(setFlags).not.toHaveBeenCalled();
  }, 60_000);
});
