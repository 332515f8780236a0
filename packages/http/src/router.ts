/**
 * Builds an Express router from the route table: parse → call core → envelope. Nothing else.
 * @module
 */
import express, { type Request, type Response, type Router } from 'express';
import { callerIp } from './caller.js';
import type { AppContext } from './context.js';
import { sendData, sendError } from './envelope.js';
import { ROUTES } from './routes/index.js';
import type { RouteDef, RouteRequest } from './routes/types.js';

export function buildRouter(ctx: AppContext, routes: readonly RouteDef[] = ROUTES): Router {
  const router = express.Router();
  const methodsByPath = new Map<string, string[]>();
  for (const route of routes) {
    const methods = methodsByPath.get(route.path) ?? [];
    methods.push(route.method.toUpperCase());
    methodsByPath.set(route.path, methods);
    router[route.method](route.path, async (req: Request, res: Response) => {
      const data = await route.handle(routeRequest(req, res, ctx));
      if (!res.headersSent) sendData(res, data);
    });
  }
  // A known path with another method: 405 with Allow (RFC 9110 §15.5.6).
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    router.all(path, (req: Request, res: Response) => {
      res.setHeader('Allow', allow);
      sendError(res, 405, `Method ${req.method} not allowed on ${path}; allowed: ${allow}`);
    });
  }
  return router;
}

/**
 * The handler's view of a request. `signal` aborts when the client goes away before the answer
 * is written; it is created on first use, because most routes never look at it and an
 * AbortController per request is measurable under load.
 */
function routeRequest(req: Request, res: Response, ctx: AppContext): RouteRequest {
  let controller: AbortController | undefined;
  return {
    req,
    res,
    ctx,
    callerIp: callerIp(req),
    get signal() {
      if (!controller) {
        const c = new AbortController();
        controller = c;
        if (res.destroyed && !res.writableEnded) c.abort();
        else
          res.once('close', () => {
            if (!res.writableEnded) c.abort();
          });
      }
      return controller.signal;
    },
  };
}
