/**
 * Per-client rate limits (CONTRACT §3): a fixed window over all `/api` routes and a stricter
 * one on the tool endpoints, with `X-RateLimit-Limit/Remaining/Window` on every `/api` response
 * and `Retry-After` on 429. Counters live in the store given (in-memory, or Redis when shared).
 * @module
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit, type Store } from 'express-rate-limit';
import { callerIp } from './caller.js';
import { sendError } from './envelope.js';

/** Paths with their own, stricter limit (SPEC §8). */
export const TOOL_LIMITED_PATHS = ['/api/ports', '/api/security-headers'];

/** Paths never limited: health checks and the API description. */
export const UNLIMITED_PATHS = ['/api/openapi.json'];

interface LimitInfo {
  limit: number;
  used: number;
  remaining: number;
  resetTime: Date | undefined;
}

export interface RateLimitOptions {
  limit: number;
  windowS: number;
  /** Key prefix, so both limiters can share one store. */
  prefix: string;
  store?: Store | undefined;
  /** Called for every rejected request (metrics). */
  onLimited?: () => void;
}

type LimitedRequest = Request & { rateLimitInfo?: LimitInfo };

/**
 * Creates one limiter. Clients are keyed by address; IPv6 clients by their /56, because one
 * subscriber usually holds a whole prefix (express-rate-limit's `ipKeyGenerator` default).
 */
export function createLimiter(options: RateLimitOptions): RequestHandler {
  const perWhat = options.windowS === 60 ? 'minute' : `${options.windowS} seconds`;
  return rateLimit({
    windowMs: options.windowS * 1000,
    limit: options.limit,
    standardHeaders: false,
    legacyHeaders: false,
    requestPropertyName: 'rateLimitInfo',
    keyGenerator: (req) => `${options.prefix}:${ipKeyGenerator(callerIp(req))}`,
    // We ignore X-Forwarded-For unless trust proxy is set, on purpose (CONTRACT §3).
    validate: { xForwardedForHeader: false, trustProxy: false, ip: false, singleCount: false },
    ...(options.store ? { store: options.store } : {}),
    handler: (req: Request, res: Response) => {
      options.onLimited?.();
      setRateHeaders(req as LimitedRequest, res, options.windowS);
      const info = (req as LimitedRequest).rateLimitInfo;
      const seconds = info?.resetTime
        ? Math.ceil((info.resetTime.getTime() - Date.now()) / 1000)
        : options.windowS;
      res.setHeader('Retry-After', String(Math.max(1, seconds)));
      sendError(res, 429, `Rate limit exceeded: maximum ${options.limit} requests per ${perWhat}`);
    },
  });
}

/** Writes the X-RateLimit-* headers from the innermost limiter that ran. */
export function rateHeaders(windowS: number) {
  return (req: Request, res: Response, next: NextFunction) => {
    setRateHeaders(req as LimitedRequest, res, windowS);
    next();
  };
}

function setRateHeaders(req: LimitedRequest, res: Response, windowS: number): void {
  const info = req.rateLimitInfo;
  if (!info) return;
  res.setHeader('X-RateLimit-Limit', String(info.limit));
  res.setHeader('X-RateLimit-Remaining', String(Math.max(0, info.limit - info.used)));
  res.setHeader('X-RateLimit-Window', String(windowS));
}
