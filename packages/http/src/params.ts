/**
 * Query and path parameters. A query value is read with core's `textParam`, as the MCP tools read
 * their arguments, so a missing or malformed one gets the same message on both faces; every
 * failure is an `InvalidInputError` whose message names the parameter and the expected form.
 * @module
 */
import { InvalidInputError, PARAM_FORMS, type ParamName, textParam } from '@netdiag/core';
import type { Request } from 'express';
import type { RouteDef } from './routes/types.js';

/**
 * A single text query parameter. A repeated parameter (`?ip=a&ip=b`) is a 400: silently
 * picking one would hide a client bug.
 */
export function queryParam(req: Request, name: ParamName, required: true): string;
export function queryParam(req: Request, name: ParamName, required?: false): string | undefined;
export function queryParam(req: Request, name: ParamName, required = false): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (Array.isArray(value)) {
    throw new InvalidInputError(
      `Query parameter "${name}" must be given once, as ${PARAM_FORMS[name]}`,
      name,
    );
  }
  return textParam(value, name, required);
}

/** A path parameter (always present when the route matched). */
export function pathParam(req: Request, name: string): string {
  const value = (req.params as Record<string, string | undefined>)[name];
  return value ?? '';
}

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
