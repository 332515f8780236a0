/**
 * `netdiag serve --workers N`: one primary forks N workers that share the listening socket
 * (node:cluster round-robin). Without Redis, the primary holds the rate-limit counters so a
 * client gets one limit across workers; with Redis, Redis does. Crashed workers are replaced.
 * @module
 */
import cluster from 'node:cluster';
import { CLUSTER_ENV } from './app.js';
import { serveClusterLimits } from './limit-stores.js';

export interface ClusterOptions {
  workers: number;
  /** Printed once all workers listen. */
  onListening?: (url: string) => void;
  log?: (line: string) => void;
}

/** In the primary: forks the workers and returns a stop function. */
export function runPrimary(options: ClusterOptions): { stop(): Promise<void> } {
  let stopping = false;
  let listening = 0;
  const fork = () => {
    const worker = cluster.fork({ [CLUSTER_ENV]: '1' });
    serveClusterLimits(worker);
    worker.on('listening', (address) => {
      listening++;
      if (listening === options.workers) {
        const host = address.address?.includes(':')
          ? `[${address.address}]`
          : (address.address ?? '0.0.0.0');
        options.onListening?.(`http://${host}:${address.port}`);
      }
    });
  };
  for (let i = 0; i < options.workers; i++) fork();
  // SIGHUP to the primary reaches every worker: each reloads its IP data (server.ts).
  const reload = () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGHUP');
  };
  process.on('SIGHUP', reload);
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    options.log?.(`worker ${worker.process.pid} exited (${signal ?? code}); starting a new one`);
    fork();
  });
  return {
    stop: async () => {
      stopping = true;
      process.off('SIGHUP', reload);
      const workers = Object.values(cluster.workers ?? {});
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (!worker || worker.isDead()) return resolve();
              worker.once('exit', () => resolve());
              worker.process.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}

export function isClusterWorker(): boolean {
  return cluster.isWorker && process.env[CLUSTER_ENV] === '1';
}
