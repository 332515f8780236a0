/**
 * The built server's start-up lines and warnings reach stdout when they happen, not when 4 KiB of
 * access log has piled up (issue 20).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prerequisite } from '@netdiag/test-utils';
import { afterEach, describe, expect, test } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const built = prerequisite(
  'the built server (packages/http/dist)',
  existsSync(bin),
  'run `pnpm build` first',
);

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

/** Everything the child wrote on stdout so far. */
let stdout = '';

/** Resolves with stdout once `pattern` appears in it; rejects after `ms`. */
async function waitFor(pattern: RegExp, ms: number): Promise<string> {
  const deadline = Date.now() + ms;
  while (!pattern.test(stdout)) {
    if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms: ${stdout}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return stdout;
}

describe.skipIf(!built)('server logs are written when they happen', () => {
  test('the listening line and a "Redis unreachable" warning, while the server runs', async () => {
    child = spawn(process.execPath, [bin], {
      env: {
        PATH: process.env['PATH'],
        // CI's --throw-deprecation reaches the child (.ci/run).
        NODE_OPTIONS: process.env['NODE_OPTIONS'],
        PORT: '0',
        HOST: '127.0.0.1',
        // A closed loopback port: the Redis client warns that it cannot connect.
        REDIS_URL: 'redis://127.0.0.1:1',
        NETDIAG_TOR_EXIT_LIST_URL: 'http://127.0.0.1:9/tor',
        NETDIAG_BREACH_API_URL: 'http://127.0.0.1:9',
        NETDIAG_RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:9/dns.json',
        NETDIAG_WHOIS_SERVER: '127.0.0.1:9',
        NETDIAG_DNS_SERVERS: '127.0.0.1:9',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const out = await waitFor(/netdiag API listening/, 30_000);
    const line = out.split('\n').find((l) => l.includes('netdiag API listening')) ?? '';
    expect(JSON.parse(line)).toMatchObject({ msg: 'netdiag API listening' });
    const warned = await waitFor(/"level":40/, 10_000);
    expect(warned.split('\n').find((l) => l.includes('"level":40'))).toMatch(/redis/i);
  }, 60_000);
});
