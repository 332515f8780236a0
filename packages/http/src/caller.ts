/** The caller's address (CONTRACT §3). */
import { normaliseSocketAddress } from '@netdiag/core';
import type { Request } from 'express';

/**
 * `req.ip` is the socket address unless `trust proxy` is configured, in which case Express
 * takes it from `X-Forwarded-For` as far as the trusted hops allow. IPv4-mapped IPv6 is
 * reported as IPv4.
 */
export function callerIp(req: Request): string {
  // Memoised: the limiter key, the route and the access log all ask, and req.ip walks the
  // X-Forwarded-For chain each time when trust proxy is on.
  const memo = req as Request & { netdiagCallerIp?: string };
  memo.netdiagCallerIp ??= normaliseSocketAddress(req.ip ?? req.socket.remoteAddress);
  return memo.netdiagCallerIp;
}
