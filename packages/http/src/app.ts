/**
 * `createApp(config)` and `createRouter()`: the Express 5 faces of netdiag.
 * @module
 */
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { isNetdiagError, type Netdiag } from '@netdiag/core';
import express, {
  type Express,
  type NextFunction,
  type Request,
  type Response,
  type Router,
} from 'express';
import type { Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { callerIp } from './caller.js';
import { type AppConfig, resolveConfig } from './config.js';
import { type AppContext, createContext } from './context.js';
import { corsEverywhere } from './cors.js';
import { sendError } from './envelope.js';
import { toErrorReply } from './errors.js';
import { ClusterLimitStore, RedisLimitStore } from './limit-stores.js';
import { getMetrics, isProbeRoute, type Metrics, metricsRecorder } from './metrics.js';
import { buildOpenApi } from './openapi/document.js';
import { responseDefaults } from './protocol.js';
import { createLimits, toolLimitedPaths } from './rate-limit.js';
import { redactUrl } from './redact.js';
import { buildRouter, RouteTable, routeDispatcher } from './router.js';
import { ROUTES } from './routes/index.js';
import type { RouteDef } from './routes/types.js';
import { series } from './series.js';
import { getRedis } from './stores.js';
import { VERSION } from './version.js';

/** Set by `netdiag serve --workers N` in its workers: count limits in the primary process. */
export const CLUSTER_ENV = 'NETDIAG_CLUSTER_WORKER';

/** 16 KiB: the largest legitimate body is a bulk request of 50 IPv6 addresses (~2.3 KiB). */
export const BODY_LIMIT_BYTES = 16 * 1024;

export interface CreateAppOptions extends Partial<AppConfig> {
  /** A pino logger to use instead of one built from `logLevel`. */
  logger?: Logger;
  /**
   * The environment the configuration is read from before the options apply (CONTRACT §5);
   * `false` ignores the environment. @default process.env
   */
  env?: Readonly<Record<string, string | undefined>> | false;
  /**
   * An engine to answer from instead of one made from the configuration (shared with your own
   * code or another app). The app does not close it.
   */
  engine?: Netdiag;
  /** Replace the route table (a subset of endpoints, or extra ones); also used by tests. */
  routes?: readonly RouteDef[];
}

export type NetdiagApp = Express & { locals: { netdiag: AppContext } };

/** The whole API: CORS, access log, limits, routes, OpenAPI, health, JSON errors. */
export function createApp(options: CreateAppOptions = {}): NetdiagApp {
  const { logger, routes = ROUTES, env, engine, ...configOptions } = options;
  const config = resolveConfig(configOptions, env);
  const ctx = createContext(config, logger, engine);
  const app = express() as NetdiagApp;
  app.locals.netdiag = ctx;
  app.disable('x-powered-by');
  // API answers are computed per request; hashing each body for an ETag costs ~5 % of
  // throughput and no client revalidates them.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.set('json spaces', 0);
  ctx.services.set('readiness', { ready: true });

  const mounted = routes.filter(
    (route) =>
      (config.metrics || route.path !== '/metrics') && (config.mcp || route.path !== '/mcp'),
  );
  ctx.services.set('openapi', buildOpenApi(mounted, { version: VERSION }));

  const metrics = getMetrics(ctx);
  const limits = createLimits({
    limit: config.rateLimit,
    toolLimit: config.toolRateLimit,
    toolPaths: toolLimitedPaths(mounted),
    windowS: config.rateWindowS,
    store: () => limitStore(ctx),
    onLimited: (limiter) => metrics.rateLimited.inc({ limiter }),
  });
  ctx.services.set('limits', limits);
  // One Express layer for the whole request path: Express matches every layer's path in turn
  // and allocates for each, which cost more than the steps themselves (bench/ip/http.bench.ts).
  const table = new RouteTable(mounted);
  app.use(
    series(
      observeRequests(ctx, config.metrics, table),
      responseDefaults,
      corsEverywhere,
      limits,
      readBody,
      routeDispatcher(ctx, table),
    ),
  );

  app.use((req: Request, res: Response) => {
    sendError(
      res,
      404,
      `Not found: no endpoint at ${req.method} ${req.path}; see /api/openapi.json`,
    );
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const reply = toErrorReply(error);
    if (reply.internal) {
      ctx.logger.error(
        { req_id: res.getHeader('X-Request-Id'), err: error, path: redactUrl(req.path) },
        'unhandled error',
      );
    }
    countUpstreamError(metrics, error);
    if (res.headersSent) return void res.end();
    for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
    sendError(res, reply.status, reply.message);
  });
  return app;
}

/**
 * The API routes alone, for mounting inside an existing Express app. The host app keeps its
 * own middleware; CORS, limits and the access log are up to it (or use `createApp`).
 */
export function createRouter(options: CreateAppOptions = {}): Router {
  const { logger, routes = ROUTES, env, engine, ...configOptions } = options;
  const config = resolveConfig(configOptions, env);
  const ctx = createContext(config, logger, engine);
  const mounted = config.metrics ? routes : routes.filter((route) => route.path !== '/metrics');
  ctx.services.set('openapi', buildOpenApi(mounted, { version: VERSION }));
  const router = express.Router();
  router.use(responseDefaults);
  router.use(readBody);
  router.use(buildRouter(ctx, mounted));
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const reply = toErrorReply(error);
    if (reply.internal) ctx.logger.error({ err: error }, 'unhandled error');
    for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
    sendError(res, reply.status, reply.message);
  });
  return router;
}

