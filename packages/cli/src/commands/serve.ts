/** `netdiag serve`: the HTTP API, configured from the environment plus flags. */
import { loadConfig, startServer } from '@netdiag/http';
import type { RegisterCommand } from './types.js';

export const registerServe: RegisterCommand = (program, { io }) => {
  program
    .command('serve')
    .description('serve the HTTP API (configuration from NETDIAG_* environment variables)')
    .option('-p, --port <port>', 'listen port (default: PORT or 8080)')
    .option('-H, --host <host>', 'listen address (default: HOST or 0.0.0.0)')
    .action(async (opts: { port?: string; host?: string }) => {
      const env = { ...io.env };
      if (opts.port !== undefined) env['PORT'] = opts.port;
      if (opts.host !== undefined) env['HOST'] = opts.host;
      const started = await startServer(loadConfig(env));
      io.stderr(`netdiag API listening on ${started.url}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          void started.close().then(resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
};
