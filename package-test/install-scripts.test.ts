/**
 * No install scripts in what a user installs: in each project global-pack.ts installed (with
 * scripts off), no package.json under node_modules has a `preinstall`, `install` or
 * `postinstall` script, nor a binding.gyp (npm runs `node-gyp rebuild` for those), but the
 * packages listed below with the reason. swagger-ui-dist brought @scarf/scarf, whose
 * postinstall reports the install to a third party (issue 44).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject, test } from 'vitest';
import { PACKAGES } from './packages.js';

/** Packages whose install script is accepted, with the reason. None today. */
const ALLOWED: Record<string, string> = {};

const HOOKS = ['preinstall', 'install', 'postinstall'];

/** Every package directory under `modules` (scopes and nested node_modules included). */
function packageDirs(modules: string): string[] {
  if (!existsSync(modules)) return [];
  const dirs: string[] = [];
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const path = join(modules, name);
    const inside = name.startsWith('@') ? readdirSync(path).map((n) => join(path, n)) : [path];
    for (const dir of inside) {
      if (!existsSync(join(dir, 'package.json'))) continue;
      dirs.push(dir, ...packageDirs(join(dir, 'node_modules')));
    }
  }
  return dirs;
}

/** `name@version: hook "command"` for every install step of the tree under `project`. */
function installScripts(project: string): { packages: number; found: string[] } {
  const dirs = packageDirs(join(project, 'node_modules'));
  const found: string[] = [];
  for (const dir of dirs) {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      scripts?: Record<string, string>;
    };
    if (pkg.name in ALLOWED) continue;
    const hooks = HOOKS.filter((hook) => pkg.scripts?.[hook] !== undefined);
    for (const hook of hooks)
      found.push(`${pkg.name}@${pkg.version}: ${hook} "${pkg.scripts?.[hook]}"`);
    if (hooks.length === 0 && existsSync(join(dir, 'binding.gyp')))
      found.push(`${pkg.name}@${pkg.version}: binding.gyp (npm runs node-gyp rebuild)`);
  }
  return { packages: dirs.length, found };
}

test.each(PACKAGES)('%s installed: no package in the tree has an install script', (folder) => {
  const { packages, found } = installScripts(inject('packed').projects[folder]);
  // A tree at all: the package, its dependencies, @types/node (@netdiag/ip-data has none).
  expect(packages).toBeGreaterThan(folder === 'ip-data' ? 2 : 5);
  expect(found).toEqual([]);
});
