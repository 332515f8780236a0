import { defineConfig } from 'tsup';
import { baseOptions } from '../../tsup.config.base.js';

export default defineConfig({
  ...baseOptions,
  entry: ['src/index.ts'],
  // Chunks: the command modules (and @netdiag/core with them) load only when a command runs.
  splitting: true,
  // @netdiag/http and @netdiag/mcp are optional dependencies, imported only by `netdiag serve`
  // and `netdiag mcp`: never bundled.
  external: ['@netdiag/http', '@netdiag/mcp'],
});
