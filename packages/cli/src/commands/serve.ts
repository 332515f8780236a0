/**
 * `netdiag serve`: the HTTP API, configured from the environment plus flags. `@netdiag/http`
 * (Express, Redis, pino, prom-client) is an optional dependency loaded only here, so every
 * other command starts without it.
 * @module
 */
import { availableParallelism } from 'node:os';
import { ConfigError, InvalidInputError } from '@netdiag/core/capabilities';
import type { RegisterCommand } from './types.js';

/** The HTTP face, loaded on demand. */
async function loadHttp(): Promise<typeof import('@netdiag/http')> {
  try {
    return await import('@netdiag/http');
  } catch (error) {
    throw new ConfigError(
      '`netdiag serve` needs the @netdiag/http package: npm install @netdiag/http',
      error,
    );
  }
}

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
      const { isClusterWorker, loadConfig, runPrimary, startServer } = await loadHttp();
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
      const started = await startServer({ ...config, env: false });
      if (!isClusterWorker()) io.stderr(`netdiag API listening on ${started.url}\n`);
      // SIGHUP: the IP data again (`netdiag data update` wrote a new file), no request dropped.
      const reload = () => void started.reloadIpData();
      process.on('SIGHUP', reload);
      await untilSignal();
      process.off('SIGHUP', reload);
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
