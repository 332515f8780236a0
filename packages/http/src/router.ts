/**
 * Mounts the route table: parse → call core → envelope. Nothing else.
 *
 * The table is dispatched by ONE middleware with a map from path to route, instead of one
 * Express layer per route and method: Express's router tries its layers one after another
 * (a regular expression each), and with 22 routes and their 405 handlers that scan was the
 * largest single cost of a fast request (bench/ip/http.bench.ts). Matching follows Express's
 * defaults, so nothing changes for clients: paths are case-insensitive, one trailing slash is
 * allowed, `HEAD` is answered by the `GET` route, path parameters are one %-decoded segment.
 * @module
 */
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import { callerIp } from './caller.js';
import type { AppContext } from './context.js';
import { sendData, sendError } from './envelope.js';
import { refuseUnknownParams } from './params.js';
import { ROUTES } from './routes/index.js';
import type { RouteDef, RouteRequest } from './routes/types.js';

/** The routes of one path: by method, and the `Allow` value for a 405 (RFC 9110 §15.5.6). */
interface PathRoutes {
  /** The route pattern, as in the table. */
  path: string;
  byMethod: Map<string, RouteDef>;
  allow: string;
}

/** A path with one parameter as its last segment, e.g. `/api/v1/ip/:address`. */
interface ParamPath extends PathRoutes {
  /** Lower-case text before the parameter, ending in `/`. */
  prefix: string;
  name: string;
}

/** A path as routes match it: one trailing slash is ignored, as by Express's router. */
export function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The routes by path: an exact map for static paths and a short list of paths with a final
 * parameter. Throws at start-up on a path shape it cannot match, so a new route cannot be
 * silently unreachable.
 */
export class RouteTable {
  private readonly exact = new Map<string, PathRoutes>();
  private readonly withParam: ParamPath[] = [];

  constructor(routes: readonly RouteDef[] = ROUTES) {
    const byPath = new Map<string, RouteDef[]>();
    for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
    for (const [path, defs] of byPath) {
      const byMethod = new Map(defs.map((def) => [def.method.toUpperCase(), def]));
      const methods = [...byMethod.keys()];
      const allow = [...methods, ...(byMethod.has('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
      const colon = path.indexOf(':');
      if (colon === -1) {
        this.exact.set(path.toLowerCase(), { path, byMethod, allow });
      } else if (path[colon - 1] === '/' && /^[A-Za-z_]\w*$/.test(path.slice(colon + 1))) {
        this.withParam.push({
          path,
          byMethod,
          allow,
          prefix: path.slice(0, colon).toLowerCase(),
          name: path.slice(colon + 1),
        });
      } else {
        throw new Error(`route ${path}: only a final ":name" segment is supported`);
      }
    }
  }

  /** The routes at a request path (trailing slash already removed), if any. */
  at(path: string): PathRoutes | ParamPath | undefined {
    const known = this.exact.get(path.toLowerCase());
    if (known !== undefined) return known;
    for (const candidate of this.withParam) {
      const start = candidate.prefix.length;
      if (path.length <= start || path.slice(0, start).toLowerCase() !== candidate.prefix) continue;
      if (path.includes('/', start)) continue;
      return candidate;
    }
    return undefined;
  }

  /**
   * What metrics and logs call a request: the pattern of the route it goes to (or of the
   * path, when the method is not allowed there), `other` when no route has the path. Never
   * the raw URL, whose values are unbounded. Worked out from the request again rather than
   * kept on it: a property added to every request costs more than the map lookup.
   */
  labelOf(req: Request): string {
    const found = this.at(withoutTrailingSlash(req.path));
    if (found === undefined) return 'other';
    return methodRoute(found, req.method)?.path ?? found.path;
  }
}

/** The route for `method` (`HEAD` is answered by the `GET` route). */
function methodRoute(found: PathRoutes, method: string): RouteDef | undefined {
  return found.byMethod.get(method) ?? (method === 'HEAD' ? found.byMethod.get('GET') : undefined);
}

/** The route table as one Express middleware (`next()` when no route has the path, for the app's 404). */
export function routeDispatcher(
  ctx: AppContext,
  table: RouteTable = new RouteTable(),
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const path = withoutTrailingSlash(req.path);
    const found = table.at(path);
    if (found === undefined) return next();
    const route = methodRoute(found, req.method);
    if (route === undefined) {
      res.setHeader('Allow', found.allow);
      sendError(
        res,
        405,
        `Method ${req.method} not allowed on ${found.path}; allowed: ${found.allow}`,
      );
      return;
    }
    let data: unknown;
    try {
      if ('name' in found) {
        // Broken %-encoding throws a URIError: a 400 (errors.ts), as with Express's router.
        req.params = { [found.name]: decodeURIComponent(path.slice(found.prefix.length)) };
      }
      refuseUnknownParams(req, route);
      data = route.handle(new RouteRequestOf(req, res, ctx));
    } catch (error) {
      return next(error);
    }
    if (data instanceof Promise) {
      data.then((value) => {
        if (!res.headersSent) sendData(res, value);
      }, next);
    } else if (!res.headersSent) {
      sendData(res, data);
    }
  };
}

/** The route table as an Express router, for mounting inside another app (`createRouter`). */
export function buildRouter(ctx: AppContext, routes: readonly RouteDef[] = ROUTES): Router {
  const router = express.Router();
  router.use(routeDispatcher(ctx, new RouteTable(routes)));
  return router;
}

/**
 * The handler's view of a request. `signal` aborts when the client goes away before the answer
 * is written; it is created on first use, because most routes never look at it and an
 * AbortController per request is measurable under load. A class, so that the lazy getter is
 * shared rather than made per request.
 */
class RouteRequestOf implements RouteRequest {
  readonly callerIp: string;
  private controller: AbortController | undefined;

  constructor(
    readonly req: Request,
    readonly res: Response,
    readonly ctx: AppContext,
  ) {
    this.callerIp = callerIp(req);
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      const res = this.res;
      if (res.destroyed && !res.writableEnded) controller.abort();
      else
        res.once('close', () => {
          if (!res.writableEnded) controller.abort();
        });
    }
    return this.controller.signal;
  }
}