/**
 * Where the limiters count: Redis when configured (shared by every instance), the primary
 * process under `netdiag serve --workers N` (one limit per client across workers), else memory.
 */
function limitStore(ctx: AppContext): Store | undefined {
  const redis = getRedis(ctx);
  if (redis) return new RedisLimitStore(redis);
  if (cluster.isWorker && process.env[CLUSTER_ENV] === '1')
    return new ClusterLimitStore('netdiag:rl:');
  return undefined;
}

function countUpstreamError(metrics: Metrics, error: unknown): void {
  if (!isNetdiagError(error) || !error.upstream) return;
  const kind =
    error.code === 'UPSTREAM_TIMEOUT'
      ? 'timeout'
      : error.code === 'UPSTREAM_THROTTLED'
        ? 'throttled'
        : 'error';
  metrics.upstreamErrors.inc({ upstream: error.upstream, kind });
}

/**
 * Bodies of any type are read up to the limit so that 413 is uniform; routes parse them
 * (`req.body`, a Buffer). Requests without a body (RFC 9112 §6.3: no Content-Length, no
 * Transfer-Encoding) skip the reader and keep `req.body` undefined, as in Express 5 without a
 * parser: setting it on every GET measurably slowed the request path (bench/ip/http.bench.ts).
 */
const rawBody = express.raw({ type: () => true, limit: BODY_LIMIT_BYTES });
function readBody(req: Request, res: Response, next: NextFunction): void {
  if (
    req.headers['content-length'] === undefined &&
    req.headers['transfer-encoding'] === undefined
  ) {
    next();
    return;
  }
  rawBody(req, res, next);
}

/**
 * Request ids: a random per-process prefix and a counter. Unique across restarts and
 * instances without the cost of a UUID per request.
 */
const ID_PREFIX = randomBytes(6).toString('hex');
let requestCounter = 0;
function nextRequestId(): string {
  requestCounter = (requestCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${ID_PREFIX}-${requestCounter.toString(36)}`;
}

/** When the request arrived (`performance.now()`), kept on the response for its `close`. */
const STARTED = Symbol('netdiag.started');
type ObservedResponse = Response & { [STARTED]?: number };

/**
 * The request id (echoed in `X-Request-Id`), the access-log line and the metrics of every
 * request. One `close` listener per response, and the same function for all of them: it reads
 * what it needs from the response, so a request allocates no closure for it. Metric labels
 * are route patterns, never raw URLs (`RouteTable.labelOf`).
 */
function observeRequests(ctx: AppContext, withMetrics: boolean, table: RouteTable) {
  const metrics = withMetrics ? getMetrics(ctx) : undefined;
  const record = metrics ? metricsRecorder(metrics) : undefined;
  const log = ctx.logger;
  // Emitters call listeners with the emitter as `this`.
  const closed = function (this: ObservedResponse): void {
    onClose(this);
  };
  function onClose(res: ObservedResponse): void {
    const req = res.req;
    const ms = performance.now() - (res[STARTED] ?? 0);
    if (record) {
      if (metrics && isProbeRoute(req.path)) metrics.probesInFlight.dec({ route: req.path });
      record(req.method, table.labelOf(req), res.statusCode, ms / 1000);
    }
    if (log.isLevelEnabled('info')) {
      log.info(
        {
          req_id: res.getHeader('X-Request-Id'),
          method: req.method,
          url: redactUrl(req.originalUrl),
          status: res.statusCode,
          ms,
          ip: callerIp(req),
        },
        'request',
      );
    }
  }
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('X-Request-Id', nextRequestId());
    if (!record && !log.isLevelEnabled('info')) return next();
    (res as ObservedResponse)[STARTED] = performance.now();
    if (metrics && isProbeRoute(req.path)) metrics.probesInFlight.inc({ route: req.path });
    res.on('close', closed);
    next();
  };
}
