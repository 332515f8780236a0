/**
 * Listening, IP data reloads and graceful shutdown, shared by `netdiag-server` and `netdiag serve`.
 * Shutdown: readiness turns false (`/healthz` answers 503 "draining"), the listener stops
 * accepting, in-flight requests finish up to `shutdownTimeoutS`, then remaining sockets are cut
 * and Redis, timers and sockets of the services are closed.
 * @module
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
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
  /**
   * Opens the IP data again and swaps it in without dropping a request (SIGHUP in
   * `netdiag-server`; also every `ipDataCheckS` when the file changed). A failure is logged and
   * the previous data stays.
   */
  reloadIpData(): Promise<void>;
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
  const { headersTimeoutS, requestTimeoutS, maxConnections } = ctx.config;
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
  const reloadIpData = async () => {
    const log = ctx.logger.child({ component: 'ip-data' });
    try {
      const info = await ctx.engine.reloadIpData();
      log.info({ file: info.file, built: info.built }, 'IP data reloaded');
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'IP data not reloaded; the previous data stays');
    }
  };
  // A new file from `netdiag data update` is seen by its modification time.
  const fileStamp = async () => {
    const { file } = (await ctx.engine.datasets()).info;
    return stat(file).then(
      (s) => `${s.mtimeMs}:${s.size}`,
      () => '',
    );
  };
  let stamp = await fileStamp();
  const checker =
    ctx.config.ipDataCheckS > 0
      ? setInterval(async () => {
          const now = await fileStamp();
          if (now !== stamp && now !== '') {
            stamp = now;
            await reloadIpData();
          }
        }, ctx.config.ipDataCheckS * 1000).unref()
      : undefined;
  return {
    app,
    server,
    url,
    reloadIpData,
    close() {
      if (checker) clearInterval(checker);
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
