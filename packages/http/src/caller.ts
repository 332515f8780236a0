/** The caller's address (CONTRACT §3). */
import type { Socket } from 'node:net';
import { normaliseSocketAddress } from '@netdiag/core';
import type { Request } from 'express';

/** The normalised peer address, kept on the socket: a keep-alive connection asks once. */
const PEER = Symbol('netdiag.peer');
type PeerSocket = Socket & { [PEER]?: string };

/**
 * `req.ip` is the socket address unless `trust proxy` is configured, in which case Express
 * takes it from `X-Forwarded-For` as far as the trusted hops allow. IPv4-mapped IPv6 is
 * reported as IPv4.
 */
export function callerIp(req: Request): string {
  // Memoised: the limiter key, the route and the access log all ask, and req.ip walks the
  // X-Forwarded-For chain each time when trust proxy is on.
  const memo = req as Request & { netdiagCallerIp?: string };
  if (memo.netdiagCallerIp !== undefined) return memo.netdiagCallerIp;
  let ip: string;
  if (req.app?.get('trust proxy')) {
    ip = normaliseSocketAddress(req.ip ?? req.socket.remoteAddress);
  } else {
    // Without trust proxy, `req.ip` is the socket address: skip Express's proxy walk.
    const socket = req.socket as PeerSocket;
    ip = socket[PEER] ??= normaliseSocketAddress(socket.remoteAddress);
  }
  memo.netdiagCallerIp = ip;
  return ip;
}
