/** Shared tsup options: ESM + .d.ts for Node 20; each package spreads these. */
import type { Options } from 'tsup';

const dts = process.env['NETDIAG_BUILD_DTS'] !== '0';

export const baseOptions: Options = {
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  // `pnpm start` builds without declarations (NETDIAG_BUILD_DTS=0): serving needs only the JS.
  dts,
  // …and then leaves dist/ alone but for the JS it writes: cleaning would delete the declarations
  // of the last full build, and a tarball packed from that ships none (issue 44). A full build
  // (and so `prepack`) starts from an empty dist/.
  clean: dts,
  sourcemap: true,
  splitting: false,
};
