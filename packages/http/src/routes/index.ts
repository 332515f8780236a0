/**
 * The route table: every documented endpoint, in the order the OpenAPI document lists them.
 * Each capability owns one module here.
 * @module
 */
import { callerRoutes } from './caller.js';
import { dnsRoutes } from './dns.js';
import { dnssecRoutes } from './dnssec.js';
import { emailAuthRoutes } from './email-auth.js';
import { headersRoutes } from './headers.js';
import { ipRoutes } from './ip.js';
import { mcpRoutes } from './mcp.js';
import { operationRoutes } from './operations.js';
import { pageRoutes } from './page.js';
import { probeRoutes } from './probes.js';
import { tlsRoutes } from './tls.js';
import type { RouteDef } from './types.js';
import { whoisRoutes } from './whois.js';

export const ROUTES: readonly RouteDef[] = [
  ...callerRoutes,
  ...ipRoutes,
  ...dnsRoutes,
  ...dnssecRoutes,
  ...whoisRoutes,
  ...probeRoutes,
  ...tlsRoutes,
  ...emailAuthRoutes,
  ...headersRoutes,
  ...mcpRoutes,
  ...operationRoutes,
  ...pageRoutes,
];

export type { ParamDef, RouteDef, RouteRequest } from './types.js';
