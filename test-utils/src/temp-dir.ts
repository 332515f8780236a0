/**
 * Temporary directories that tests make and the test run removes (issue 20 item 15): a full run
 * used to leave about 1 GB of `netdiag-*` folders behind. `tempDir` records each directory; the
 * setup file removes them after each test file, and the global teardown (`global-temp.ts`) fails
 * the run if anything else is left in the run's temp directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

/** A new empty directory under the temp directory, removed after the test file. */
export function tempDir(prefix = 'netdiag-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every directory `tempDir` made in this test file. */
export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
