/**
 * CORS for every response (SPEC §1 rule 3). No credentials are ever involved, so `*` is allowed
 * and safe (Fetch standard, "CORS protocol and credentials").
 * @module
 */
import type { NextFunction, Request, Response } from 'express';

/**
 * Response headers a page on another origin may read: the rate-limit state, when to retry, and
 * the request id to quote in a bug report. Without this list a browser hides all of them.
 */
export const EXPOSED_HEADERS =
  'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Window, Retry-After, X-Request-Id';

/** What a preflight allows when it does not say which headers it wants. */
const DEFAULT_ALLOWED_HEADERS =
  'Content-Type, Accept, Accept-Language, Authorization, Cache-Control, X-Requested-With, Mcp-Protocol-Version';

/** A preflight's `Access-Control-Request-Headers`: header-name tokens and commas, bounded. */
const REQUESTED_HEADERS = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

export function corsEverywhere(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method !== 'OPTIONS') {
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    next();
    return;
  }
  // A preflight: allow the headers asked for (browsers and client libraries add X-Requested-With,
  // Cache-Control, Authorization, …). The API reads none of them, and with no credentials there is
  // nothing for them to unlock, so echoing the list is safe.
  const requested = req.headers['access-control-request-headers'];
  const allowHeaders =
    typeof requested === 'string' && requested.length <= 1024 && REQUESTED_HEADERS.test(requested)
      ? requested
      : DEFAULT_ALLOWED_HEADERS;
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', allowHeaders);
  // 24 h; Chromium caps it at 2 h and Firefox at 24 h.
  res.setHeader('Access-Control-Max-Age', '86400');
  res.setHeader('Vary', 'Access-Control-Request-Headers');
  res.statusCode = 204;
  res.setHeader('Content-Length', '0');
  res.end();
}
