/**
 * What the tarballs hold: after `pnpm start`'s build step, packing still ships every file the
 * package.json names, declarations included (each `prepack` builds the package: issue 44), and
 * the tarballs pass @arethetypeswrong/cli and publint.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { declarationFiles, must, PACKAGES, packageJson, ROOT } from './packages.js';

const packed = inject('packed');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

test('`pnpm start` builds with `pnpm build:js`, which leaves the last full build’s declarations', () => {
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
  expect(scripts.start).toMatch(/^pnpm build:js && /);
  expect(packed.declarationsAfterStart).toEqual(packed.declarationsBeforeStart);
});

describe.each(PACKAGES)('%s', (folder) => {
  const pkg = packageJson(folder);
  const tarball = packed.tarballs[folder];

  test('the tarball, packed after `pnpm build:js`, ships every file its package.json names', () => {
    const files = new Set(
      must('tar', ['-tzf', tarball], ROOT)
        .split('\n')
        .map((line) => line.replace(/^package\//, '')),
    );
    const named = Object.values(pkg.exports).flatMap((target) =>
      typeof target === 'string' ? [target] : Object.values(target),
    );
    const bins = Object.values((pkg as { bin?: Record<string, string> }).bin ?? {});
    const expected = [...named, ...bins].map((path) => path.replace(/^\.\//, ''));
    expect(declarationFiles(pkg).length).toBeGreaterThan(0);
    for (const file of expected) expect(files.has(file), `${pkg.name}: ${file}`).toBe(true);
    if (folder === 'http') {
      // Swagger UI for /docs, copied by the build, with its licence beside it.
      for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'LICENSE', 'NOTICE'])
        expect(files.has(`dist/swagger-ui/${file}`), file).toBe(true);
    }
  });

  test('@arethetypeswrong/cli (ESM-only profile) and publint --strict pass on the tarball', () => {
    // ESM only: no `require` condition, so CommonJS and node10 resolution are not offered.
    must(bin('attw'), ['--profile', 'esm-only', '--format', 'ascii', tarball], ROOT);
    must(bin('publint'), ['--strict', tarball], ROOT);
  });
});
