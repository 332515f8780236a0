/** The caller's address (CONTRACT §3) and the key the rate limits count it under. */
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  type CallerConnection,
  isTlsVersionName,
  normaliseForwardedAddress,
  normaliseSocketAddress,
} from '@netdiag/core';
import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';

/**
 * Without trust proxy both depend on the connection only, so they are kept on the socket and
 * a keep-alive connection works them out once.
 */
const PEER = Symbol('netdiag.peer');
const PEER_KEY = Symbol('netdiag.peerKey');
type PeerSocket = Socket & { [PEER]?: string; [PEER_KEY]?: string };
/** With trust proxy they depend on the request's X-Forwarded-For: kept on the request. */
type MemoRequest = Request & { netdiagCallerIp?: string; netdiagClientKey?: string };

/** `app.get('trust proxy')`, read from the settings directly (the getter is measurably slower). */
const trustsProxy = (req: Request): boolean => Boolean(req.app?.settings['trust proxy']);

/**
 * `req.ip` is the socket address unless `trust proxy` is configured, in which case Express
 * takes it from `X-Forwarded-For` as far as the trusted hops allow. IPv4-mapped IPv6 is
 * reported as IPv4.
 */
export function callerIp(req: Request): string {
  if (!trustsProxy(req)) {
    // Without trust proxy, `req.ip` is the socket address: skip Express's proxy walk.
    const socket = req.socket as PeerSocket;
    socket[PEER] ??= normaliseSocketAddress(socket.remoteAddress);
    return socket[PEER];
  }
  // Memoised: the limiter key, the route and the access log all ask, and req.ip walks the
  // X-Forwarded-For chain each time. Proxies write the client as `ip:port`, `[v6]:port`, with a
  // zone id or IPv4-mapped: one client must be one address and one rate-limit bucket however
  // its proxy spells it (issue 20 item 6). A node that holds no address (`unknown`) counts as
  // the proxy itself.
  const memo = req as MemoRequest;
  memo.netdiagCallerIp ??=
    normaliseForwardedAddress(req.ip) ?? normaliseSocketAddress(req.socket.remoteAddress);
  return memo.netdiagCallerIp;
}

/**
 * The rate-limit key of the caller: its address, or its /56 for IPv6, because one subscriber
 * usually holds a whole prefix (express-rate-limit's `ipKeyGenerator`).
 */
export function clientKey(req: Request): string {
  if (!trustsProxy(req)) {
    const socket = req.socket as PeerSocket;
    socket[PEER_KEY] ??= ipKeyGenerator(callerIp(req));
    return socket[PEER_KEY];
  }
  const memo = req as MemoRequest;
  memo.netdiagClientKey ??= ipKeyGenerator(callerIp(req));
  return memo.netdiagClientKey;
}

/**
 * Headers a trusted reverse proxy may set to report the client's side of the connection
 * (nginx: `proxy_set_header X-Forwarded-HTTP-Version $server_protocol;` and
 * `proxy_set_header X-Forwarded-TLS-Version $ssl_protocol;`). Believed only when the socket
 * peer is trusted by NETDIAG_TRUST_PROXY, like X-Forwarded-For.
 */
export const FORWARDED_HTTP_VERSION = 'x-forwarded-http-version';
export const FORWARDED_TLS_VERSION = 'x-forwarded-tls-version';

function trustedPeer(req: Request): boolean {
  const trust = req.app.get('trust proxy fn') as
    | ((address: string, hop: number) => boolean)
    | undefined;
  const peer = req.socket.remoteAddress;
  return typeof trust === 'function' && peer !== undefined && trust(peer, 0);
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** The caller's connection as the engine takes it: address, HTTP version, TLS version. */
export function callerConnection(req: Request): CallerConnection {
  const socket = req.socket as Partial<TLSSocket>;
  const direct: CallerConnection = {
    ip: callerIp(req),
    httpVersion: req.httpVersion,
    tlsVersion:
      socket.encrypted === true && typeof socket.getProtocol === 'function'
        ? (socket.getProtocol() ?? '')
        : '',
  };
  if (!trustedPeer(req)) return direct;
  const http = header(req, FORWARDED_HTTP_VERSION);
  const tls = header(req, FORWARDED_TLS_VERSION) ?? '';
  return {
    ...direct,
    ...(http ? { httpVersion: http } : {}),
    ...(isTlsVersionName(tls) ? { tlsVersion: tls } : {}),
  };
}
