/**
 * The packages as npm users get them: `pnpm pack` core, http, mcp and the CLI (pnpm rewrites the
 * workspace: ranges as npm would see them once published), install the four tarballs into an
 * empty folder with npm, outside the workspace, and use them from there: `npx netdiag --version`,
 * a lookup on the embedded data, and `netdiag serve` answering a request. This proves `files`,
 * `bin`, the dependencies and the data ship. Install scripts are not run (a dependency of
 * swagger-ui-dist has a telemetry postinstall).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '@netdiag/test-utils';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const built = ['core', 'http', 'mcp', 'cli'].every((p) =>
  existsSync(join(root, 'packages', p, 'dist', 'index.js')),
);
const dir = tempDir('netdiag-pack-');

function must(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 240_000,
  });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stderr}`);
  }
  return result.stdout;
}

test.skipIf(!built && process.env['CI'] !== 'true')(
  'npm pack + npm install of the four packages: netdiag runs, looks up and serves',
  { timeout: 300_000 },
  async () => {
    const tarballs = join(dir, 'tarballs');
    for (const name of ['core', 'http', 'mcp', 'cli']) {
      must(
        'npx',
        ['--yes', 'pnpm@10', 'pack', '--pack-destination', tarballs],
        join(root, 'packages', name),
      );
    }
    const files = readdirSync(tarballs).map((f) => join(tarballs, f));
    expect(files).toHaveLength(4);
    const app = join(dir, 'app');
    must('mkdir', ['-p', app], dir);
    writeFileSync(join(app, 'package.json'), '{"name":"uses-netdiag","private":true}\n');
    must('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', ...files], app);
    // Nothing resolves back into the workspace.
    expect(existsSync(join(app, 'node_modules', '@netdiag', 'core', 'src'))).toBe(false);

    const version = must('npx', ['--offline', 'netdiag', '--version'], app).trim();
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);

    const lookup = JSON.parse(
      must('npx', ['--offline', 'netdiag', 'lookup', '8.8.8.8', '--json'], app),
    ) as { ip: string; network: { asn: number }; location: { country: string } };
    expect(lookup).toMatchObject({
      ip: '8.8.8.8',
      network: { asn: 15169 },
      location: { country: 'US' },
    });

    const server = spawn(
      join(app, 'node_modules', '.bin', 'netdiag'),
      ['serve', '--port', '0', '--host', '127.0.0.1'],
      {
        cwd: app,
        env: { ...process.env, NETDIAG_LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        server.stderr.on('data', (chunk) => {
          text += chunk;
          const found = /listening on (http:\/\/\S+)/.exec(text);
          if (found) resolve(found[1] as string);
        });
        server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${text}`)));
      });
      const res = await fetch(`${url}/api/lookup?ip=1.1.1.1`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { network: { asn: number } } }).data.network.asn).toBe(
        13335,
      );
    } finally {
      server.kill('SIGTERM');
    }
  },
);
