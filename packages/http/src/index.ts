/**
 * @module
 * `@netdiag/http`: the netdiag HTTP API as an Express 5 app (`createApp`) or router
 * (`createRouter`), configured from CONTRACT §5 options or the environment (`loadConfig`).
 */
export {
  BODY_LIMIT_BYTES,
  type CreateAppOptions,
  createApp,
  createRouter,
  type NetdiagApp,
} from './app.js';
export { callerConnection, FORWARDED_HTTP_VERSION, FORWARDED_TLS_VERSION } from './caller.js';
export { type ClusterOptions, isClusterWorker, runPrimary } from './cluster.js';
export {
  type AppConfig,
  DEFAULT_CONFIG,
  DEFAULT_SERVER_CONFIG,
  loadConfig,
  resolveConfig,
  type ServerConfig,
} from './config.js';
export { type AppContext, closeContext, createContext, service } from './context.js';
export { type ExpressObjectClasses, expressObjectClasses } from './express-objects.js';
export { buildOpenApi } from './openapi/document.js';
export { ROUTES } from './routes/index.js';
export type { ParamDef, RouteDef, RouteRequest } from './routes/types.js';
export { type StartedServer, startServer } from './server.js';
export { VERSION } from './version.js';
