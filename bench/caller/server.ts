/**
 * The netdiag API for the caller benchmarks: limits out of the way, trusting the loopback
 * load generator's X-Forwarded-For, every upstream on the parent's loopback fixtures (env).
 * Runs the built package (`pnpm build` first), like every server the benchmarks measure.
 */
import { loadConfig, startServer } from '@netdiag/http';

const started = await startServer({
  ...loadConfig(process.env),
  port: 0,
  host: '127.0.0.1',
  logLevel: 'silent',
  trustProxy: 'loopback',
  rateLimit: 1_000_000_000,
  toolRateLimit: 1_000_000_000,
});
process.send?.({ url: started.url });
process.on('SIGTERM', () => void started.close().then(() => process.exit(0)));
