import type { RouteDef } from './types.js';

export const emailAuthRoutes: RouteDef[] = [];
