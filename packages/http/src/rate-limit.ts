/**
 * Per-client rate limits (CONTRACT §3): a fixed window over all `/api` routes and a stricter
 * one on the tool endpoints, with `X-RateLimit-Limit/Remaining/Window` on every `/api` response
 * and `Retry-After` on 429. Counters live in the store given (in-memory, or Redis when shared).
 * @module
 */
import { operationLimit } from '@netdiag/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import { clientKey } from './caller.js';
import { sendError } from './envelope.js';
import { MemoryLimitStore } from './limit-stores.js';
import { withoutTrailingSlash } from './router.js';
import type { RouteDef } from './routes/types.js';

/**
 * The paths of the routes with the stricter tool limit as well (SPEC §8): those whose operation
 * core's tool table puts under it (`operationLimit`), the same answer the `/mcp` route gets for
 * the operation's tool.
 */
export function toolLimitedPaths(routes: readonly RouteDef[]): string[] {
  return routes
    .filter((route) => operationLimit(route.operationId) === 'tool')
    .map((route) => route.path.toLowerCase());
}

/** Paths never limited: health checks and the API description. */
export const UNLIMITED_PATHS = ['/api/openapi.json'];

export interface RateLimitOptions {
  limit: number;
  windowS: number;
  /** Key prefix, so both limiters can share one store. */
  prefix: string;
  store?: Store | undefined;
  /** Called for every rejected request (metrics). */
  onLimited?: () => void;
}

/**
 * One fixed-window limiter: counts the request and sets the `X-RateLimit-*` headers. Returns
 * true when the request may go on, false when it was answered with 429, or a promise of either
 * when the store answers asynchronously (Redis, the cluster primary).
 */
export type Limiter = (req: Request, res: Response) => boolean | Promise<boolean>;

/**
 * Creates one fixed-window limiter over an express-rate-limit `Store` (`MemoryLimitStore` by
 * default, or ours for Redis and worker processes). Clients are keyed by address; IPv6 clients
 * by their /56, because one subscriber usually holds a whole prefix (express-rate-limit's
 * `ipKeyGenerator`, see caller.ts).
 *
 * This is a few lines of our own rather than express-rate-limit's `rateLimit()`: that one reads
 * `req.ip` (Express's proxy walk) for a debug line, awaits five times and validates its options
 * on every request, which cost 10-15 % of the throughput of a fast endpoint
 * (bench/ip/http.bench.ts). The store protocol is still express-rate-limit's, so its stores
 * work here unchanged.
 */
export function createLimiter(options: RateLimitOptions): Limiter {
  const { limit, prefix, onLimited } = options;
  const perWhat = options.windowS === 60 ? 'minute' : `${options.windowS} seconds`;
  const message = `Rate limit exceeded: maximum ${limit} requests per ${perWhat}`;
  const store = options.store ?? new MemoryLimitStore();
  // Stores only read `windowMs` from the options (the Store interface takes them all).
  store.init?.({ windowMs: options.windowS * 1000 } as Options);
  const limitHeader = String(limit);
  const windowHeader = String(options.windowS);
  const decide = (hits: ClientRateLimitInfo, res: Response): boolean => {
    res.setHeader('X-RateLimit-Limit', limitHeader);
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - hits.totalHits)));
    res.setHeader('X-RateLimit-Window', windowHeader);
    if (hits.totalHits <= limit) return true;
    onLimited?.();
    const seconds = hits.resetTime
      ? Math.ceil((hits.resetTime.getTime() - Date.now()) / 1000)
      : options.windowS;
    res.setHeader('Retry-After', String(Math.max(1, seconds)));
    sendError(res, 429, message);
    return false;
  };
  return (req, res) => {
    const counted = store.increment(`${prefix}:${clientKey(req)}`);
    return counted instanceof Promise
      ? counted.then((hits) => decide(hits, res))
      : decide(counted, res);
  };
}

export interface LimitsOptions {
  /** Requests per window over all `/api` routes. */
  limit: number;
  /** Requests per window on the tool endpoints (`toolPaths`), counted as well. */
  toolLimit: number;
  /** Route paths under the tool limit (`toolLimitedPaths`); a final `:name` matches one segment. */
  toolPaths: readonly string[];
  windowS: number;
  /** A new store per limiter: the two limiters count separately. */
  store: () => Store | undefined;
  onLimited?: (limiter: 'all' | 'tool') => void;
}

/**
 * Both limits as one middleware: the global limiter on `/api` paths (not `UNLIMITED_PATHS`),
 * then the tool limiter on the tool paths; the `X-RateLimit-*` headers are those of the last
 * limiter that ran. Paths compare as the route dispatcher matches them: case-insensitive, one
 * trailing slash ignored.
 */
export function createLimits(
  options: LimitsOptions,
): RequestHandler & { readonly all: Limiter; readonly tool: Limiter } {
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
  const exact = new Set(options.toolPaths.filter((p) => !p.includes(':')));
  const withParam = options.toolPaths
    .filter((p) => p.includes(':'))
    .map((p) => p.slice(0, p.indexOf(':')));
  const isTool = (path: string) =>
    exact.has(path) ||
    withParam.some(
      (p) => path.length > p.length && path.startsWith(p) && !path.includes('/', p.length),
    );
  /** Runs `limiter` and goes on when it lets the request through. */
  const run = (
    limiter: Limiter,
    req: Request,
    res: Response,
    next: NextFunction,
    path: string,
    then: (req: Request, res: Response, next: NextFunction, path: string) => void,
  ) => {
    let passed: boolean | Promise<boolean>;
    try {
      passed = limiter(req, res);
    } catch (error) {
      return next(error);
    }
    if (passed === true) then(req, res, next, path);
    else if (passed !== false) passed.then((ok) => ok && then(req, res, next, path), next);
  };
  const afterAll = (req: Request, res: Response, next: NextFunction, path: string) => {
    if (isTool(path)) run(tool, req, res, next, path, goOn);
    else next();
  };
  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const path = withoutTrailingSlash(req.path).toLowerCase();
    if (!(path === '/api' || path.startsWith('/api/')) || unlimited.has(path)) return next();
    run(all, req, res, next, path, afterAll);
  };
  // The MCP route counts its requests itself (it must read the body to know which tool is
  // called), with these same limiters and counters.
  return Object.assign(middleware, { all, tool });
}

function goOn(_req: Request, _res: Response, next: NextFunction): void {
  next();
}
