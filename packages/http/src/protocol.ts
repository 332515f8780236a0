/**
 * What every response carries and what every request must satisfy before a route sees it.
 * @module
 */
import type { NextFunction, Request, Response } from 'express';
import { sendError } from './envelope.js';

/**
 * `Host` grammar (RFC 9110 §7.2, RFC 3986 §3.2.2): an IP literal in brackets or a reg-name
 * (unreserved, pct-encoded, sub-delims), then an optional port.
 */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]*)(?::[0-9]*)?$/;

/**
 * Why the request's `Host` is unacceptable, or `undefined`. RFC 9112 §3.2: a server MUST answer
 * 400 to a request with more than one Host field line or an invalid Host value (Node itself
 * answers 400 when an HTTP/1.1 request has none, `server.requireHostHeader`). Node keeps only
 * the first of repeated Host lines in `req.headers`, so the raw header list is counted.
 */
export function hostProblem(req: Request): string | undefined {
  const raw = req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') seen++;
  }
  if (seen > 1) return 'Bad request: more than one Host header (RFC 9112 §3.2)';
  const host = req.headers.host;
  if (host !== undefined && !HOST_VALUE.test(host))
    return 'Bad request: the Host header is not a host name or address with an optional port';
  return undefined;
}

/**
 * Headers of every API response, set before the route runs so that errors carry them too:
 * `X-Content-Type-Options: nosniff` (a JSON or text answer is never sniffed into HTML, Fetch
 * §3.5) and `Cache-Control: no-store` (answers depend on the caller, the moment and the
 * upstreams; a shared cache must not keep them). Routes may set their own Cache-Control.
 */
export function responseDefaults(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  const problem = hostProblem(req);
  if (problem) {
    res.setHeader('Connection', 'close');
    sendError(res, 400, problem);
    return;
  }
  next();
}
