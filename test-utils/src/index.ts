export {
  type DnsServerOptions,
  type DnsTestServer,
  type QueryAction,
  type QueryInfo,
  startDnsServer,
  type Zone,
  type ZoneRecords,
} from './dns-server.js';
export { installNetworkGuard, isLoopback, takeViolations } from './guard.js';
export {
  freePort,
  type HttpTarget,
  type HttpTargetOptions,
  type RouteHandler,
  startHttpTarget,
} from './http-server.js';
export { type RedisTestServer, redisAvailable, startRedis } from './redis-server.js';
