import { defineConfig } from 'tsup';
import { baseOptions } from '../../tsup.config.base.js';

export default defineConfig({
  ...baseOptions,
  entry: ['src/index.ts'],
  // Chunks: the command modules (and @netdiag/core with them) load only when a command runs.
  splitting: true,
  // @netdiag/http is an optional dependency, imported only by `netdiag serve`: never bundled.
  external: ['@netdiag/http'],
});
