import { defineConfig } from 'tsup';
import { baseOptions } from '../../tsup.config.base.js';

export default defineConfig({
  ...baseOptions,
  // `one-shot`: the IP lookup of a short-lived process, without the whole toolkit's import
  // (src/one-shot.ts). Split, so that both entries share one copy of each module (one
  // `NetdiagError` class: `instanceof` holds across them).
  entry: ['src/index.ts', 'src/one-shot.ts'],
  splitting: true,
});
