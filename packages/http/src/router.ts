/**
 * Builds an Express router from the route table: parse → call core → envelope. Nothing else.
 * @module
 */
import express, { type Request, type Response, type Router } from 'express';
import { callerIp } from './caller.js';
import type { AppContext } from './context.js';
import { sendData, sendError } from './envelope.js';
import { ROUTES } from './routes/index.js';
import type { RouteDef } from './routes/types.js';

export function buildRouter(ctx: AppContext, routes: readonly RouteDef[] = ROUTES): Router {
  const router = express.Router();
  const methodsByPath = new Map<string, string[]>();
  for (const route of routes) {
    const methods = methodsByPath.get(route.path) ?? [];
    methods.push(route.method.toUpperCase());
    methodsByPath.set(route.path, methods);
    router[route.method](route.path, async (req: Request, res: Response) => {
      const controller = new AbortController();
      const onClose = () => {
        if (!res.writableEnded) controller.abort();
      };
      res.on('close', onClose);
      try {
        const data = await route.handle({
          req,
          res,
          ctx,
          callerIp: callerIp(req),
          signal: controller.signal,
        });
        if (!res.headersSent) sendData(res, data);
      } finally {
        res.off('close', onClose);
      }
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
