/**
 * Imported first by every bench that measures netdiag in its own process: the figures are for
 * the built packages (`packages/*\/dist`, what users install), never the TypeScript sources. Under
 * tsx the root tsconfig maps `@netdiag/*` to `src` and compiles with `keepNames`, which adds a
 * naming call to every closure made at run time (the resolver read 46 µs of CPU per query from
 * the sources, 37 from the build, same run). So, unless TSX_TSCONFIG_PATH already points tsx
 * elsewhere, this runs the same command again with `tsconfig.built.json` (no path mapping) and
 * exits with its status. Importing it costs the parent only the module loading.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

if (!process.env.TSX_TSCONFIG_PATH) {
  for (const pkg of ['core', 'http']) {
    if (!existsSync(fileURLToPath(new URL(`../packages/${pkg}/dist/index.js`, import.meta.url)))) {
      throw new Error(`packages/${pkg} is not built: run "npx --yes pnpm@10 build" first`);
    }
  }
  const run = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: fileURLToPath(new URL('./tsconfig.built.json', import.meta.url)),
    },
  });
  process.exit(run.status ?? 1);
}
