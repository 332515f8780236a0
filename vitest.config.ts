/**
 * One vitest project per package. `vitest.workspace.ts` was deprecated in vitest 3.2 and
 * removed in vitest 4, so the projects live in `test.projects` here. Workspace packages resolve
 * to their TypeScript sources, so tests need no build.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      // Before '@netdiag/core', which would also match it as a prefix.
      '@netdiag/core/one-shot': src('./packages/core/src/one-shot.ts'),
      '@netdiag/core/capabilities': src('./packages/core/src/capabilities.ts'),
      '@netdiag/core': src('./packages/core/src/index.ts'),
      '@netdiag/http': src('./packages/http/src/index.ts'),
      '@netdiag/mcp/protocol': src('./packages/mcp/src/protocol.ts'),
      '@netdiag/mcp': src('./packages/mcp/src/index.ts'),
      '@netdiag/test-utils': src('./test-utils/src/index.ts'),
    },
  },
  test: {
    setupFiles: [src('./test-utils/src/vitest-setup.ts')],
    globalSetup: [src('./test-utils/src/global-temp.ts')],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: 'core', root: src('./packages/core'), include: ['{src,test}/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'http', root: src('./packages/http'), include: ['{src,test}/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'mcp', root: src('./packages/mcp'), include: ['{src,test}/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'cli', root: src('./packages/cli'), include: ['{src,test}/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'test-utils', root: src('./test-utils'), include: ['src/**/*.test.ts'] },
      },
    ],
  },
});
