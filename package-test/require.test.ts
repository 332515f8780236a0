/**
 * The reason for `engines.node` >=20.19: from Node 20.19 a CommonJS program can `require()` an
 * ES module (without top-level await), so it can load these ESM-only packages. Each installed
 * package's every entry is required from a CommonJS script run by this Node.
 */
import { spawnSync } from 'node:child_process';
import { expect, inject, test } from 'vitest';
import { entries, PACKAGES, packageJson } from './packages.js';

const packed = inject('packed');

test.each(PACKAGES)('%s: every entry loads with require()', (folder) => {
  const specifiers = entries(packageJson(folder));
  expect(specifiers.length).toBeGreaterThan(0);
  const script = `for (const name of ${JSON.stringify(specifiers)}) console.log(name, Object.keys(require(name)).length);`;
  const result = spawnSync(process.execPath, ['--input-type=commonjs', '-e', script], {
    cwd: packed.projects[folder],
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  const loaded = result.stdout.trim().split('\n');
  expect(loaded.map((line) => line.split(' ')[0])).toEqual(specifiers);
  for (const line of loaded) expect(Number(line.split(' ')[1])).toBeGreaterThan(0);
});
