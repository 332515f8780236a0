/**
 * `startServer` as the server tests start it: on a loopback port, logs off, the environment
 * ignored, DNS pointed at a closed loopback port and no grace at shutdown.
 */
import type { CreateAppOptions } from '../src/app.js';
import { type StartedServer, startServer } from '../src/server.js';

export function startQuietServer(options: CreateAppOptions = {}): Promise<StartedServer> {
  return startServer({
    logLevel: 'silent',
    env: false,
    host: '127.0.0.1',
    port: 0,
    dnsServers: ['127.0.0.1:1'],
    shutdownTimeoutS: 0,
    ...options,
  });
}
