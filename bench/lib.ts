/**
 * Benchmark helpers: child-process servers (so the load generator does not share their event
 * loop), autocannon runs, and table formatting. Everything stays on loopback.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import autocannon from 'autocannon';

installNetworkGuard();

/** Upstream URLs for child servers: a closed loopback port, so nothing leaves the machine. */
const LOOPBACK_UPSTREAMS = {
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

/** Forks `script` (which must send `{ url }` over IPC once listening). */
export async function startChild(
  script: string,
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const child = fork(script, [], {
    // Every default upstream points at a closed loopback port unless the caller says otherwise.
    env: { ...LOOPBACK_UPSTREAMS, ...process.env, ...env },
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

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
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
