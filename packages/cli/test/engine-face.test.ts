/**
 * The CLI is a face over the engine: it reads only the engine's configuration, prints only the
 * answer on stdout, loads no server code and fetches no feed unless asked.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type DnsTestServer,
  type HttpTarget,
  startDnsServer,
  startHttpTarget,
  tempDir,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXIT, run } from '../src/index.js';
import { captureIO } from './helpers.js';

const bin = fileURLToPath(new URL('../bin.js', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)));
const dir = tempDir('netdiag-cli-face-');
let dns: DnsTestServer;
let tor: HttpTarget;
let torRequests = 0;
beforeAll(async () => {
  dns = await startDnsServer({ zone: { 'example.test': { A: ['192.0.2.10'] } } });
  tor = await startHttpTarget({
    routes: {
      '/tor': (_req, res) => {
        torRequests++;
        res.writeHead(200, { 'content-type': 'text/plain' }).end('8.8.8.8\n');
      },
    },
  });
});
afterAll(async () => {
  await Promise.all([dns.close(), tor.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('the CLI over the engine', () => {
  test('a server-only variable with a bad value does not stop a DNS query', async () => {
    const cap = captureIO({
      NETDIAG_DNS_SERVERS: dns.address,
      NETDIAG_RATE_LIMIT: 'abc',
      PORT: 'eighty',
      NETDIAG_METRICS: 'maybe',
    });
    expect(await run(['dns', 'example.test', '--json'], cap.io)).toBe(EXIT.ok);
    expect(JSON.parse(cap.stdout()).records[0].data).toBe('192.0.2.10');
  });

  test('an engine variable with a bad value is bad input naming it', async () => {
    const cap = captureIO({ NETDIAG_DNS_SERVERS: 'not-an-address' });
    expect(await run(['dns', 'example.test'], cap.io)).toBe(EXIT.badInput);
    expect(cap.stderr()).toMatch(/NETDIAG_DNS_SERVERS/);
  });

  test.skipIf(!built && process.env['CI'] !== 'true')(
    'built: `lookup --json` prints only JSON, loads no server module and fetches no feed',
    () => {
      expect(built, 'run `pnpm build` first: this test runs the built CLI').toBe(true);
      // Every module the process resolves is written to a file by a resolve hook.
      const seen = join(dir, 'modules.txt');
      const hook = join(dir, 'hook.mjs');
      writeFileSync(
        hook,
        `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  appendFileSync(${JSON.stringify(seen)}, specifier + '\\n');
  return next(specifier, context);
}`,
      );
      const register = join(dir, 'register.mjs');
      writeFileSync(
        register,
        `import { register } from 'node:module'; import { pathToFileURL } from 'node:url';
register(pathToFileURL(${JSON.stringify(hook)}));`,
      );
      const before = torRequests;
      const result = spawnSync(
        process.execPath,
        ['--import', register, bin, 'lookup', '8.8.8.8', '--json'],
        {
          encoding: 'utf8',
          env: {
            PATH: process.env['PATH'],
            // CI's --throw-deprecation reaches the child (.ci/run).
            NODE_OPTIONS: process.env['NODE_OPTIONS'],
            NETDIAG_CACHE_DIR: dir,
            NETDIAG_TOR_EXIT_LIST_URL: `${tor.url}/tor`,
            NETDIAG_DNS_SERVERS: dns.address,
          },
          timeout: 60_000,
        },
      );
      expect(result.status, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ ip: '8.8.8.8', network: { asn: 15169 } });
      expect(result.stdout.trim().split('\n')).toHaveLength(1);
      expect(torRequests).toBe(before);
      const modules = readFileSync(seen, 'utf8').split('\n');
      expect(modules.some((m) => m.includes('@netdiag/core'))).toBe(true);
      for (const server of ['@netdiag/http', 'express', 'pino', 'redis', 'prom-client']) {
        expect(modules.filter((m) => m === server || m.startsWith(`${server}/`))).toEqual([]);
      }
    },
    60_000,
  );
});
