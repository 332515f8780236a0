import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    expect(() => teardown()).toThrow(/left 1 entries .*netdiag-forgotten-abc/);
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
