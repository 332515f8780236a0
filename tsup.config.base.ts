/** Shared tsup options: ESM + .d.ts for Node 20; each package spreads these. */
import type { Options } from 'tsup';

export const baseOptions: Options = {
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  // `pnpm start` builds without declarations (NETDIAG_BUILD_DTS=0): serving needs only the JS.
  dts: process.env['NETDIAG_BUILD_DTS'] !== '0',
  clean: true,
  sourcemap: true,
  splitting: false,
};
