/** The netdiag API with limits raised out of the way, for load tests. */
import { loadConfig, startServer } from '@netdiag/http';

const started = await startServer({
  ...loadConfig(process.env),
  port: 0,
  host: '127.0.0.1',
  logLevel: 'silent',
  rateLimit: 1_000_000_000,
  toolRateLimit: 1_000_000_000,
});
process.send?.({ url: started.url });
process.on('SIGTERM', () => void started.close().then(() => process.exit(0)));
