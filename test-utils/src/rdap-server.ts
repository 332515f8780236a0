/**
 * A loopback RDAP service for tests and benchmarks: IANA-style bootstrap files (with ETag /
 * Last-Modified and 304 answers to conditional requests) and RDAP documents by path, each
 * with a scripted status, headers, delay or redirect. Logs every request.
 * @module
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RdapReply {
  /** @default 200 */
  status?: number;
  /** JSON body (`undefined` with status 404 sends an RFC 9083 §6 error object). */
  body?: unknown;
  /** A raw body sent as is (for malformed answers). */
  raw?: string;
  headers?: Record<string, string>;
  /** Wait before answering, in ms. */
  delayMs?: number;
  /** Answer 302 to this location (absolute, or a path on this server). */
  redirect?: string;
}

export type RdapRoute = RdapReply | ((req: http.IncomingMessage) => RdapReply);

export interface RdapServerOptions {
  /** Loopback address to bind. @default '127.0.0.1' */
  host?: string;
  /** Path (without query) → reply. Unknown paths answer an RDAP 404. */
  routes?: Record<string, RdapRoute>;
}

export interface RdapRequestLog {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface RdapTestServer {
  /** `http://127.0.0.1:port` (no trailing slash). */
  url: string;
  routes: Record<string, RdapRoute>;
  requests: RdapRequestLog[];
  close(): Promise<void>;
}

export async function startRdapServer(options: RdapServerOptions = {}): Promise<RdapTestServer> {
  const host = options.host ?? '127.0.0.1';
  const routes: Record<string, RdapRoute> = options.routes ?? {};
  const requests: RdapRequestLog[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers });
    const route = routes[path] ?? routes[path.toLowerCase()];
    const reply: RdapReply = route
      ? typeof route === 'function'
        ? route(req)
        : route
      : { status: 404 };
    const send = () => {
      if (reply.redirect) {
        res.writeHead(302, { location: reply.redirect, ...reply.headers }).end();
        return;
      }
      const status = reply.status ?? 200;
      const body =
        reply.raw ??
        (reply.body !== undefined
          ? JSON.stringify(reply.body)
          : status === 404
            ? JSON.stringify({
                errorCode: 404,
                title: 'Not Found',
                rdapConformance: ['rdap_level_0'],
              })
            : status === 304
              ? ''
              : JSON.stringify({ errorCode: status, title: 'Error' }));
      res.writeHead(status, { 'content-type': 'application/rdap+json', ...reply.headers });
      res.end(status === 304 ? undefined : body);
    };
    if (reply.delayMs) setTimeout(send, reply.delayMs);
    else send();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`,
    routes,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An IANA bootstrap file (RFC 9224 §3) from `entries → base URLs` pairs. */
export function bootstrapFile(
  services: [entries: string[], urls: string[]][],
  publication = '2024-01-01T00:00:00Z',
): unknown {
  return {
    version: '1.0',
    publication,
    description: 'netdiag test bootstrap',
    services,
  };
}

/**
 * A route serving a bootstrap file with validators: answers 304 when the request's
 * If-None-Match or If-Modified-Since matches (RFC 9110 §13.1.2, §13.1.3).
 */
export function bootstrapRoute(
  file: unknown,
  validators: { etag?: string; lastModified?: string } = {
    etag: '"v1"',
    lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT',
  },
): (req: http.IncomingMessage) => RdapReply {
  return (req) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (validators.etag) headers['etag'] = validators.etag;
    if (validators.lastModified) headers['last-modified'] = validators.lastModified;
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    const notModified =
      (validators.etag !== undefined && inm === validators.etag) ||
      (inm === undefined &&
        validators.lastModified !== undefined &&
        ims === validators.lastModified);
    return notModified ? { status: 304, headers } : { status: 200, body: file, headers };
  };
}
