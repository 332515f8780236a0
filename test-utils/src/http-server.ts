/**
 * A loopback HTTP target for probe tests: routes from a plain object, counts connections and
 * requests so tests can prove that a blocked target was never contacted.
 * @module
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type RouteHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface HttpTargetOptions {
  /** Loopback address to bind. @default '127.0.0.1' */
  host?: string;
  /** Path → handler; unknown paths answer 404. A `*` route catches everything. */
  routes?: Record<string, RouteHandler>;
}

export interface HttpTarget {
  host: string;
  port: number;
  /** `http://host:port` (IPv6 hosts in brackets). */
  url: string;
  /** TCP connections accepted so far. */
  connections: number;
  /** Paths requested so far. */
  requests: string[];
  routes: Record<string, RouteHandler>;
  server: http.Server;
  close(): Promise<void>;
}

export async function startHttpTarget(options: HttpTargetOptions = {}): Promise<HttpTarget> {
  const host = options.host ?? '127.0.0.1';
  const routes = options.routes ?? {};
  const sockets = new Set<Socket>();
  const target = { connections: 0, requests: [] as string[], routes } as HttpTarget;
  const server = http.createServer((req, res) => {
    target.requests.push(req.url ?? '/');
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const handler = routes[path] ?? routes['*'];
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.on('connection', (socket) => {
    target.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(target, {
    host,
    port,
    url: host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`,
    server,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}

/** A free TCP port on `host` (bound then released). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
