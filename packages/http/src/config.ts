/**
 * Configuration from the environment (CONTRACT §5). Every key also exists as a typed option
 * of `createApp`; invalid values fail at start-up with a message naming the variable.
 * @module
 */
import { ConfigError, parseCidrList } from '@netdiag/core';

export interface AppConfig {
  /** Listen port. @default 8080 */
  port: number;
  /** Listen address. @default '0.0.0.0' */
  host: string;
  /**
   * Express `trust proxy` value: `false` (default: the socket address is the caller), a hop
   * count, `loopback`, or a list of CIDRs/addresses whose `X-Forwarded-For` is believed.
   */
  trustProxy: boolean | number | string | string[];
  /** DNS servers (`ip`, `ip:port`, `[v6]:port`) for all DNS work; empty = the system's. */
  dnsServers: string[];
  /** DNS-over-HTTPS endpoint (RFC 8484) used instead of UDP/TCP. */
  dohUrl: string | undefined;
  rdapBootstrapUrl: string;
  /** `host:port` of the root of the WHOIS referral chain. */
  whoisServer: string;
  breachApiUrl: string;
  torExitListUrl: string;
  /** MaxMind-format City database used instead of the embedded DB-IP data. */
  geoipDb: string | undefined;
  /** MaxMind-format ASN database used instead of the embedded ip-location-db data. */
  asnDb: string | undefined;
  /** CIDRs exempt from the SSRF block (CONTRACT §4). */
  allowedTargets: string[];
  /** Requests per window per client over all `/api` routes. @default 60 */
  rateLimit: number;
  /** Requests per window per client on `/api/ports` and `/api/security-headers`. @default 20 */
  toolRateLimit: number;
  /** Rate-limit window in seconds. @default 60 */
  rateWindowS: number;
  /** Redis URL for shared rate-limit counters and caches. */
  redisUrl: string | undefined;
  /** pino level (`silent` in tests). @default 'info' */
  logLevel: string;
  /** Directory for caches kept across restarts (Tor list, ASN index). @default OS temp dir */
  cacheDir: string | undefined;
  /** Serve Prometheus metrics at `GET /metrics`. @default true */
  metrics: boolean;
  /** Longest wait for in-flight requests on shutdown, in seconds. @default 10 */
  shutdownTimeoutS: number;
  /**
   * PEM certificate (chain) file: with `tlsKey`, the server speaks HTTPS (HTTP/1.1) itself and
   * `/api/ip` reports the caller's TLS version. Both or neither.
   */
  tlsCert: string | undefined;
  /** PEM private key file for `tlsCert`. */
  tlsKey: string | undefined;
}

export const DEFAULT_CONFIG: AppConfig = {
  port: 8080,
  host: '0.0.0.0',
  trustProxy: false,
  dnsServers: [],
  dohUrl: undefined,
  rdapBootstrapUrl: 'https://data.iana.org/rdap/dns.json',
  whoisServer: 'whois.iana.org:43',
  breachApiUrl: 'https://api.xposedornot.com',
  torExitListUrl: 'https://check.torproject.org/torbulkexitlist',
  geoipDb: undefined,
  asnDb: undefined,
  allowedTargets: [],
  rateLimit: 60,
  toolRateLimit: 20,
  rateWindowS: 60,
  redisUrl: undefined,
  logLevel: 'info',
  cacheDir: undefined,
  metrics: true,
  shutdownTimeoutS: 10,
  tlsCert: undefined,
  tlsKey: undefined,
};

type Env = Record<string, string | undefined>;

