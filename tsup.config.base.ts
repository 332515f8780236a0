/** Shared tsup options: ESM + .d.ts for Node 20; each package spreads these. */
import type { Options } from 'tsup';

export const baseOptions: Options = {
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  dts: true,
  clean: true,
  sourcemap: true,
  splitting: false,
};
