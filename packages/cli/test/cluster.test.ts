import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort, prerequisite } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';

// node:cluster re-runs the entry script in each worker, so this runs the built CLI (CI builds
// before it tests). Without a build it says so and skips.
const bin = fileURLToPath(new URL('../bin.js', import.meta.url));
const built = prerequisite(
  'the built CLI (packages/cli/dist)',
  existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url))),
  'run `pnpm build` first',
);

describe.skipIf(!built)('netdiag serve --workers', () => {
  test('two workers without Redis still enforce one limit per client', async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [bin, 'serve', '--workers', '2', '--port', String(port), '--host', '127.0.0.1'],
      {
        env: { ...process.env, NETDIAG_RATE_LIMIT: '5', NETDIAG_LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'ignore', 'pipe'],
        // Its own process group, so the workers die with it if shutdown ever hangs.
        detached: true,
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    try {
      // Up to 30 s: in a fresh temp directory each worker first builds the IP lookup tables.
      for (let i = 0; i < 1200 && !stderr.includes('listening'); i++)
        await new Promise((r) => setTimeout(r, 25));
      expect(stderr).toContain('(2 workers)');
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        // A new connection each time, so the primary's round robin spreads them over both workers.
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/headers`, {
          headers: { connection: 'close' },
        });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    } finally {
      const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (code) => resolve(code)),
      );
      child.kill('SIGTERM');
      const hung = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), 8_000);
      const code = await exited;
      clearTimeout(hung);
      expect(code).toBe(0);
    }
  }, 60_000);
});
