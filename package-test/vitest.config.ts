/**
 * `pnpm test:package`: the packed packages as npm users get them (global-pack.ts packs and
 * installs them once; the test files look at the result). It needs the npm registry, so it is
 * its own step, after `pnpm test` (which runs offline) in .ci/run.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: { '@netdiag/test-utils': src('../test-utils/src/index.ts') },
  },
  test: {
    name: 'package',
    root: src('.'),
    include: ['*.test.ts'],
    setupFiles: [src('../test-utils/src/vitest-setup.ts')],
    // The run's temp directory first: the packing's folder is made in it.
    globalSetup: [src('../test-utils/src/global-temp.ts'), src('./global-pack.ts')],
    // Packing, building and npm install take minutes on a shared machine.
    hookTimeout: 900_000,
    testTimeout: 300_000,
    // One file at a time: tsc, attw and the server each want a core.
    fileParallelism: false,
  },
});
