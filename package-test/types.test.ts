/**
 * Every published declaration compiles for a strict consumer: in the project global-pack.ts
 * installed the package in (the package, the workspace packages it depends on, their declared
 * dependencies and @types/node), a file importing every entry compiles with a new project's
 * settings (`tsc --init`'s: `strict` and more) and no skipLibCheck, so every .d.ts of the
 * package and of what it imports is checked (issue 44: core's declarations imported
 * dns-packet, whose types were only a devDependency: TS7016).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject, test } from 'vitest';
import { entries, PACKAGES, packageJson, ROOT } from './packages.js';

const packed = inject('packed');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

test.each(PACKAGES)('%s: every entry compiles in an empty strict project', (folder) => {
  const app = packed.projects[folder];
  const specifiers = entries(packageJson(folder));
  expect(specifiers.length).toBeGreaterThan(0);
  writeFileSync(
    join(app, 'uses-every-entry.ts'),
    specifiers.map((name, i) => `export * as entry${i} from '${name}';\n`).join(''),
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      // What `tsc --init` (TypeScript 5.9) writes for a new project, but every declaration
      // file checked (no skipLibCheck), Node's types on, and nothing emitted.
      compilerOptions: {
        module: 'nodenext',
        target: 'esnext',
        types: ['node'],
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        strict: true,
        verbatimModuleSyntax: true,
        isolatedModules: true,
        noUncheckedSideEffectImports: true,
        moduleDetection: 'force',
        skipLibCheck: false,
        noEmit: true,
      },
      files: ['uses-every-entry.ts'],
    }),
  );
  const result = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], {
    cwd: app,
    encoding: 'utf8',
  });
  expect(`${result.stdout}${result.stderr}`).toBe('');
  expect(result.status).toBe(0);
});
