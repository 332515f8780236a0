/**
 * The five published packages as the package step sees them: where they live, what their
 * package.json names, and a command runner that says what failed.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Folder names under packages/, dependencies first (each `prepack` builds declarations against the ones before it). */
export const PACKAGES = ['core', 'ip-data', 'mcp', 'http', 'cli'] as const;
export type PackageFolder = (typeof PACKAGES)[number];

export interface PackageJson {
  name: string;
  version: string;
  exports: Record<string, string | { types?: string; default?: string }>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
}

export function packageJson(folder: PackageFolder): PackageJson {
  return JSON.parse(readFileSync(join(ROOT, 'packages', folder, 'package.json'), 'utf8'));
}

/** The import specifiers of a package's entries (`exports`, without `./package.json`). */
export function entries(pkg: PackageJson): string[] {
  return Object.keys(pkg.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));
}

/** The `.d.ts` files a package's `exports` point at, as paths inside the package. */
export function declarationFiles(pkg: PackageJson): string[] {
  return Object.values(pkg.exports)
    .map((target) => (typeof target === 'string' ? undefined : target.types))
    .filter((path): path is string => path !== undefined)
    .map((path) => path.replace(/^\.\//, ''));
}

/** Runs a command; throws with its output when it exits non-zero. Returns stdout. */
export function must(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env,
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}
