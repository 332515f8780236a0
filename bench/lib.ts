/**
 * Benchmark helpers: child-process servers (so the load generator does not share their event
 * loop), autocannon runs, and table formatting. Everything stays on loopback.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import autocannon from 'autocannon';

installNetworkGuard();

/** Upstream URLs for child servers: a closed loopback port, so nothing leaves the machine. */
export const LOOPBACK_UPSTREAMS = {
  NETDIAG_TOR_EXIT_LIST_URL: 'http://127.0.0.1:9/torbulkexitlist',
  NETDIAG_BREACH_API_URL: 'http://127.0.0.1:9',
  NETDIAG_RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/dns.json',
  NETDIAG_WHOIS_SERVER: '127.0.0.1:9',
  NETDIAG_DNS_SERVERS: '127.0.0.1:9',
};

export interface ChildServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Child servers import the BUILT packages (each package's dist folder, as `netdiag serve` runs
 * them), not the TypeScript sources through tsx: tsx compiles with `keepNames`, which adds a
 * naming call to every closure the server creates per request (visible in CPU profiles).
 */
const BUILT = {
  TSX_TSCONFIG_PATH: fileURLToPath(new URL('./tsconfig.built.json', import.meta.url)),
};

function requireBuild(): void {
  for (const pkg of ['core', 'http']) {
    const entry = new URL(`../packages/${pkg}/dist/index.js`, import.meta.url);
    if (!existsSync(entry)) {
      throw new Error(`packages/${pkg} is not built: run "npx --yes pnpm@10 build" first`);
    }
  }
}

/** Forks `script` (which must send `{ url }` over IPC once listening). */
export async function startChild(
  script: string,
  env: Record<string, string> = {},
): Promise<ChildServer> {
  requireBuild();
  const child = fork(script, [], {
    // Every default upstream points at a closed loopback port unless the caller says otherwise.
    env: { ...LOOPBACK_UPSTREAMS, ...process.env, ...BUILT, ...env },
    // tsx for TypeScript, then the network guard before the script's own imports.
    execArgv: [
      '--import',
      import.meta.resolve('tsx'),
      '--import',
      import.meta.resolve('./child-guard.ts'),
    ],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** CPU time (user + system, all threads) a process has used so far, in microseconds. */
export async function cpuMicros(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / 100; // USER_HZ is 100 on Linux.
}

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Requests completed in the run. */
  total: number;
}

export async function load(name: string, options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ connections: 50, duration: 10, ...options });
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

export function table(rows: LoadResult[]): string {
  const lines = [
    '| server | req/s | p50 ms | p99 ms | errors | non-2xx |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows)
    lines.push(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} |`);
  return lines.join('\n');
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export interface MeasureRow {
  name: string;
  perSecond: number;
  p50: number;
  p99: number;
  /** Calls that threw (counted, timed, not retried). */
  errors: number;
}

/**
 * Runs `task` `count` times with `concurrency` calls in flight (after `warmup` sequential calls
 * for the JIT and sockets) and reports calls/second and latency percentiles in ms.
 */
export async function measure(
  name: string,
  count: number,
  concurrency: number,
  task: (i: number) => Promise<unknown>,
  { warmup = 20 }: { warmup?: number } = {},
): Promise<MeasureRow> {
  for (let i = 0; i < warmup; i++) await task(i);
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t = performance.now();
        try {
          await task(i);
        } catch {
          errors++;
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    name,
    perSecond: Math.round(count / elapsed),
    p50: Number(percentile(latencies, 50).toFixed(2)),
    p99: Number(percentile(latencies, 99).toFixed(2)),
    errors,
  };
}
