import type { RouteDef } from './types.js';

export const ipRoutes: RouteDef[] = [];
