/** Child process: the loopback DNS fixture serving the benchmark zone (own event loop). */
import { startDnsServer } from '@netdiag/test-utils';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import { zone } from './zone.js';

installNetworkGuard();
const server = await startDnsServer({ zone });
process.send?.({ url: server.address });
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
