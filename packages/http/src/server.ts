/**
 * Listening and graceful shutdown, shared by `netdiag-server` and `netdiag serve`.
 * Shutdown: readiness turns false (`/healthz` answers 503 "draining"), the listener stops
 * accepting, in-flight requests finish up to `shutdownTimeoutS`, then remaining sockets are cut
 * and Redis, timers and sockets of the services are closed.
 * @module
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { ConfigError } from '@netdiag/core';
import { type CreateAppOptions, createApp, type NetdiagApp } from './app.js';
import { answerClientError } from './client-errors.js';
import type { AppConfig } from './config.js';
import { closeContext } from './context.js';
import { expressObjectClasses } from './express-objects.js';

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
  // TLS files first: a bad path fails fast, before the datasets load.
  let tls: ReturnType<typeof readTlsFiles>;
  try {
    tls = readTlsFiles(ctx.config);
  } catch (error) {
    await closeContext(ctx);
    throw error;
  }
  // Load the IP datasets before listening: a broken NETDIAG_GEOIP_DB / NETDIAG_ASN_DB stops
  // start-up with its message instead of failing the first request, and the first request
  // does not pay for the load.
  try {
    await ctx.engine.datasets();
  } catch (error) {
    await closeContext(ctx);
    throw error;
  }
  // HTTPS is HTTP/1.1 only: Express 5 expects node:http request objects, which node:http2's
  // compatibility API does not provide; terminate HTTP/2 at a proxy (docs/caller.md).
  const { headersTimeoutS, requestTimeoutS, maxConnections, heapGrowthPercent } = ctx.config;
  // V8 reads this factor at every full collection, so it can be set now (the heap size limits,
  // by contrast, are fixed when the process starts). Left alone when the process was started
  // with its own value (NODE_OPTIONS or node's arguments).
  if (heapGrowthPercent > 0 && !startedWithFlag('--heap-growing-percent')) {
    setFlagsFromString(`--heap-growing-percent=${heapGrowthPercent}`);
  }
  const serverOptions = {
    // Requests and responses made with the app's prototypes (express-objects.ts): Express
    // changing them on arrival cost about half of the API's CPU time per request.
    ...expressObjectClasses(app),
    // Slow-loris protection: headers within headersTimeoutS (Node's default is 60 s), the whole
    // request within requestTimeoutS. Node enforces both only when it sweeps its connections,
    // every connectionsCheckingInterval (30 s by default), which let a slow client keep a socket
    // 2-4x longer than documented (issue 20 item 3): sweeping every 500 ms holds them to ±1 s.
    headersTimeout: headersTimeoutS * 1000,
    requestTimeout: requestTimeoutS * 1000,
    connectionsCheckingInterval: 500,
  };
  const s = tls
    ? createTlsServer({ ...tls, ...serverOptions }, app)
    : createServer(serverOptions, app);
  // Connections past the cap are closed as soon as they are accepted (net.Server#maxConnections).
  if (maxConnections > 0) s.maxConnections = maxConnections;
  // Oversized or malformed requests get the JSON envelope with CORS instead of a bare 431/400.
  s.on('clientError', answerClientError);
  const server = await new Promise<Server>((resolve, reject) => {
    s.once('error', reject);
    s.listen(ctx.config.port, ctx.config.host, () => {
      s.off('error', reject);
      resolve(s);
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `${tls ? 'https' : 'http'}://${host}:${address.port}`;
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

/** The PEM files of NETDIAG_TLS_CERT / NETDIAG_TLS_KEY, or undefined for plain HTTP. */
function readTlsFiles(config: AppConfig): { cert: Buffer; key: Buffer } | undefined {
  if (!config.tlsCert || !config.tlsKey) return undefined;
  const read = (variable: string, path: string) => {
    try {
      return readFileSync(path);
    } catch (error) {
      throw new ConfigError(`${variable}: cannot read "${path}": ${(error as Error).message}`);
    }
  };
  return {
    cert: read('NETDIAG_TLS_CERT', config.tlsCert),
    key: read('NETDIAG_TLS_KEY', config.tlsKey),
  };
}

/** Whether node was started with this V8 flag (in its arguments or NODE_OPTIONS). */
function startedWithFlag(flag: string): boolean {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const alt = `--${flag.slice(2).replace(/-/g, '_')}`;
  return given.some((arg) => arg.startsWith(flag) || arg.startsWith(alt));
}
