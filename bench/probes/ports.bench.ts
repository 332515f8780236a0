/**
 * Port scan speed, same run, same ports, loopback only (127.0.0.1):
 * 1. 100 ports (10 open listeners, 90 closed): netdiag `scanPorts` vs `nmap -sT -Pn -n` on the
 *    same list, median of ROUNDS wall-clock runs each; the states are compared too.
 * 2. 1,000 ports (20 open, 980 closed), the issue-22 case: `scanPorts` in-process and the
 *    `netdiag ports` CLI as a process, against `nmap -sT -Pn -n` (process wall), interleaved.
 * 3. The filtered-port path: ports whose SYNs are dropped (a stopped listener with a full
 *    accept queue, test-utils/filtered-port.ts) are bounded by the per-port timeout.
 * nmap comes from apt (`apt-get install -y nmap`); without it the nmap rows are skipped.
 * Run: npx tsx bench/probes/ports.bench.ts   (BENCH_ROUNDS to change the rounds)
 */
// First: re-runs this bench on the built packages when started on the sources (see built.ts).
import '../built.js';
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { scanPorts } from '@netdiag/core';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import { type FilteredPort, startFilteredPort } from '../../test-utils/src/filtered-port.js';

installNetworkGuard();

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const HOST = '127.0.0.1';
const allowedTargets = ['127.0.0.1/32'];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

function nmapAvailable(): boolean {
  return spawnSync('nmap', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Runs nmap once; returns wall time and the open ports it found. */
function runNmap(
  ports: number[],
  extra: string[] = [],
): { ms: number; selfMs: number; open: number[]; filtered: number[] } {
  const started = performance.now();
  const result = spawnSync(
    'nmap',
    ['-sT', '-Pn', '-n', ...extra, '-oG', '-', '-p', ports.join(','), HOST],
    {
      encoding: 'utf8',
    },
  );
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`nmap failed: ${result.stderr}`);
  const line = result.stdout.split('\n').find((l) => l.includes('Ports:')) ?? '';
  const entries = line.replace(/^.*Ports: /, '').split(/,\s*/);
  const pick = (state: string) =>
    entries
      .filter((e) => e.split('/')[1] === state)
      .map((e) => Number(e.split('/')[0]))
      .sort((a, b) => a - b);
  // nmap's own figure ("scanned in 0.05 seconds") leaves out process start-up.
  const self = /scanned in ([\d.]+) seconds/.exec(result.stdout);
  return {
    ms,
    selfMs: self ? Number(self[1]) * 1000 : Number.NaN,
    open: pick('open'),
    filtered: pick('filtered'),
  };
}

async function freePorts(count: number, avoid: Set<number>): Promise<number[]> {
  const out: number[] = [];
  while (out.length < count) {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, HOST, r));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((r) => server.close(r));
    if (!avoid.has(port) && !out.includes(port)) out.push(port);
  }
  return out;
}

const listeners: net.Server[] = [];
for (let i = 0; i < 10; i++) {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, HOST, r));
  listeners.push(server);
}
const openPorts = listeners.map((s) => (s.address() as net.AddressInfo).port).sort((a, b) => a - b);
const closedPorts = await freePorts(90, new Set(openPorts));
const ports = [...openPorts, ...closedPorts].sort((a, b) => a - b);

const hasNmap = nmapAvailable();
const rows: string[] = [];
const netdiagTimes: number[] = [];
const nmapTimes: number[] = [];
const nmapT4Times: number[] = [];
const nmapSelfTimes: number[] = [];
let agree = true;
for (let round = 0; round < ROUNDS; round++) {
  const started = performance.now();
  const result = await scanPorts({ host: HOST, ports }, { allowedTargets, concurrency: 100 });
  netdiagTimes.push(performance.now() - started);
  if (JSON.stringify(result.open_ports) !== JSON.stringify(openPorts) || result.closed_count !== 90)
    agree = false;
  if (hasNmap) {
    const nmap = runNmap(ports);
    nmapTimes.push(nmap.ms);
    nmapSelfTimes.push(nmap.selfMs);
    if (JSON.stringify(nmap.open) !== JSON.stringify(openPorts)) agree = false;
    nmapT4Times.push(runNmap(ports, ['-T4']).ms);
  }
}
rows.push(
  '| scanner (100 ports: 10 open, 90 closed) | median wall ms | min | max |',
  '|---|---:|---:|---:|',
);
const row = (name: string, times: number[]) =>
  rows.push(
    `| ${name} | ${median(times).toFixed(1)} | ${Math.min(...times).toFixed(1)} | ${Math.max(...times).toFixed(1)} |`,
  );
