/**
 * The served OpenAPI document, and the linters and client generators that read it: this
 * package's devDependencies, run as child processes with the installed copies only. Nothing is
 * fetched: the document is a local file, and Redocly's telemetry (a DNS lookup of its host on
 * every run) is turned off.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { type CreateAppOptions, createApp } from '../src/app.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** `GET /api/openapi.json` of an app made by the app factory, as a client sees it. */
export async function servedDocument(options: CreateAppOptions = {}): Promise<OpenApiDocument> {
  const app = createApp({ logLevel: 'silent', env: false, ...options });
  const res = await request(app).get('/api/openapi.json');
  await app.locals.netdiag.engine.close();
  if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
  return res.body as OpenApiDocument;
}

export interface OpenApiOperation {
  operationId: string;
  parameters: { name: string; in: 'path' | 'query' }[];
  requestBody?: unknown;
  description?: string;
  responses: Record<string, { $ref?: string; content?: Record<string, unknown> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { responses: Record<string, { content?: Record<string, unknown> }> };
}

/** The script a package installs as `name` (its `bin` entry). */
function binOf(pkg: string, name: string): string {
  const dir = join(PACKAGE_DIR, 'node_modules', pkg);
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    bin: string | Record<string, string>;
  };
  return join(dir, typeof bin === 'string' ? bin : (bin[name] as string));
}

export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a devDependency's command with this Node in `cwd` (a `tempDir`); resolves whatever its
 * exit code. Its temporary files (the generators' module cache) go to `cwd/tmp`, removed with it.
 */
export function runTool(pkg: string, name: string, args: string[], cwd: string): Promise<ToolRun> {
  const tmp = join(cwd, 'tmp');
  mkdirSync(tmp, { recursive: true });
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [binOf(pkg, name), ...args],
      {
        cwd,
        env: {
          ...process.env,
          TMPDIR: tmp,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        },
        maxBuffer: 64 * 1024 * 1024,
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Where a devDependency is installed (for a generated client that imports it). */
export function packageDir(pkg: string): string {
  return join(PACKAGE_DIR, 'node_modules', pkg);
}
