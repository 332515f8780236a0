import type { RouteDef } from './types.js';

export const callerRoutes: RouteDef[] = [];
