/**
 * The engine's configuration (CONTRACT §5): the keys every face shares — upstreams, data,
 * probes and caches. Faces add their own keys (the server's port, limits and logging) and
 * validate only those, so a server-only variable never stops a CLI command.
 * @module
 */
import { ConfigError } from '../errors.js';
import { parseMyIpServers } from '../myip/methods.js';
import { parseHostPort } from '../net/host-port.js';
import { parseCidrList } from '../net/ranges.js';
import { type Env, envReader, isHttpUrl } from './env.js';
import { NETDIAG_CONFIG_ENV } from './env-names.js';

export interface NetdiagConfig {
  /** DNS servers (`ip`, `ip:port`, `[v6]:port`) for all DNS work; empty = the system's. */
  dnsServers: string[];
  /** DNS-over-HTTPS endpoint (RFC 8484) used instead of UDP/TCP. */
  dohUrl: string | undefined;
  /** IANA RDAP bootstrap file for domains (RFC 9224). */
  rdapBootstrapUrl: string;
  /** `host:port` of the root of the WHOIS referral chain. */
  whoisServer: string;
  /** XposedOrNot API base URL. */
  breachApiUrl: string;
  /** Tor Project bulk exit list. */
  torExitListUrl: string;
  /** iCloud Private Relay egress ranges (Apple's egress-ip-ranges.csv), a run-time feed. */
  relayRangesUrl: string;
  /** VPN exit addresses (ProtonVPN exits), a run-time feed. */
  vpnExitsUrl: string;
  /** Cloud ranges (AWS ip-ranges.json), a run-time feed. */
  cloudRangesUrl: string;
  /** MaxMind-format City database used instead of the embedded DB-IP data. */
  geoipDb: string | undefined;
  /** MaxMind-format ASN database used instead of the embedded ip-location-db data. */
  asnDb: string | undefined;
  /** CIDRs exempt from the SSRF block (CONTRACT §4). */
  allowedTargets: string[];
  /** Directory for caches kept across runs (Tor list, AS index, lookup tables). @default OS temp dir */
  cacheDir: string | undefined;
  /**
   * Servers of the public-IP discovery (`netdiag ip`): `name=ip[:port]` or `ip[:port]` entries
   * replacing the built-in OpenDNS / Google servers (tests, air-gapped networks).
   */
  myIpServers: string | undefined;
}

export const DEFAULT_NETDIAG_CONFIG: Readonly<NetdiagConfig> = Object.freeze({
  dnsServers: [],
  dohUrl: undefined,
  rdapBootstrapUrl: 'https://data.iana.org/rdap/dns.json',
  whoisServer: 'whois.iana.org:43',
  breachApiUrl: 'https://api.xposedornot.com',
  torExitListUrl: 'https://check.torproject.org/torbulkexitlist',
  relayRangesUrl: 'https://mask-api.icloud.com/egress-ip-ranges.csv',
  vpnExitsUrl: 'https://raw.githubusercontent.com/tn3w/ProtonVPN-IPs/master/protonvpn_ips.txt',
  cloudRangesUrl: 'https://ip-ranges.amazonaws.com/ip-ranges.json',
  geoipDb: undefined,
  asnDb: undefined,
  allowedTargets: [],
  cacheDir: undefined,
  myIpServers: undefined,
});

export { NETDIAG_CONFIG_ENV } from './env-names.js';

/** Reads the engine's keys from `env`; throws `ConfigError` naming the first bad variable. */
export function loadNetdiagConfig(env: Env = process.env): NetdiagConfig {
  const read = envReader(env);
  const config: Record<string, unknown> = {};
  for (const [key, fallback] of Object.entries(DEFAULT_NETDIAG_CONFIG)) {
    const name = NETDIAG_CONFIG_ENV[key as keyof NetdiagConfig];
    config[key] = Array.isArray(fallback) ? read.list(name) : (read.str(name) ?? fallback);
  }
  return checkNetdiagConfig(config as unknown as NetdiagConfig);
}

/** Defaults filled in for the keys `options` leaves out (or sets to `undefined`), then checked. */
export function resolveNetdiagConfig(options: Partial<NetdiagConfig> = {}): NetdiagConfig {
  const config: NetdiagConfig = { ...DEFAULT_NETDIAG_CONFIG };
  for (const key of Object.keys(DEFAULT_NETDIAG_CONFIG) as (keyof NetdiagConfig)[]) {
    const value = options[key];
    if (value !== undefined) (config as unknown as Record<string, unknown>)[key] = value;
  }
  return checkNetdiagConfig(config);
}

/** Checks every key; the message names the variable a user would set. */
export function checkNetdiagConfig(config: NetdiagConfig): NetdiagConfig {
  const v = NETDIAG_CONFIG_ENV;
  for (const key of [
    'rdapBootstrapUrl',
    'breachApiUrl',
    'torExitListUrl',
    'relayRangesUrl',
    'vpnExitsUrl',
    'cloudRangesUrl',
    'dohUrl',
  ] as const) {
    const value = config[key];
    if (value !== undefined && !isHttpUrl(value)) {
      throw new ConfigError(`${v[key]} must be an http(s) URL, got "${value}"`);
    }
  }
  for (const server of config.dnsServers) {
    if (!parseHostPort(server, { defaultPort: 53 })) {
      throw new ConfigError(
        `${v.dnsServers} entries must be ip, ip:port or [ipv6]:port, got "${server}"`,
      );
    }
  }
  if (!parseHostPort(config.whoisServer, { defaultPort: 43, names: true })) {
    throw new ConfigError(
      `${v.whoisServer} must be host or host:port, got "${config.whoisServer}"`,
    );
  }
  try {
    parseCidrList(config.allowedTargets);
  } catch (error) {
    throw new ConfigError(`${v.allowedTargets}: ${(error as Error).message}`, error);
  }
  try {
    parseMyIpServers(config.myIpServers);
  } catch (error) {
    throw new ConfigError((error as Error).message.replace(/^\[netdiag\] \[myip\] /, ''), error);
  }
  return config;
}
