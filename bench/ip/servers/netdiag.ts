/** The netdiag API (limits raised out of the way); reports when the IP data is loaded. */
import { startServer } from '@netdiag/http';

const started = await startServer({
  port: 0,
  host: '127.0.0.1',
  logLevel: 'silent',
  rateLimit: 1_000_000_000,
  toolRateLimit: 1_000_000_000,
  cacheDir: process.env['NETDIAG_CACHE_DIR'],
  torExitListUrl: 'http://127.0.0.1:9/torbulkexitlist',
});
process.send?.({ url: started.url });
process.on('SIGTERM', () => void started.close().then(() => process.exit(0)));
void started.app.locals.netdiag.engine.datasets();
