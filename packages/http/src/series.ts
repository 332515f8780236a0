/**
 * Express middleware run in order as ONE middleware. Express's router matches the path of every
 * layer it passes and allocates for each; the request path of `createApp` is a fixed sequence
 * that applies to every request, so it is one layer (bench/ip/http.bench.ts measured the
 * difference). Semantics as in Express 5: `next(error)` stops the sequence and hands the error
 * on, `next('route')` skips the rest, a handler's rejected promise or throw does the same, and `next()` after the last step
 * leaves to the app's next layer (the 404).
 * @module
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function series(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown) => {
      // \`next('route')\` and \`next('router')\` leave the sequence, as they leave an Express router.
      if (error === 'route' || error === 'router') return done();
      if (error !== undefined && error !== null) return done(error);
      const handler = handlers[index++];
      if (handler === undefined) return done();
      try {
        const result: unknown = handler(req, res, next);
        if (result instanceof Promise) result.catch(done);
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
