import type { RouteDef } from './types.js';

export const dnsRoutes: RouteDef[] = [];