row('netdiag scanPorts (concurrency 100, in-process)', netdiagTimes);
row(
  'netdiag scanPorts default concurrency 50',
  await (async () => {
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      await scanPorts({ host: HOST, ports }, { allowedTargets });
      times.push(performance.now() - started);
    }
    return times;
  })(),
);
if (hasNmap) {
  row('nmap -sT -Pn -n (process wall time)', nmapTimes);
  row('nmap -sT -Pn -n (its own "scanned in", 10 ms resolution)', nmapSelfTimes);
  row('nmap -sT -Pn -n -T4 (process wall time)', nmapT4Times);
}
rows.push(
  '',
  `States agree with the listeners${hasNmap ? ' and with nmap' : ''}: ${agree ? 'yes' : 'NO'}`,
);

// --- 1,000 ports ---
const wideListeners: net.Server[] = [];
for (let i = 0; i < 20; i++) {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((r) => server.listen(0, HOST, r));
  wideListeners.push(server);
}
const wideOpen = wideListeners
  .map((s) => (s.address() as net.AddressInfo).port)
  .sort((a, b) => a - b);
const wideClosed = await freePorts(980, new Set([...wideOpen, ...openPorts]));
const widePorts = [...wideOpen, ...wideClosed].sort((a, b) => a - b);
const cli = new URL('../../packages/cli/bin.js', import.meta.url).pathname;
const wide: Record<string, number[]> = {};
const record = (name: string, ms: number) => {
  wide[name] ??= [];
  wide[name].push(ms);
};
let wideAgree = true;
const portsArg = widePorts.join(',');
for (let round = 0; round < ROUNDS; round++) {
  for (const concurrency of [50, 100, 200]) {
    const started = performance.now();
    const result = await scanPorts(
      { host: HOST, ports: widePorts },
      { allowedTargets, maxPorts: false, concurrency },
    );
    record(
      `netdiag scanPorts, concurrency ${concurrency} (in-process)`,
      performance.now() - started,
    );
    if (JSON.stringify(result.open_ports) !== JSON.stringify(wideOpen)) wideAgree = false;
  }
  const started = performance.now();
  const run = spawnSync(process.execPath, [cli, 'ports', HOST, '-p', portsArg, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, NETDIAG_ALLOW_PRIVATE: '1', NETDIAG_ALLOWED_TARGETS: '127.0.0.1/32' },
  });
  record('netdiag ports CLI (process wall, Node start included)', performance.now() - started);
  if (run.status !== 0) throw new Error(`netdiag ports failed: ${run.stderr}`);
  const cliOpen = (JSON.parse(run.stdout) as { open_ports: number[] }).open_ports;
  if (JSON.stringify(cliOpen) !== JSON.stringify(wideOpen)) wideAgree = false;
  if (hasNmap) {
    const nmap = runNmap(widePorts);
    record('nmap -sT -Pn -n (process wall)', nmap.ms);
    if (JSON.stringify(nmap.open) !== JSON.stringify(wideOpen)) wideAgree = false;
  }
}
rows.push(
  '',
  '| scanner (1,000 ports: 20 open, 980 closed) | median wall ms | min | max |',
  '|---|---:|---:|---:|',
);
for (const [name, times] of Object.entries(wide)) row(name, times);
rows.push('', `States agree (1,000 ports): ${wideAgree ? 'yes' : 'NO'}`);
for (const s of wideListeners) s.close();

// --- filtered path ---
const filtered: FilteredPort[] = [];
for (let i = 0; i < 5; i++) filtered.push(await startFilteredPort(HOST));
const filteredPorts = filtered.map((f) => f.port);
const mixed = [...filteredPorts, ...closedPorts.slice(0, 45), ...openPorts.slice(0, 5)].sort(
  (a, b) => a - b,
);
rows.push(
  '',
  '| filtered path (5 filtered + 45 closed + 5 open) | port timeout ms | wall ms | filtered found |',
  '|---|---:|---:|---:|',
);
for (const portTimeout of [250, 500, 1000, 1500]) {
  const started = performance.now();
  const result = await scanPorts({ host: HOST, ports: mixed }, { allowedTargets, portTimeout });
  rows.push(
    `| netdiag scanPorts | ${portTimeout} | ${(performance.now() - started).toFixed(1)} | ${result.filtered_count} |`,
  );
}
if (hasNmap) {
  const nmap = runNmap(mixed);
  rows.push(`| nmap -sT -Pn -n | (adaptive) | ${nmap.ms.toFixed(1)} | ${nmap.filtered.length} |`);
}
for (const f of filtered) await f.close();
for (const s of listeners) s.close();

console.log(rows.join('\n'));
