/**
 * Request and response objects born with the app's Express prototypes.
 *
 * Express 5 hands every request and response its app's prototype when they arrive
 * (`Object.setPrototypeOf(req, app.request)` and the same for `res`, in `app.handle`). Changing
 * the prototype of an object that already exists costs V8 a new map for it, and every later
 * property access on it, in node:http's own code as much as in Express's, then misses the inline
 * caches that requests built one way would share. On this machine that swap alone doubled the CPU
 * time of a bare node:http server answering a constant body (50 → 102 µs per request, paired
 * rounds), and an Express 5 route answering a constant body fell from 193 to 68 µs per request
 * when its objects were made with the prototypes from the start (BENCHMARKS.md, "Request path").
 *
 * node:http lets a server choose the classes it makes (`IncomingMessage` and `ServerResponse`
 * options, Node ≥ 15.7 / 18); these construct node's own objects with the app's prototypes in
 * place, so Express's `setPrototypeOf` finds the prototype already set and changes nothing (V8
 * returns early when the prototype is the same). Express and everything after it see exactly the
 * objects they saw before; nothing else changes.
 * @module
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/** Server options for `http.createServer` / `https.createServer` serving this Express app. */
export interface ExpressObjectClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/**
 * The classes for `createServer({ ...expressObjectClasses(app) }, app)`. Only for the app the
 * server hands its requests to: a request for another app would have its prototype changed again.
 */
export function expressObjectClasses(app: Express): ExpressObjectClasses {
  // node's classes are plain constructor functions: called on `this`, they initialise it as
  // `new` would (node:_http_incoming, node:_http_server). Classes could not take an existing
  // object as their prototype property.
  function AppRequest(
    this: IncomingMessage,
    ...args: ConstructorParameters<typeof IncomingMessage>
  ) {
    (IncomingMessage as unknown as (...a: unknown[]) => void).apply(this, args);
  }
  AppRequest.prototype = app.request;
  function AppResponse(
    this: ServerResponse,
    ...args: ConstructorParameters<typeof ServerResponse>
  ) {
    (ServerResponse as unknown as (...a: unknown[]) => void).apply(this, args);
  }
  AppResponse.prototype = app.response;
  return {
    IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof ServerResponse,
  };
}
