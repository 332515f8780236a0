/**
 * Child process: the loopback DNS fixture of the DNS benchmarks, on its own event loop so the
 * resolvers under test do not share it. Env: BENCH_DELAY_MS (every answer), BENCH_DROP_SUFFIX
 * (names ending with it are never answered).
 */
import { startDnsServer } from '@netdiag/test-utils';
import { installNetworkGuard } from '@netdiag/test-utils/guard';
import { benchZone } from './zone.js';

installNetworkGuard();
const drop = process.env.BENCH_DROP_SUFFIX;
const server = await startDnsServer({
  zone: benchZone(),
  delayMs: Number(process.env.BENCH_DELAY_MS ?? 0),
  ...(drop ? { onQuery: (q) => (q.name.endsWith(drop) ? 'drop' : undefined) } : {}),
});
process.send?.({ url: server.address });
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
