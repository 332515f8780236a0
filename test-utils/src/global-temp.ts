/**
 * vitest global setup: the whole run gets its own temp directory (TMPDIR, which `os.tmpdir()`
 * reads on every call and child processes inherit), and the teardown fails the run when a test
 * left anything in it — except the IP lookup-table caches that the library writes to the temp
 * directory by design when no cache directory is configured (docs/ip-intelligence.md). The
 * directory is removed either way. Failing means a non-zero exit status and one line saying what
 * was left, not an exception: vitest would only log that and exit 0.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The library's own default-cache files (`ip/cache-file.ts` names, engine `cacheDir` default). */
const LIBRARY_CACHES = /^netdiag-(ip-tables|asn-index)-.+-f\d+\.bin$/;
/** Set while a run directory is active: every project's global setup runs, the first one owns it. */
const MARK = 'NETDIAG_TEST_RUN_TMP';

/** Makes a run directory, points TMPDIR at it, and returns the checking teardown. */
export function createRunTempDir(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'netdiag-test-run-'));
  process.env.TMPDIR = root;
  process.env[MARK] = root;
  return () => {
    let left: string[] = [];
    try {
      left = readdirSync(root).filter((name) => !LIBRARY_CACHES.test(name));
    } finally {
      rmSync(root, { recursive: true, force: true });
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      delete process.env[MARK];
    }
    if (left.length > 0) {
      throw new Error(
        `Tests left ${left.length} ${left.length === 1 ? 'entry' : 'entries'} in the temp directory (use tempDir() from @netdiag/test-utils, or remove them): ${left.join(', ')}`,
      );
    }
  };
}

export default function setup(): () => void {
  if (process.env[MARK]) return () => {};
  const teardown = createRunTempDir();
  return () => {
    try {
      teardown();
    } catch (error) {
      // vitest 4 logs an error thrown by a global teardown as "error during close" with a stack
      // and exits 0 all the same (Vitest.close), so the run is failed here, in plain words.
      process.exitCode = 1;
      console.error(`\nFAIL  the test run: ${(error as Error).message}\n`);
    }
  };
}
