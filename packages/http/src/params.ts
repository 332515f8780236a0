/**
 * Query parameter names. The values are read by core's `parseParams` with the capability's
 * schema (routes/capabilities.ts), as the MCP tools read their arguments; what is left to the
 * HTTP face is refusing a name the route does not take.
 * @module
 */
import { InvalidInputError } from '@netdiag/core';
import type { Request } from 'express';
import type { RouteDef } from './routes/types.js';

/**
 * Query parameters every route ignores: `_` is the cache-busting parameter jQuery adds to GET
 * requests with `cache: false` (a timestamp), which clients add without thinking of the API.
 */
export const IGNORED_PARAMS: readonly string[] = ['_'];

/** The query parameter names each route takes, worked out once per route. */
const knownParams = new WeakMap<RouteDef, ReadonlySet<string>>();

/**
 * Refuses a query parameter the route does not declare: a misspelt or wrongly cased name
 * (`?TYPE=MX`) would otherwise be ignored and the answer would be for the default. Routes under
 * `/api/` only (not the plain-text page routes, `/healthz`, `/metrics` or `/mcp`), and not those
 * with `anyQuery`. Names are case-sensitive, as the query is in a URL (RFC 3986 §6.2.2.1
 * folds only the scheme and host).
 */
export function refuseUnknownParams(req: Request, route: RouteDef): void {
  if (route.anyQuery || !route.path.startsWith('/api/') || !req.url.includes('?')) return;
  let known = knownParams.get(route);
  if (known === undefined) {
    known = new Set((route.params ?? []).filter((p) => p.in === 'query').map((p) => p.name));
    knownParams.set(route, known);
  }
  const unknown = Object.keys(req.query as object).filter(
    (name) => !known.has(name) && !IGNORED_PARAMS.includes(name),
  );
  if (unknown.length === 0) return;
  // A name is echoed in full only when short: the query can be kilobytes long.
  const names = unknown
    .map((name) => `"${name.length > 40 ? `${name.slice(0, 40)}…` : name}"`)
    .join(', ');
  const takes = known.size === 0 ? 'no query parameters' : [...known].join(', ');
  throw new InvalidInputError(
    `Unknown parameter${unknown.length > 1 ? 's' : ''} ${names}: ${route.path} takes ${takes}.`,
    unknown[0],
  );
}
