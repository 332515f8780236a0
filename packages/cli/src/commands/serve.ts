/** `netdiag serve`: the HTTP API, configured from the environment plus flags. */
import { availableParallelism } from 'node:os';
import { InvalidInputError } from '@netdiag/core';
import { isClusterWorker, loadConfig, runPrimary, startServer } from '@netdiag/http';
import type { RegisterCommand } from './types.js';

export const registerServe: RegisterCommand = (program, { io }) => {
  program
    .command('serve')
    .description('serve the HTTP API (configuration from NETDIAG_* environment variables)')
    .option('-p, --port <port>', 'listen port (default: PORT or 8080)')
    .option('-H, --host <host>', 'listen address (default: HOST or 0.0.0.0)')
    .option(
      '-w, --workers <n>',
      'worker processes (node:cluster); "auto" = one per core. Limits stay per client across workers',
      '1',
    )
    .action(async (opts: { port?: string; host?: string; workers: string }) => {
      const env = { ...io.env };
      if (opts.port !== undefined) env['PORT'] = opts.port;
      if (opts.host !== undefined) env['HOST'] = opts.host;
      const config = loadConfig(env);
      const workers = opts.workers === 'auto' ? availableParallelism() : Number(opts.workers);
      if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
        throw new InvalidInputError(
          `--workers must be "auto" or a whole number from 1 to 256, got "${opts.workers}"`,
        );
      }
      if (workers > 1 && !isClusterWorker()) {
        const primary = runPrimary({
          workers,
          onListening: (url) => io.stderr(`netdiag API listening on ${url} (${workers} workers)\n`),
          log: (line) => io.stderr(`${line}\n`),
        });
        await untilSignal();
        await primary.stop();
        return;
      }
      const started = await startServer(config);
      if (!isClusterWorker()) io.stderr(`netdiag API listening on ${started.url}\n`);
      await untilSignal();
      await started.close();
      // A worker's IPC channel to the primary keeps its event loop alive; let go of it.
      if (isClusterWorker() && process.connected) process.disconnect();
    });
};

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
