/**
 * @module
 * `@netdiag/core/capabilities`: the netdiag engine and every capability, without the answers'
 * zod schemas and the tool table. The root entry `@netdiag/core` is this and those two.
 *
 * For short-lived processes that only call capabilities (the CLI): the schemas need zod, whose
 * import is about half of the root entry's (~90 of ~170–230 ms and ~17 MB, measured on the
 * built package; BENCHMARKS.md, "CLI start"). The answer types are here all the same.
 *
 * This list, with the schemas and tools that `index.ts` adds, is the public API;
 * `etc/core.api.md` records it (api-extractor). Everything not listed is internal.
 */

export {
  type AsnIpResult,
  type AsnNameMatch,
  type AsnNameResult,
  type AsnNumberResult,
  type AsnSearchResult,
  parseAsn,
  type SearchAsnOptions,
  searchAsn,
} from './asn/index.js';
export {
  type BlacklistListResult,
  type BlacklistResult,
  type BlacklistStatus,
  type CheckBlacklistOptions,
  checkBlacklist,
  DNSBL_ZONES,
  type DnsblZone,
  dnsblQueryName,
} from './blocklist/index.js';
// --- Breach exposure, the score, this machine's address ---
export {
  type BreachResult,
  type CheckBreachOptions,
  checkBreach,
} from './breach/index.js';
export {
  type AddressReport,
  type CallerAnswer,
  type CallerAnswerV1,
  type CallerConnection,
  type ConnectionInfo,
  callerAnswer,
  callerAnswerV1,
  formatHttpVersion,
  isTlsVersionName,
  privacySignalsOf,
  type ScoreAnswer,
  scoreAnswer,
  type V1Record,
} from './caller/index.js';
export {
  checkNetdiagConfig,
  DEFAULT_NETDIAG_CONFIG,
  type Env,
  type EnvReader,
  envReader,
  loadNetdiagConfig,
  NETDIAG_CONFIG_ENV,
  type NetdiagConfig,
  resolveNetdiagConfig,
} from './config/index.js';
// --- DNS and blocklists ---
export {
  DNS_TYPES,
  DNS_TYPES_V1,
  type DnsExtendedErrorV1,
  type DnsLookupResult,
  type DnsLookupV1Result,
  type DnsQueryInput,
  type DnsRecordV0,
  type DnsRecordV1,
  type LookupDnsOptions,
  lookupDns,
  lookupDnsV1,
  type ReverseDnsOptions,
  type ReverseDnsResult,
  reverseDns,
} from './dns/index.js';
// --- DNSSEC validation (issue 19) ---
export {
  type DenialProof,
  DNSSEC_LIMITS,
  type DnssecAnswer,
  type DnssecFailure,
  type DnssecKey,
  type DnssecResult,
  type DnssecStatus,
  type DsInfo,
  IANA_ROOT_ANCHORS,
  type SignatureCheck,
  type SignatureOutcome,
  SUPPORTED_ALGORITHMS,
  type ValidateDnssecOptions,
  validateDnssec,
  type ZoneLink,
} from './dnssec/index.js';
// --- Email authentication ---
export {
  type CheckEmailAuthInput,
  type CheckEmailAuthOptions,
  COMMON_DKIM_SELECTORS,
  checkEmailAuth,
  EMAIL_AUTH_GRADES,
  EMAIL_AUTH_SECTION_LABELS,
  EMAIL_AUTH_SECTIONS,
  type EmailAuthGrade,
  type EmailAuthReport,
  type EmailAuthSection,
  type EvaluateSpfInput,
  type EvaluateSpfOptions,
  evaluateSpf,
  type Finding,
  type FindingSeverity,
  GRADE_RULE,
  parseDmarcRecord,
  parseSpfRecord,
  type SectionStatus,
  type SpfEvaluation,
} from './email-auth/index.js';
// --- The engine and its configuration ---
export {
  type BulkAnswer,
  type CallOptions,
  type CreateNetdiagOptions,
  createNetdiag,
  DEFAULT_ENGINE_TIMEOUTS,
  type EmailAuthInput,
  type EngineTimeouts,
  type IpDataInput,
  type Netdiag,
  type PortScanInput,
  type ScanCallOptions,
  type SpfInput,
} from './engine/index.js';
// --- Errors ---
export {
  AbortedError,
  ConfigError,
  type ErrorCode,
  INVALID_IP_MESSAGE,
  InvalidInputError,
  InvalidIpError,
  isNetdiagError,
  NetdiagError,
  type NetdiagErrorOptions,
  NotFoundError,
  publicErrorMessage,
  TargetNotAllowedError,
  ThrottledError,
  TimeoutError,
  UpstreamError,
} from './errors.js';
export {
  type FeedPolicy,
  type FeedStatus,
  INTEL_FEEDS,
  type IntelFeedDefinition,
  type NetdiagLogger,
  TOR_EXIT_FEED,
} from './feeds/index.js';
export {
  type GradeSecurityHeadersOptions,
  gradeSecurityHeaders,
  type HeaderFinding,
  SECURITY_GRADES,
  type SecurityGrade,
  type SecurityHeadersResult,
} from './headers/index.js';
// --- IP intelligence ---
export {
  BULK_MAX_IPS,
  type BulkAnswerItem,
  type BulkEntryError,
  type BulkLookupOptions,
  type BulkLookupResult,
  bulkAnswerItem,
  bulkLookup,
  type DatasetInfo,
  findIpDataFile,
  formatV4,
  formatV6,
  type IntelData,
  IP_DATA_FILE,
  IP_DATA_PACKAGE,
  type IpDataMeta,
  type IpDatasets,
  type IpDataUpdate,
  type IpInfo,
  type IpLocation,
  type IpNetwork,
  type IpPlace,
  type IpPrivacy,
  type LoadIpDatasetsOptions,
  type LookupAnswer,
  type LookupAnswerV1,
  type LookupIpOptions,
  loadIntelData,
  loadIpDatasets,
  lookupAnswer,
  lookupAnswerV1,
  lookupIp,
  type OpenIpLookupOptions,
  openIpLookup,
  type PrivacySignal,
  type PrivacySignalName,
  parseTorExitList,
  type TorExitList,
  type UpdateIpDataOptions,
  updateIpData,
} from './ip/index.js';
export {
  type DiscoverPublicIpOptions,
  discoverPublicIp,
  MYIP_METHODS,
  type MyIpMethod,
  parseMyIpServers,
} from './myip/index.js';
// --- Seams: DNS, caches, options ---
export { type Cache, createMemoryCache, type MemoryCacheOptions } from './net/cache.js';
export type {
  CaaValue,
  DnsQueryOptions,
  DnsRecord,
  DnsResolver,
  DnsResponse,
  ExtendedDnsError,
  MxValue,
  Rcode,
  RecordType,
  SoaValue,
  SrvValue,
} from './net/dns-types.js';
export { normaliseDomain, registrableDomain } from './net/domain.js';
// --- Addresses, names and other grammars ---
export { formatHostPort, type HostPort, parseHostPort } from './net/host-port.js';
export {
  type IpVersion,
  normaliseForwardedAddress,
  normaliseSocketAddress,
  type ParsedIp,
  parseIp,
  parseIpLiteral,
  requireIp,
  reverseName,
} from './net/ip.js';
export {
  type AddressClass,
  type CidrSet,
  classifyAddress,
  isPublicAddress,
  LOCAL_NETWORK_RANGES,
  parseCidrList,
} from './net/ranges.js';
export { resolverLookup } from './net/resolve-host.js';
export {
  createResolver,
  type Resolver,
  type ResolverOptions,
} from './net/resolver.js';
export type {
  DnskeyValue,
  DsValue,
  NaptrValue,
  Nsec3ParamValue,
  Nsec3Value,
  NsecValue,
  RrsigValue,
  SshfpValue,
  SvcbValue,
  TlsaValue,
} from './net/resolver-present-modern.js';
export { type DnsServer, parseDnsServer } from './net/resolver-servers.js';
export type { SvcParams } from './net/svcb.js';
// --- The parameters' forms, in the words of their 400s (parsed by `parseParams`) ---
export { MAX_PARAM_LENGTH, PARAM_FORMS, type ParamName } from './params.js';
export {
  createScanLimiter,
  MAX_PORTS_PER_REQUEST,
  PORT_CATALOG,
  type PortResult,
  parsePortList,
  type ScanLimiter,
  type ScanLimiterLabel,
  type ScanPortsInput,
  type ScanPortsOptions,
  type ScanPortsResult,
  scanPorts,
} from './ports/index.js';
// --- The SPEC shapes of the answers (types only: the zod schemas are in the root entry) ---
export type * from './schemas/index.js';
export {
  describeScoreTable,
  type Grade,
  type GradeLabel,
  type IpScore,
  SCORE_WEIGHTS,
  type ScoreEvidence,
  type ScoreIpOptions,
  scoreIp,
} from './score/index.js';
// --- Probes: site, security headers, ports ---
export {
  type CheckSiteOptions,
  checkSite,
  type SiteCheckResult,
  type SiteTls,
} from './site/index.js';
export {
  type AcceptedSuite,
  type CertificateFacts,
  type CheckTlsOptions,
  type CipherStrength,
  type CipherSuiteInfo,
  checkTls,
  createTlsCheckLimiter,
  describeCipherSuite,
  type GradeCap,
  type GradeInput,
  MAX_CERTIFICATE_MESSAGE,
  MAX_CONCURRENT_TLS_CHECKS,
  MAX_HANDSHAKES_PER_CHECK,
  MAX_QUEUED_TLS_CHECKS,
  MAX_REPORTED_CERTIFICATES,
  NON_TLS_PORTS,
  type ProtocolSupport,
  rateTls,
  rsaEquivalentBits,
  signatureAlgorithm,
  TLS_CHECK_RETRY_AFTER_S,
  type TlsCheckResult,
  type TlsGrade,
  type TlsRating,
  type TlsVersion,
} from './tls/index.js';
export type { BaseOptions } from './types.js';
// --- Registration data ---
export {
  type RdapLookupOptions,
  type RdapResourceOptions,
  type RdapResourceResult,
  rdapLookup,
  rdapLookupResource,
  type WhoisLookupResult,
  type WhoisOptions,
  type WhoisResult,
  whois,
} from './whois/index.js';
