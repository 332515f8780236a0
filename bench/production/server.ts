/** The netdiag API for the production benchmarks: limits raised, access log off, env-configured. */
import { loadConfig, startServer } from '@netdiag/http';

const config = loadConfig({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  NETDIAG_LOG_LEVEL: 'silent',
  NETDIAG_RATE_LIMIT: '1000000',
  NETDIAG_TOOL_RATE_LIMIT: '1000000',
});
const started = await startServer(config);
process.send?.({ url: started.url });
process.on('SIGTERM', () => void started.close().then(() => process.exit(0)));
