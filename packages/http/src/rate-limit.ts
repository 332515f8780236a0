/**
 * Per-client rate limits (CONTRACT §3): a fixed window over all `/api` routes and a stricter
 * one on the tool endpoints, with `X-RateLimit-Limit/Remaining/Window` on every `/api` response
 * and `Retry-After` on 429. Counters live in the store given (in-memory, or Redis when shared).
 * @module
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  type ClientRateLimitInfo,
  ipKeyGenerator,
  MemoryStore,
  type Options,
  type Store,
} from 'express-rate-limit';
import { callerIp } from './caller.js';
import { sendError } from './envelope.js';
import { withoutTrailingSlash } from './router.js';

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
 * Creates one fixed-window limiter over an express-rate-limit `Store` (its `MemoryStore` by
 * default, or ours for Redis and worker processes). Clients are keyed by address; IPv6 clients
 * by their /56, because one subscriber usually holds a whole prefix (express-rate-limit's
 * `ipKeyGenerator`).
 *
 * The middleware itself is these few lines rather than express-rate-limit's `rateLimit()`:
 * that one reads `req.ip` (Express's proxy walk) for a debug line, awaits five times and
 * validates its options on every request, which cost 10-15 % of the throughput of a fast
 * endpoint (bench/ip/http.bench.ts). The counting, the key and the store protocol are still
 * express-rate-limit's, so its stores work here unchanged.
 */
export function createLimiter(options: RateLimitOptions): RequestHandler {
  const perWhat = options.windowS === 60 ? 'minute' : `${options.windowS} seconds`;
  const message = `Rate limit exceeded: maximum ${options.limit} requests per ${perWhat}`;
  const store = options.store ?? new MemoryStore();
  // Stores only read `windowMs` from the options (the Store interface takes them all).
  store.init?.({ windowMs: options.windowS * 1000 } as Options);
  const limit = options.limit;
  return (req: Request, res: Response, next: NextFunction) => {
    let counted: Promise<ClientRateLimitInfo> | ClientRateLimitInfo;
    try {
      counted = store.increment(`${options.prefix}:${ipKeyGenerator(callerIp(req))}`);
    } catch (error) {
      return next(error);
    }
    const decide = (hits: ClientRateLimitInfo) => {
      (req as LimitedRequest).rateLimitInfo = {
        limit,
        used: hits.totalHits,
        remaining: Math.max(0, limit - hits.totalHits),
        resetTime: hits.resetTime,
      };
      if (hits.totalHits <= limit) return next();
      options.onLimited?.();
      setRateHeaders(req as LimitedRequest, res, options.windowS);
      const seconds = hits.resetTime
        ? Math.ceil((hits.resetTime.getTime() - Date.now()) / 1000)
        : options.windowS;
      res.setHeader('Retry-After', String(Math.max(1, seconds)));
      sendError(res, 429, message);
    };
    if (counted instanceof Promise) counted.then(decide, next);
    else decide(counted);
  };
}

export interface LimitsOptions {
  /** Requests per window over all `/api` routes. */
  limit: number;
  /** Requests per window on the tool endpoints (`TOOL_LIMITED_PATHS`), counted as well. */
  toolLimit: number;
  windowS: number;
  /** A new store per limiter: the two limiters count separately. */
  store: () => Store | undefined;
  onLimited?: (limiter: 'all' | 'tool') => void;
}

/**
 * Both limits as one middleware: the global limiter on `/api` paths (not `UNLIMITED_PATHS`),
 * then the tool limiter on the tool paths, then the X-RateLimit-* headers of the innermost
 * limiter that ran. Paths compare as the route dispatcher matches them: case-insensitive, one
 * trailing slash ignored.
 */
export function createLimits(options: LimitsOptions): RequestHandler {
  const make = (prefix: 'all' | 'tool', limit: number) =>
    createLimiter({
      limit,
      windowS: options.windowS,
      prefix,
      store: options.store(),
      onLimited: () => options.onLimited?.(prefix),
    });
  const all = make('all', options.limit);
  const tool = make('tool', options.toolLimit);
  const unlimited = new Set(UNLIMITED_PATHS);
  const isTool = (path: string) =>
    TOOL_LIMITED_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
  return (req: Request, res: Response, next: NextFunction) => {
    const path = withoutTrailingSlash(req.path).toLowerCase();
    if (!(path === '/api' || path.startsWith('/api/')) || unlimited.has(path)) return next();
    const done = (error?: unknown) => {
      if (error) return next(error);
      setRateHeaders(req as LimitedRequest, res, options.windowS);
      next();
    };
    all(req, res, (error?: unknown) => {
      if (error) return next(error);
      if (isTool(path)) tool(req, res, done);
      else done();
    });
  };
}

function setRateHeaders(req: LimitedRequest, res: Response, windowS: number): void {
  const info = req.rateLimitInfo;
  if (!info) return;
  res.setHeader('X-RateLimit-Limit', String(info.limit));
  res.setHeader('X-RateLimit-Remaining', String(Math.max(0, info.limit - info.used)));
  res.setHeader('X-RateLimit-Window', String(windowS));
}
