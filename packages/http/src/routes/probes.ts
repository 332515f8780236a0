import type { RouteDef } from './types.js';

export const probeRoutes: RouteDef[] = [];
