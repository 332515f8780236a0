/**
 * Listening and graceful shutdown, shared by `netdiag-server` and `netdiag serve`.
 * Shutdown: readiness turns false (`/healthz` answers 503 "draining"), the listener stops
 * accepting, in-flight requests finish up to `shutdownTimeoutS`, then remaining sockets are cut
 * and Redis, timers and sockets of the services are closed.
 * @module
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CreateAppOptions, createApp, type NetdiagApp } from './app.js';
import { closeContext } from './context.js';

export interface StartedServer {
  app: NetdiagApp;
  server: Server;
  url: string;
  /** Graceful shutdown; resolves when everything is closed. Idempotent. */
  close(): Promise<void>;
}

export async function startServer(options: CreateAppOptions = {}): Promise<StartedServer> {
  const app = createApp(options);
  const ctx = app.locals.netdiag;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(ctx.config.port, ctx.config.host, (error?: Error) =>
      error ? reject(error) : resolve(s),
    );
  });
  // Slow-loris protection: a client must send its headers within 10 s (Node's default is 60 s).
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    app,
    server,
    url,
    close() {
      closing ??= (async () => {
        (ctx.services.get('readiness') as { ready: boolean }).ready = false;
        const deadline = setTimeout(
          () => server.closeAllConnections(),
          ctx.config.shutdownTimeoutS * 1000,
        );
        // close() stops accepting and, since Node 19, also closes idle keep-alive sockets; it
        // calls back once the in-flight requests have finished.
        await new Promise<void>((resolve) => server.close(() => resolve()));
        clearTimeout(deadline);
        await closeContext(ctx);
      })();
      return closing;
    },
  };
}
