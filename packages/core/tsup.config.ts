import { defineConfig } from 'tsup';
import { baseOptions } from '../../tsup.config.base.js';

export default defineConfig({
  ...baseOptions,
  // `one-shot`: the IP lookup of a short-lived process, without the whole toolkit's import
  // (src/one-shot.ts); `capabilities`: everything but the zod schemas and the tool table
  // (src/capabilities.ts). Split, so that the entries share one copy of each module (one
  // `NetdiagError` class: `instanceof` holds across them).
  entry: ['src/index.ts', 'src/capabilities.ts', 'src/one-shot.ts'],
  splitting: true,
});
