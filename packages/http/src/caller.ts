/** The caller's address (CONTRACT §3). */
import { normaliseSocketAddress } from '@netdiag/core';
import type { Request } from 'express';

/**
 * `req.ip` is the socket address unless `trust proxy` is configured, in which case Express
 * takes it from `X-Forwarded-For` as far as the trusted hops allow. IPv4-mapped IPv6 is
 * reported as IPv4.
 */
export function callerIp(req: Request): string {
  return normaliseSocketAddress(req.ip ?? req.socket.remoteAddress);
}
