/**
 * The server's configuration: the engine's keys (`NetdiagConfig`, read by core's loader) plus
 * what only a server needs — listening, proxies, limits, Redis, logging, metrics, shutdown and
 * TLS (CONTRACT §5). `createApp`, `createRouter` and the bin read the same configuration: the
 * environment by default, typed options on top. Invalid values fail with a message naming the
 * variable.
 * @module
 */
import {
  ConfigError,
  checkNetdiagConfig,
  DEFAULT_NETDIAG_CONFIG,
  type Env,
  envReader,
  loadNetdiagConfig,
  type NetdiagConfig,
  parseCidrList,
} from '@netdiag/core';

/** What only the server reads. */
export interface ServerConfig {
  /** Listen port. @default 8080 */
  port: number;
  /** Listen address. @default '0.0.0.0' */
  host: string;
  /**
   * Express `trust proxy` value: `false` (default: the socket address is the caller), a hop
   * count, `loopback`, or a list of CIDRs/addresses whose `X-Forwarded-For` is believed.
   */
  trustProxy: boolean | number | string | string[];
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
  /** Serve Prometheus metrics at `GET /metrics`. @default true */
  metrics: boolean;
  /** Longest wait for in-flight requests on shutdown, in seconds. @default 10 */
  shutdownTimeoutS: number;
  /**
   * Seconds a client has to send a request's headers, counted from the connection or the end
   * of its previous request; an idle or slow-header connection is closed then (slow loris).
   * @default 10
   */
  headersTimeoutS: number;
  /** Seconds a client has to send a whole request, body included. @default 30 */
  requestTimeoutS: number;
  /**
   * Concurrent connections the server accepts; further ones are closed at once. The default
   * stays under the usual 1,024 open-file soft limit with room for upstream sockets. 0: no cap.
   * @default 768
   */
  maxConnections: number;
  /**
   * How often, in seconds, the server looks whether its IP data file changed (`netdiag data
   * update` wrote a new one) and reloads it; it also reloads on SIGHUP. 0: only on SIGHUP.
   * @default 300
   */
  ipDataCheckS: number;
  /** Serve the MCP tools over streamable HTTP at `/mcp`. @default true */
  mcp: boolean;
  /**
   * Origins (`https://app.example`) whose browser pages may call `/mcp`. A request with any
   * other `Origin` header is refused with 403 (the MCP specification's defence against DNS
   * rebinding); requests without one (agents, CLIs) are not affected. @default []
   */
  mcpAllowedOrigins: string[];
  /**
   * PEM certificate (chain) file: with `tlsKey`, the server speaks HTTPS (HTTP/1.1) itself and
   * `/api/ip` reports the caller's TLS version. Both or neither.
   */
  tlsCert: string | undefined;
  /** PEM private key file for `tlsCert`. */
  tlsKey: string | undefined;
}

export interface AppConfig extends NetdiagConfig, ServerConfig {}

export const DEFAULT_SERVER_CONFIG: Readonly<ServerConfig> = Object.freeze({
  port: 8080,
  host: '0.0.0.0',
  trustProxy: false,
  rateLimit: 60,
  toolRateLimit: 20,
  rateWindowS: 60,
  redisUrl: undefined,
  logLevel: 'info',
  metrics: true,
  shutdownTimeoutS: 10,
  headersTimeoutS: 10,
  requestTimeoutS: 30,
  maxConnections: 768,
  ipDataCheckS: 300,
  mcp: true,
  mcpAllowedOrigins: [],
  tlsCert: undefined,
  tlsKey: undefined,
});

export const DEFAULT_CONFIG: Readonly<AppConfig> = Object.freeze({
  ...DEFAULT_NETDIAG_CONFIG,
  ...DEFAULT_SERVER_CONFIG,
});

