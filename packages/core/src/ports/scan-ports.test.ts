import net from 'node:net';
import { freePort, startDnsServer } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type FilteredPort, startFilteredPort } from '../../../../test-utils/src/filtered-port.js';
import { createResolver } from '../net/resolver.js';
import { defaultPorts, PORT_CATALOG } from './catalog.js';
import { parsePortList } from './port-list.js';
import { scanPorts } from './scan-ports.js';

const allowedTargets = ['127.0.0.2/32'];

/** Listening servers on 127.0.0.2 that count accepted connections. */
async function listen(count: number) {
  const servers: net.Server[] = [];
  let connections = 0;
  for (let i = 0; i < count; i++) {
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
    servers.push(server);
  }
  return {
    ports: servers.map((s) => (s.address() as net.AddressInfo).port),
    get connections() {
      return connections;
    },
    close: () => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))),
  };
}

describe('parsePortList', () => {
  test.each([
    ['22,80,8000-8003', [22, 80, 8000, 8001, 8002, 8003]],
    [' 443 , 80,80 ', [80, 443]],
    ['1-3,2-4', [1, 2, 3, 4]],
    ['65535', [65535]],
  ])('%j → %j', (input, expected) => {
    expect(parsePortList(input)).toEqual(expected);
  });
  test.each([
    ['', /empty/],
    ['0', /outside 1-65535/],
    ['65536', /outside 1-65535/],
    ['80-22', /runs backwards/],
    ['http', /invalid entry "http"/],
    ['1-101', /lists 101 ports; at most 100 per request/],
    ['22;80', /invalid entry/],
  ])('rejects %j', (input, message) => {
    expect(() => parsePortList(input)).toThrow(message);
  });
  test('no cap when maxPorts is false', () => {
    expect(parsePortList('1-65535', { maxPorts: false })).toHaveLength(65535);
  });
});

describe('catalog', () => {
  test('fits the API cap, unique ports, every entry described', () => {
    expect(PORT_CATALOG.length).toBeLessThanOrEqual(100);
    expect(new Set(defaultPorts()).size).toBe(PORT_CATALOG.length);
    for (const entry of PORT_CATALOG) {
      expect(entry.service).not.toBe('');
      expect(entry.risk.length).toBeGreaterThan(10);
    }
  });
  test.each([2375, 2376, 5432, 6379, 9200, 11211, 27017, 1883, 5672, 1521, 389, 636, 873])(
    'includes the risky low-ranked service on %i',
    (port) => {
      expect(defaultPorts()).toContain(port);
    },
  );
});

