import net from 'node:net';
import { freePort } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FilteredPort, startFilteredPort } from '../../../../test-utils/src/filtered-port.js';
import { connectScan, type ProbeResult } from './connect-scan.js';

const HOST = '127.0.0.3';

describe('connectScan', () => {
  const servers: net.Server[] = [];
  let open: number[];
  let closed: number[];
  let filtered: FilteredPort;
  let accepted = 0;
  beforeAll(async () => {
    for (let i = 0; i < 4; i++) {
      const server = net.createServer((socket) => {
        accepted++;
        socket.destroy();
      });
      await new Promise<void>((r) => server.listen(0, HOST, r));
      servers.push(server);
    }
    open = servers.map((s) => (s.address() as net.AddressInfo).port);
    closed = [];
    while (closed.length < 40) {
      const port = await freePort(HOST);
      if (!open.includes(port) && !closed.includes(port)) closed.push(port);
    }
    filtered = await startFilteredPort(HOST);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    await filtered.close();
  });

  test('each port gets its state, in the order asked, with a latency unless filtered', async () => {
    const ports = [closed[0], open[0], filtered.port, ...closed.slice(1), ...open.slice(1)].map(
      Number,
    );
    const seen: number[] = [];
    const results = await connectScan(HOST, ports, {
      timeout: 300,
      concurrency: 8,
      onResult: (index) => seen.push(index),
    });
    expect(results).toHaveLength(ports.length);
    expect(seen.sort((a, b) => a - b)).toEqual(ports.map((_, i) => i));
    ports.forEach((port, i) => {
      const result = results[i];
      if (open.includes(port)) expect(result?.state).toBe('open');
      else if (port === filtered.port)
        expect(result).toEqual({ state: 'filtered', latencyMs: null });
      else expect(result?.state).toBe('closed');
      if (result?.state !== 'filtered') expect(result?.latencyMs).toBeGreaterThanOrEqual(0);
    });
  });

  test('the filtered port costs one timeout while the others go on', async () => {
    const started = performance.now();
    const results = await connectScan(HOST, [filtered.port, ...closed], {
      timeout: 250,
      concurrency: 2,
    });
    const elapsed = performance.now() - started;
    expect(results[0]?.state).toBe('filtered');
    expect(results.slice(1).map((r) => r.state)).toEqual(closed.map(() => 'closed'));
    expect(elapsed).toBeGreaterThanOrEqual(240);
    expect(elapsed).toBeLessThan(2_000);
  });

  test('a late event loop does not turn answered ports into filtered ones', async () => {
    // The probes start in the check phase and the loop is then held past the deadline: the
    // refusals are in, and the next loop turn finds the timer due before it delivers them.
    // Answers that are in when the deadline is looked at count.
    const ports = [open[0], ...closed.slice(0, 6)].map(Number);
    const results = await new Promise<ProbeResult[]>((resolve) =>
      setImmediate(() => {
        const scan = connectScan(HOST, ports, { timeout: 100, concurrency: 8 });
        const until = performance.now() + 400;
        while (performance.now() < until) {
          // Busy: what a descheduled process or a long synchronous job does to the loop.
        }
        resolve(scan);
      }),
    );
    expect(results.map((r) => r.state)).toEqual(['open', ...ports.slice(1).map(() => 'closed')]);
  });

  test('no more than `concurrency` probes are in flight: silent ports go in waves', async () => {
    // Nine probes of a port that never answers, three at a time: three waves of one timeout
    // each. Unbounded, all nine would expire together after one timeout.
    const ports = Array.from({ length: 9 }, () => filtered.port);
    const timed = async (concurrency: number) => {
      const started = performance.now();
      const results = await connectScan(HOST, ports, { timeout: 150, concurrency });
      expect(results.every((r) => r.state === 'filtered')).toBe(true);
      return performance.now() - started;
    };
    const waves = await timed(3);
    expect(waves).toBeGreaterThanOrEqual(3 * 150 - 10);
    expect(waves).toBeLessThan(4 * 150 + 500);
    const together = await timed(9);
    // One timeout and scheduling; still clearly short of the three waves above (≥ 440 ms).
    expect(together).toBeLessThan(400);
  });

  test('an abort ends the scan at once; unstarted and pending ports are filtered', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 60);
    const started = performance.now();
    const results = await connectScan(HOST, [filtered.port, filtered.port, ...closed], {
      timeout: 5_000,
      concurrency: 2,
      signal: controller.signal,
    });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(results[0]?.state).toBe('filtered');
    expect(results[1]?.state).toBe('filtered');
    expect(results.slice(2).every((r) => r.state === 'filtered')).toBe(true);
  });

  test('an already aborted signal probes nothing', async () => {
    const before = accepted;
    const results = await connectScan(HOST, open, {
      timeout: 1_000,
      concurrency: 4,
      signal: AbortSignal.abort(),
    });
    expect(results.map((r) => r.state)).toEqual(open.map(() => 'filtered'));
    await new Promise((r) => setTimeout(r, 30));
    expect(accepted).toBe(before);
  });

  test('IPv6 loopback', async () => {
    const server = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '::1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const closedPort = await freePort('::1');
      const results = await connectScan('::1', [port, closedPort], {
        timeout: 1_000,
        concurrency: 2,
      });
      expect(results.map((r) => r.state)).toEqual(['open', 'closed']);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
