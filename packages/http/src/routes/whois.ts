import type { RouteDef } from './types.js';

export const whoisRoutes: RouteDef[] = [];
