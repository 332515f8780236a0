/**
 * Listening and graceful shutdown, shared by `netdiag-server` and `netdiag serve`.
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
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await closeContext(ctx);
      })();
      return closing;
    },
  };
}
