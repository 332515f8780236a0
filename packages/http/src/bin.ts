/** `netdiag-server`: serve the API with configuration from the environment. */
import { isNetdiagError } from '@netdiag/core';
import { loadConfig } from './config.js';
import { startServer } from './server.js';

try {
  const config = loadConfig(process.env);
  const started = await startServer({ ...config, env: false });
  const { logger } = started.app.locals.netdiag;
  logger.info({ url: started.url }, 'netdiag API listening');
  // The listening line is written now, not with the first 4 KiB of access log.
  (logger as typeof logger & { flushLogs?: () => void }).flushLogs?.();
  const stop = () => {
    void started.close().then(() => process.exit(0));
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  // SIGHUP: the IP data again (`netdiag data update` wrote a new file), no request dropped.
  process.on('SIGHUP', () => void started.reloadIpData());
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (error) {
  const message = isNetdiagError(error) ? error.message : (error as Error).message;
  process.stderr.write(`netdiag-server: cannot start: ${message}\n`);
  process.exit(1);
}
