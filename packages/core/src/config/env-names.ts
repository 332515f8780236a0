/**
 * The environment variable behind each configuration key, in a module of its own so that a
 * reader of a few keys (the one-shot IP lookup, `ip/direct/`) needs none of the checks.
 * @module
 */
import type { NetdiagConfig } from './config.js';

/** The environment variable behind each key, for error messages and docs. */
export const NETDIAG_CONFIG_ENV: Readonly<Record<keyof NetdiagConfig, string>> = {
  dnsServers: 'NETDIAG_DNS_SERVERS',
  dohUrl: 'NETDIAG_DOH_URL',
  rdapBootstrapUrl: 'NETDIAG_RDAP_BOOTSTRAP_URL',
  whoisServer: 'NETDIAG_WHOIS_SERVER',
  breachApiUrl: 'NETDIAG_BREACH_API_URL',
  torExitListUrl: 'NETDIAG_TOR_EXIT_LIST_URL',
  relayRangesUrl: 'NETDIAG_RELAY_RANGES_URL',
  vpnExitsUrl: 'NETDIAG_VPN_EXITS_URL',
  cloudRangesUrl: 'NETDIAG_CLOUD_RANGES_URL',
  geoipDb: 'NETDIAG_GEOIP_DB',
  asnDb: 'NETDIAG_ASN_DB',
  allowedTargets: 'NETDIAG_ALLOWED_TARGETS',
  cacheDir: 'NETDIAG_CACHE_DIR',
  myIpServers: 'NETDIAG_MYIP_SERVERS',
};
