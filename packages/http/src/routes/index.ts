/**
 * The route table: every documented endpoint, in the order the OpenAPI document lists them.
 * The capabilities' routes come from core's registry (`capabilities.ts`); the rest are the HTTP
 * face's own: the header echo, MCP over HTTP, health and metrics, the page.
 * @module
 */
import { capabilityRoutes } from './capabilities.js';
import { headersRoutes } from './headers.js';
import { mcpRoutes } from './mcp.js';
import { operationRoutes } from './operations.js';
import { pageRoutes } from './page.js';
import type { RouteDef } from './types.js';

export const ROUTES: readonly RouteDef[] = [
  ...capabilityRoutes,
  ...headersRoutes,
  ...mcpRoutes,
  ...operationRoutes,
  ...pageRoutes,
];

export type { ParamDef, RouteDef, RouteRequest } from './types.js';
