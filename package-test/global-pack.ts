/**
 * vitest global setup of `pnpm test:package`: runs `pnpm start`'s build step (`pnpm build:js`)
 * over the workspace, then packs the four packages (each `prepack` builds what it ships) and
 * installs them with npm, as a user would, into one empty project per package holding that
 * package and the workspace packages it depends on. Install scripts are not run: the tests
 * list them instead. This is the one step that needs the npm registry; `pnpm test` is offline.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  declarationFiles,
  must,
  PACKAGES,
  type PackageFolder,
  packageJson,
  ROOT,
} from './packages.js';

export interface Packed {
  /** The tarball of each package. */
  tarballs: Record<PackageFolder, string>;
  /** The project each package is installed in (with the workspace packages it depends on). */
  projects: Record<PackageFolder, string>;
  /** The declaration files in each package's dist/ before and after `pnpm build:js`. */
  declarationsBeforeStart: Record<PackageFolder, string[]>;
  declarationsAfterStart: Record<PackageFolder, string[]>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    packed: Packed;
  }
}

const PNPM = ['--yes', 'pnpm@10'];

function declarationsInDist(): Record<PackageFolder, string[]> {
  const found = {} as Record<PackageFolder, string[]>;
  for (const folder of PACKAGES) {
    found[folder] = declarationFiles(packageJson(folder)).filter((file) =>
      existsSync(join(ROOT, 'packages', folder, file)),
    );
  }
  return found;
}

/** `folder` and the workspace packages it depends on (optional ones too: npm installs them). */
function closure(folder: PackageFolder, into = new Set<PackageFolder>()): Set<PackageFolder> {
  into.add(folder);
  const pkg = packageJson(folder);
  const names = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies });
  for (const other of PACKAGES) {
    if (!into.has(other) && names.includes(packageJson(other).name)) closure(other, into);
  }
  return into;
}

/** Runs `step` and logs how long it took (the step's figures in the run's output). */
function timed(name: string, step: () => unknown): void {
  const started = performance.now();
  step();
  console.log(`package step: ${name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-package-'));
  try {
    project.provide('packed', packAndInstall(dir));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return () => rmSync(dir, { recursive: true, force: true });
}

function packAndInstall(dir: string): Packed {
  // Without the variable that turns declarations off: the packing must not depend on it.
  const env = { ...process.env };
  delete env['NETDIAG_BUILD_DTS'];

  const declarationsBeforeStart = declarationsInDist();
  timed('pnpm build:js', () => must('npx', [...PNPM, 'build:js'], ROOT, env));
  const declarationsAfterStart = declarationsInDist();

  const tarballDir = join(dir, 'tarballs');
  const tarballs = {} as Record<PackageFolder, string>;
  for (const folder of PACKAGES) {
    const before = new Set(existsSync(tarballDir) ? readdirSync(tarballDir) : []);
    timed(`pnpm pack (${folder})`, () =>
      must(
        'npx',
        [...PNPM, 'pack', '--pack-destination', tarballDir],
        join(ROOT, 'packages', folder),
        env,
      ),
    );
    const made = readdirSync(tarballDir).filter((name) => !before.has(name));
    if (made.length !== 1) throw new Error(`pnpm pack in ${folder} made ${made.join(', ')}`);
    tarballs[folder] = join(tarballDir, made[0] as string);
  }

  // A TypeScript project for Node has @types/node; the version the workspace builds with.
  const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const typesNode = `@types/node@${rootPackage.devDependencies['@types/node']}`;
  const projects = {} as Record<PackageFolder, string>;
  for (const folder of PACKAGES) {
    const app = join(dir, `uses-${folder}`);
    mkdirSync(app);
    writeFileSync(
      join(app, 'package.json'),
      `${JSON.stringify({ name: `uses-${folder}`, private: true, type: 'module' })}\n`,
    );
    const files = [...closure(folder)].map((name) => tarballs[name]);
    timed(`npm install (uses-${folder})`, () =>
      must(
        'npm',
        ['install', '--ignore-scripts', '--no-audit', '--no-fund', ...files, typesNode],
        app,
      ),
    );
    const kib = Number(must('du', ['-sk', 'node_modules'], app).split('\t')[0]);
    console.log(`package step: uses-${folder}/node_modules ${(kib / 1024).toFixed(0)} MiB`);
    projects[folder] = app;
  }

  return { tarballs, projects, declarationsBeforeStart, declarationsAfterStart };
}
