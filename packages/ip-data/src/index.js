// The folder holding netdiag-ip-data.bin (and the IP-intel pack with its licences): what
// @netdiag/core's `ipDataDir` option takes.
import { fileURLToPath } from 'node:url';

export const dataDir = fileURLToPath(new URL('../data/', import.meta.url));