describe('scanPorts against loopback', () => {
  let open: Awaited<ReturnType<typeof listen>>;
  let closed: number[];
  let filtered: FilteredPort;
  beforeAll(async () => {
    open = await listen(3);
    closed = [await freePort('127.0.0.2'), await freePort('127.0.0.2')];
    filtered = await startFilteredPort('127.0.0.2');
  });
  afterAll(async () => {
    await open.close();
    await filtered.close();
  });

  test('open, closed and filtered with latency; every field', async () => {
    const progress: number[] = [];
    const result = await scanPorts(
      { host: '127.0.0.2', ports: [...open.ports, ...closed, filtered.port] },
      {
        allowedTargets,
        portTimeout: 300,
        onProgress: (done, total) => {
          expect(total).toBe(6);
          progress.push(done);
        },
        now: () => Date.parse('2026-11-21T10:00:00.000Z'),
      },
    );
    expect(result.host).toBe('127.0.0.2');
    expect(result.ip).toBe('127.0.0.2');
    expect(result.ports_scanned).toBe(6);
    expect(result.open_count).toBe(3);
    expect(result.closed_count).toBe(2);
    expect(result.filtered_count).toBe(1);
    expect(result.open_ports).toEqual([...open.ports].sort((a, b) => a - b));
    expect(result.accepts_everything).toBe(false);
    expect(result.note).toBeNull();
    expect(result.port_timeout_ms).toBe(300);
    expect(result.scanned_at).toBe('2026-11-21T10:00:00.000Z');
    expect(result.duration_ms).toBeGreaterThanOrEqual(250);
    expect(result.duration_ms).toBeLessThan(2_000);
    expect(progress.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    const byPort = new Map(result.results.map((r) => [r.port, r]));
    expect(result.results.map((r) => r.port)).toEqual(
      [...open.ports, ...closed, filtered.port].sort((a, b) => a - b),
    );
    for (const port of open.ports) {
      expect(byPort.get(port)).toMatchObject({ state: 'open' });
      expect(byPort.get(port)?.latency_ms).toBeGreaterThanOrEqual(0);
    }
    for (const port of closed) expect(byPort.get(port)?.state).toBe('closed');
    expect(byPort.get(filtered.port)).toMatchObject({ state: 'filtered', latency_ms: null });
  });

  test('catalog ports carry service and risk; others empty strings', async () => {
    const result = await scanPorts(
      { host: '127.0.0.2', ports: [6379, closed[0] as number] },
      { allowedTargets },
    );
    expect(result.results.find((r) => r.port === 6379)).toMatchObject({
      service: 'redis',
      risk_level: 'high',
    });
    const other = result.results.find((r) => r.port === closed[0]);
    if (!PORT_CATALOG.some((e) => e.port === closed[0])) {
      expect(other).toMatchObject({ service: '', risk_level: '', risk: '' });
    }
  });

  test('filtered ports are bounded by the per-port timeout, in parallel', async () => {
    const started = Date.now();
    const result = await scanPorts(
      { host: '127.0.0.2', ports: [filtered.port] },
      { allowedTargets, portTimeout: 200 },
    );
    expect(result.filtered_count).toBe(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test('a host that accepts everything is flagged', async () => {
    const many = await listen(12);
    try {
      const result = await scanPorts({ host: '127.0.0.2', ports: many.ports }, { allowedTargets });
      expect(result.open_count).toBe(12);
      expect(result.accepts_everything).toBe(true);
      expect(result.note).toMatch(/12 of 12 ports answered open/);
    } finally {
      await many.close();
    }
  });

  test('the 100-port cap applies unless lifted', async () => {
    await expect(
      scanPorts({ host: '127.0.0.2', ports: '1-200' }, { allowedTargets }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  test.each([
    '127.0.0.1',
    '127.1',
    '0x7f000002',
    '2130706434',
    '::1',
    '::ffff:127.0.0.2',
    '10.0.0.1',
    '169.254.169.254',
    'localhost',
  ])('blocked target %s: 403 reason and no connection', async (host) => {
    const before = open.connections;
    await expect(
      scanPorts(
        { host, ports: open.ports },
        { allowedTargets: host === '127.0.0.2' ? allowedTargets : [] },
      ),
    ).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
    expect(open.connections).toBe(before);
  });

  test('a host name is resolved once through the resolver and its address scanned', async () => {
    const dns = await startDnsServer({
      zone: { 'scan.fixture.test': { A: ['127.0.0.2'] }, 'bad.fixture.test': { A: ['127.0.0.1'] } },
    });
    try {
      const resolver = createResolver({ servers: [dns.address] });
      const result = await scanPorts(
        { host: 'Scan.Fixture.Test.', ports: open.ports },
        { allowedTargets, resolver },
      );
      expect(result).toMatchObject({ host: 'scan.fixture.test', ip: '127.0.0.2', open_count: 3 });
      const before = open.connections;
      await expect(
        scanPorts({ host: 'bad.fixture.test', ports: open.ports }, { allowedTargets, resolver }),
      ).rejects.toThrow('Target not allowed: bad.fixture.test resolves to 127.0.0.1');
      expect(open.connections).toBe(before);
    } finally {
      await dns.close();
    }
  });

  test('the caller signal stops the scan', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(
      scanPorts(
        { host: '127.0.0.2', ports: [filtered.port] },
        { allowedTargets, portTimeout: 5_000, signal: controller.signal },
      ),
    ).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