/** Reads CONTRACT §5 variables; throws `ConfigError` naming the first bad one. */
export function loadConfig(env: Env = process.env): AppConfig {
  const config: AppConfig = { ...DEFAULT_CONFIG };
  const read = (key: string) => {
    const value = env[key]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const int = (key: string, min: number, max: number): number | undefined => {
    const value = read(key);
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new ConfigError(`${key} must be a whole number from ${min} to ${max}, got "${value}"`);
    }
    return n;
  };
  const list = (key: string) =>
    (read(key) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  config.port = int('PORT', 0, 65535) ?? config.port;
  config.host = read('HOST') ?? config.host;
  const trust = read('NETDIAG_TRUST_PROXY');
  if (trust !== undefined) config.trustProxy = parseTrustProxy(trust);
  config.dnsServers = list('NETDIAG_DNS_SERVERS');
  config.dohUrl = read('NETDIAG_DOH_URL');
  config.rdapBootstrapUrl = read('NETDIAG_RDAP_BOOTSTRAP_URL') ?? config.rdapBootstrapUrl;
  config.whoisServer = read('NETDIAG_WHOIS_SERVER') ?? config.whoisServer;
  config.breachApiUrl = read('NETDIAG_BREACH_API_URL') ?? config.breachApiUrl;
  config.torExitListUrl = read('NETDIAG_TOR_EXIT_LIST_URL') ?? config.torExitListUrl;
  config.geoipDb = read('NETDIAG_GEOIP_DB');
  config.asnDb = read('NETDIAG_ASN_DB');
  config.allowedTargets = list('NETDIAG_ALLOWED_TARGETS');
  config.rateLimit = int('NETDIAG_RATE_LIMIT', 1, 1_000_000) ?? config.rateLimit;
  config.toolRateLimit = int('NETDIAG_TOOL_RATE_LIMIT', 1, 1_000_000) ?? config.toolRateLimit;
  config.rateWindowS = int('NETDIAG_RATE_WINDOW_S', 1, 86_400) ?? config.rateWindowS;
  config.redisUrl = read('REDIS_URL');
  config.logLevel = read('NETDIAG_LOG_LEVEL') ?? read('LOG_LEVEL') ?? config.logLevel;
  config.cacheDir = read('NETDIAG_CACHE_DIR');
  const metrics = read('NETDIAG_METRICS');
  if (metrics !== undefined) {
    if (!['on', 'off', 'true', 'false', '1', '0'].includes(metrics)) {
      throw new ConfigError(`NETDIAG_METRICS must be on or off, got "${metrics}"`);
    }
    config.metrics = ['on', 'true', '1'].includes(metrics);
  }
  config.shutdownTimeoutS = int('NETDIAG_SHUTDOWN_TIMEOUT_S', 0, 3600) ?? config.shutdownTimeoutS;
  config.tlsCert = read('NETDIAG_TLS_CERT');
  config.tlsKey = read('NETDIAG_TLS_KEY');
  return validateConfig(config);
}

/** Fills defaults and checks the values given as options to `createApp`. */
export function resolveConfig(options: Partial<AppConfig> = {}): AppConfig {
  const config = { ...DEFAULT_CONFIG };
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) (config as Record<string, unknown>)[key] = value;
  }
  return validateConfig(config);
}

function validateConfig(config: AppConfig): AppConfig {
  if ((config.tlsCert === undefined) !== (config.tlsKey === undefined)) {
    throw new ConfigError(
      'NETDIAG_TLS_CERT and NETDIAG_TLS_KEY go together: set both (PEM files) or neither',
    );
  }
  for (const [key, value] of [
    ['NETDIAG_RDAP_BOOTSTRAP_URL', config.rdapBootstrapUrl],
    ['NETDIAG_BREACH_API_URL', config.breachApiUrl],
    ['NETDIAG_TOR_EXIT_LIST_URL', config.torExitListUrl],
    ['NETDIAG_DOH_URL', config.dohUrl],
  ] as const) {
    if (value !== undefined && !isHttpUrl(value)) {
      throw new ConfigError(`${key} must be an http(s) URL, got "${value}"`);
    }
  }
  for (const server of config.dnsServers) {
    if (!parseHostPort(server, 53)) {
      throw new ConfigError(
        `NETDIAG_DNS_SERVERS entries must be ip, ip:port or [ipv6]:port, got "${server}"`,
      );
    }
  }
  if (!parseHostPort(config.whoisServer, 43, true)) {
    throw new ConfigError(
      `NETDIAG_WHOIS_SERVER must be host or host:port, got "${config.whoisServer}"`,
    );
  }
  try {
    parseCidrList(config.allowedTargets);
  } catch (error) {
    throw new ConfigError(`NETDIAG_ALLOWED_TARGETS: ${(error as Error).message}`);
  }
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(config.logLevel)) {
    throw new ConfigError(
      `NETDIAG_LOG_LEVEL must be one of ${levels.join(', ')}, got "${config.logLevel}"`,
    );
  }
  return config;
}

function parseTrustProxy(value: string): AppConfig['trustProxy'] {
  if (value === 'false' || value === 'off' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((s) => s.trim());
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  for (const entry of entries) {
    if (named.has(entry)) continue;
    try {
      parseCidrList([entry]);
    } catch {
      throw new ConfigError(
        `NETDIAG_TRUST_PROXY must be a hop count, "loopback", "linklocal", "uniquelocal" or CIDRs, got "${entry}"`,
      );
    }
  }
  return entries.length === 1 ? (entries[0] as string) : entries;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** `ip`, `ip:port`, `[v6]:port` (and hostnames when `allowNames`) → host and port. */
export function parseHostPort(
  value: string,
  defaultPort: number,
  allowNames = false,
): { host: string; port: number } | undefined {
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  let host: string;
  let portText: string | undefined;
  if (bracket) {
    host = bracket[1] as string;
    portText = bracket[2];
  } else if ((value.match(/:/g) ?? []).length > 1) {
    host = value; // bare IPv6
  } else {
    [host = '', portText] = value.split(':');
  }
  const port = portText === undefined ? defaultPort : Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  const isIp = /^[\d.]+$/.test(host) ? /^\d+\.\d+\.\d+\.\d+$/.test(host) : host.includes(':');
  if (!isIp && !(allowNames && /^[a-z0-9.-]+$/i.test(host))) return undefined;
  return { host, port };
}
