/**
 * The packages as npm users get them, used from the project global-pack.ts installed them in
 * (outside the workspace): `npx netdiag --version`, a lookup on the embedded data, and
 * `netdiag serve` answering an API request and serving `/docs` with Swagger UI's files from the
 * package. This proves `files`, `bin`, the dependencies and the data ship.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject, test } from 'vitest';
import { must } from './packages.js';

const app = inject('packed').projects.cli;

test('nothing resolves back into the workspace', () => {
  expect(existsSync(join(app, 'node_modules', '@netdiag', 'core', 'dist', 'index.js'))).toBe(true);
  expect(existsSync(join(app, 'node_modules', '@netdiag', 'core', 'src'))).toBe(false);
});

test('netdiag runs and looks up on the embedded data', () => {
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
});

test('@netdiag/core alone: small, no data package, and IP lookups name the package to install', () => {
  const core = inject('packed').projects.core;
  expect(existsSync(join(core, 'node_modules', '@netdiag', 'ip-data'))).toBe(false);
  expect(existsSync(join(core, 'node_modules', '@ip-location-db'))).toBe(false);
  const kib = Number(must('du', ['-sk', 'node_modules'], core).split('\t')[0]);
  expect(kib / 1024).toBeLessThanOrEqual(25);
  const out = must(
    'node',
    [
      '--input-type=module',
      '-e',
      "import('@netdiag/core').then(async (m) => { const dns = typeof m.lookupDns; try { await m.lookupIp('8.8.8.8'); console.log('answered'); } catch (e) { console.log(dns, e.code, e.message); } })",
    ],
    core,
  );
  expect(out).toMatch(/^function CONFIG_ERROR IP lookups need IP data: install @netdiag\/ip-data/);
  expect(out).toMatch(/NETDIAG_GEOIP_DB and NETDIAG_ASN_DB/);
});

test('netdiag serve answers the API and serves /docs from the package', async () => {
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
    // Swagger UI's files, copied into the package by its build (no swagger-ui-dist dependency).
    expect((await fetch(`${url}/docs`)).status).toBe(200);
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
      const asset = await fetch(`${url}/docs/assets/${file}`);
      expect(asset.status, file).toBe(200);
      expect((await asset.arrayBuffer()).byteLength, file).toBeGreaterThan(100_000);
    }
  } finally {
    server.kill('SIGTERM');
  }
});
