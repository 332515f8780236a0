export {
  type DnsServerOptions,
  type DnsTestServer,
  type QueryAction,
  type QueryInfo,
  startDnsServer,
  type Zone,
  type ZoneRecords,
} from './dns-server.js';
export {
  type BuiltHierarchy,
  buildSignedHierarchy,
  dnssecTestTree,
  signedTreeToolsPresent,
  type TestAlgorithm,
  type ZoneSpec,
} from './dnssec-zones.js';
export { LOOPBACK_FEED_ENV } from './feed-env.js';
export { type FilteredPort, startFilteredPort } from './filtered-port.js';
export { installNetworkGuard, isLoopback, takeViolations } from './guard.js';
export {
  freePort,
  type HttpTarget,
  type HttpTargetOptions,
  type RouteHandler,
  startHttpTarget,
} from './http-server.js';
export {
  type HttpsTarget,
  type HttpsTargetOptions,
  makeSelfSignedCert,
  opensslAvailable,
  startHttpsTarget,
} from './https-target.js';
export {
  CHAIN_DEPTH,
  chainNames,
  collidingDnskeys,
  collidingTags,
  forgedRrsigs,
  type KeyTrapCounts,
  keyTagOf,
  keyTrapTree,
} from './keytrap-zones.js';
export {
  type LoopbackDnsProcess,
  type ServedZone,
  startNsd,
  startUnbound,
  toolAvailable,
  type UnboundOptions,
} from './nsd-server.js';
export { prerequisite } from './prerequisite.js';
export { seededRandom32 } from './random.js';
export {
  certificateFlight,
  handshakeMessage,
  handshakeRecords,
  oversizedCertificateFlight,
  type RawTlsServer,
  type RawTlsServerOptions,
  serverHello,
  startRawTlsServer,
} from './raw-tls-server.js';
export {
  bootstrapFile,
  bootstrapRoute,
  type RdapReply,
  type RdapRequestLog,
  type RdapRoute,
  type RdapServerOptions,
  type RdapTestServer,
  startRdapServer,
} from './rdap-server.js';
export { type RedisTestServer, redisAvailable, startRedis } from './redis-server.js';
export { type StallMeter, startStallMeter } from './stall-meter.js';
export { removeTempDirs, tempDir } from './temp-dir.js';
export {
  makeTestPki,
  type OpensslServer,
  startOpensslServer,
  type TestPki,
} from './tls-servers.js';
export { type LoopbackUpstreams, startLoopbackUpstreams } from './upstreams.js';
export {
  startWhoisServer,
  type WhoisReply,
  type WhoisServerOptions,
  type WhoisTestServer,
} from './whois-server.js';
export {
  breachAnalyticsBody,
  startXposedOrNotServer,
  XON_CATALOG,
  type XonAccount,
  type XonAction,
  type XonCatalogEntry,
  type XonFakeServer,
  type XonServerOptions,
} from './xposedornot-server.js';
