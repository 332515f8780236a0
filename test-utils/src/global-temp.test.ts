import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { createRunTempDir } from './global-temp.js';
import { removeTempDirs, tempDir } from './temp-dir.js';

const original = { tmp: process.env.TMPDIR, mark: process.env.NETDIAG_TEST_RUN_TMP };
afterEach(() => {
  process.env.TMPDIR = original.tmp;
  process.env.NETDIAG_TEST_RUN_TMP = original.mark;
});

describe('the run-wide temp directory', () => {
  test('this run uses its own temp directory', () => {
    expect(tmpdir()).toMatch(/netdiag-test-run-/);
  });

  test('the teardown fails on anything a test left, and removes it', () => {
    const teardown = createRunTempDir();
    const root = tmpdir();
    mkdirSync(join(root, 'netdiag-forgotten-abc'));
    writeFileSync(join(root, 'netdiag-ip-tables-x-f4.bin'), '');
    expect(() => teardown()).toThrow(/left 1 entry .*netdiag-forgotten-abc/);
    expect(existsSync(root)).toBe(false);
  });

  test('the library caches alone are not leftovers; tempDir folders are removed', () => {
    const teardown = createRunTempDir();
    const root = tmpdir();
    writeFileSync(join(root, 'netdiag-asn-index-ip-location-db-asn@2-abc-f2.bin'), '');
    const dir = tempDir('netdiag-scratch-');
    writeFileSync(join(dir, 'file'), 'x');
    removeTempDirs();
    expect(existsSync(dir)).toBe(false);
    expect(() => teardown()).not.toThrow();
    expect(existsSync(root)).toBe(false);
  });
});

describe('a run that leaves something in its temp directory', () => {
  const vitest = join(
    dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
    'vitest.mjs',
  );
  const globalSetup = fileURLToPath(new URL('./global-temp.ts', import.meta.url));

  /** vitest on a one-test project of its own, with this global setup; its status and output. */
  function runProject(testBody: string) {
    const dir = tempDir('netdiag-global-temp-');
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `export default { test: { root: ${JSON.stringify(dir)}, include: ['*.test.mjs'], globalSetup: [${JSON.stringify(globalSetup)}] } };\n`,
    );
    writeFileSync(
      join(dir, 'one.test.mjs'),
      `import { writeFileSync } from 'node:fs';\nimport { tmpdir } from 'node:os';\nimport { join } from 'node:path';\nimport { test } from 'vitest';\ntest('one', () => { ${testBody} });\n`,
    );
    // Without this run's mark, so the inner run makes (and checks) a temp directory of its own.
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
    delete env.NETDIAG_TEST_RUN_TMP;
    const result = spawnSync(
      process.execPath,
      [vitest, 'run', '--config', join(dir, 'vitest.config.mjs')],
      {
        cwd: dir,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  }

  test('fails with a non-zero status and says what was left; a clean run passes', {
    timeout: 120_000,
  }, () => {
    const before = readdirSync(tmpdir());
    const left = runProject("writeFileSync(join(tmpdir(), 'netdiag-left-behind.txt'), 'x');");
    expect(left.status, left.output).toBe(1);
    expect(left.output).toMatch(
      /FAIL {2}the test run: Tests left 1 entry in the temp directory .*: netdiag-left-behind\.txt/,
    );
    expect(left.output).not.toMatch(/error during close/);
    const clean = runProject('');
    expect(clean.status, clean.output).toBe(0);
    expect(clean.output).not.toMatch(/FAIL/);
    // The inner runs removed their temp directories, leftovers and all.
    expect(
      readdirSync(tmpdir()).filter(
        (name) => !before.includes(name) && name.startsWith('netdiag-test-run-'),
      ),
    ).toEqual([]);
  });
});