/** Reads CONTRACT §5 variables; throws `ConfigError` naming the first bad one. */
export function loadConfig(env: Env = process.env): AppConfig {
  const read = envReader(env);
  const d = DEFAULT_SERVER_CONFIG;
  const trust = read.str('NETDIAG_TRUST_PROXY');
  return validateServerConfig({
    ...loadNetdiagConfig(env),
    port: read.int('PORT', 0, 65535) ?? d.port,
    host: read.str('HOST') ?? d.host,
    trustProxy: trust === undefined ? d.trustProxy : parseTrustProxy(trust),
    rateLimit: read.int('NETDIAG_RATE_LIMIT', 1, 1_000_000) ?? d.rateLimit,
    toolRateLimit: read.int('NETDIAG_TOOL_RATE_LIMIT', 1, 1_000_000) ?? d.toolRateLimit,
    rateWindowS: read.int('NETDIAG_RATE_WINDOW_S', 1, 86_400) ?? d.rateWindowS,
    redisUrl: read.str('REDIS_URL'),
    logLevel: read.str('NETDIAG_LOG_LEVEL') ?? read.str('LOG_LEVEL') ?? d.logLevel,
    metrics: read.bool('NETDIAG_METRICS') ?? d.metrics,
    shutdownTimeoutS: read.int('NETDIAG_SHUTDOWN_TIMEOUT_S', 0, 3600) ?? d.shutdownTimeoutS,
    headersTimeoutS: read.int('NETDIAG_HEADERS_TIMEOUT_S', 1, 3600) ?? d.headersTimeoutS,
    requestTimeoutS: read.int('NETDIAG_REQUEST_TIMEOUT_S', 1, 3600) ?? d.requestTimeoutS,
    maxConnections: read.int('NETDIAG_MAX_CONNECTIONS', 0, 1_000_000) ?? d.maxConnections,
    ipDataCheckS: read.int('NETDIAG_IP_DATA_CHECK_S', 0, 86_400) ?? d.ipDataCheckS,
    mcp: read.bool('NETDIAG_MCP') ?? d.mcp,
    mcpAllowedOrigins: parseOrigins(read.str('NETDIAG_MCP_ALLOWED_ORIGINS')),
    tlsCert: read.str('NETDIAG_TLS_CERT'),
    tlsKey: read.str('NETDIAG_TLS_KEY'),
  });
}

/**
 * The configuration of `createApp` / `createRouter`: the environment (`env`, default
 * `process.env`) with `options` on top; `env: false` ignores the environment (tests).
 */
export function resolveConfig(
  options: Partial<AppConfig> = {},
  env: Env | false = process.env,
): AppConfig {
  const config: AppConfig = env === false ? { ...DEFAULT_CONFIG } : loadConfig(env);
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) (config as unknown as Record<string, unknown>)[key] = value;
  }
  return validateServerConfig(checkNetdiagConfig(config) as AppConfig);
}

function validateServerConfig(config: AppConfig): AppConfig {
  if ((config.tlsCert === undefined) !== (config.tlsKey === undefined)) {
    throw new ConfigError(
      'NETDIAG_TLS_CERT and NETDIAG_TLS_KEY go together: set both (PEM files) or neither',
    );
  }
  if (config.requestTimeoutS < config.headersTimeoutS) {
    throw new ConfigError(
      `NETDIAG_REQUEST_TIMEOUT_S (${config.requestTimeoutS}) must not be shorter than NETDIAG_HEADERS_TIMEOUT_S (${config.headersTimeoutS})`,
    );
  }
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(config.logLevel)) {
    throw new ConfigError(
      `NETDIAG_LOG_LEVEL must be one of ${levels.join(', ')}, got "${config.logLevel}"`,
    );
  }
  return config;
}

function parseTrustProxy(value: string): ServerConfig['trustProxy'] {
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

/** NETDIAG_MCP_ALLOWED_ORIGINS: comma-separated origins, each `scheme://host[:port]`. */
function parseOrigins(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(',').map((entry) => {
    const text = entry.trim();
    let origin: string;
    try {
      origin = new URL(text).origin;
    } catch {
      origin = 'null';
    }
    if (origin === 'null' || origin !== text.replace(/\/$/, '')) {
      throw new ConfigError(
        `NETDIAG_MCP_ALLOWED_ORIGINS must list origins such as https://app.example, got "${text}"`,
      );
    }
    return origin;
  });
}
