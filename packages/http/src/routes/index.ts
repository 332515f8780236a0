/**
 * The route table: every documented endpoint, in the order the OpenAPI document lists them.
 * Each capability owns one module here.
 * @module
 */
import { headersRoutes } from './headers.js';
import type { RouteDef } from './types.js';

export const ROUTES: readonly RouteDef[] = [...headersRoutes];

export type { ParamDef, RouteDef, RouteRequest } from './types.js';
