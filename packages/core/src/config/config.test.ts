import { describe, expect, test } from 'vitest';
import { isNetdiagError } from '../errors.js';
import {
  DEFAULT_NETDIAG_CONFIG,
  loadNetdiagConfig,
  NETDIAG_CONFIG_ENV,
  resolveNetdiagConfig,
} from './config.js';

const configError = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    if (isNetdiagError(error, 'CONFIG_ERROR')) return error;
    throw error;
  }
  throw new Error('no ConfigError');
};

describe('loadNetdiagConfig', () => {
  test('an empty environment gives the defaults', () => {
    expect(loadNetdiagConfig({})).toEqual(DEFAULT_NETDIAG_CONFIG);
  });

  test('every key is read from its variable, trimmed; lists are comma-separated', () => {
    const config = loadNetdiagConfig({
      NETDIAG_DNS_SERVERS: ' 127.0.0.1:5300 , [::1]:53 ',
      NETDIAG_DOH_URL: 'https://doh.test/dns-query',
      NETDIAG_RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:1/dns.json',
      NETDIAG_WHOIS_SERVER: 'whois.test:4343',
      NETDIAG_BREACH_API_URL: 'http://127.0.0.1:2',
      NETDIAG_TOR_EXIT_LIST_URL: 'http://127.0.0.1:3/tor',
      NETDIAG_RELAY_RANGES_URL: 'http://127.0.0.1:3/relay',
      NETDIAG_VPN_EXITS_URL: 'http://127.0.0.1:3/vpn',
      NETDIAG_CLOUD_RANGES_URL: 'http://127.0.0.1:3/cloud',
      NETDIAG_GEOIP_DB: '/data/city.mmdb',
      NETDIAG_ASN_DB: '/data/asn.mmdb',
      NETDIAG_ALLOWED_TARGETS: '127.0.0.0/8,::1/128',
      NETDIAG_CACHE_DIR: '/var/cache/netdiag',
      NETDIAG_MYIP_SERVERS: 'opendns=127.0.0.1:5301',
    });
    expect(config).toEqual({
      dnsServers: ['127.0.0.1:5300', '[::1]:53'],
      dohUrl: 'https://doh.test/dns-query',
      rdapBootstrapUrl: 'http://127.0.0.1:1/dns.json',
      whoisServer: 'whois.test:4343',
      breachApiUrl: 'http://127.0.0.1:2',
      torExitListUrl: 'http://127.0.0.1:3/tor',
      relayRangesUrl: 'http://127.0.0.1:3/relay',
      vpnExitsUrl: 'http://127.0.0.1:3/vpn',
      cloudRangesUrl: 'http://127.0.0.1:3/cloud',
      geoipDb: '/data/city.mmdb',
      asnDb: '/data/asn.mmdb',
      allowedTargets: ['127.0.0.0/8', '::1/128'],
      cacheDir: '/var/cache/netdiag',
      myIpServers: 'opendns=127.0.0.1:5301',
    });
  });

  test.each([
    ['NETDIAG_DNS_SERVERS', 'dns.example'],
    ['NETDIAG_DNS_SERVERS', '127.0.0.1:99999'],
    ['NETDIAG_DOH_URL', 'ftp://doh.test/'],
    ['NETDIAG_RDAP_BOOTSTRAP_URL', 'not a url'],
    ['NETDIAG_BREACH_API_URL', 'file:///etc/passwd'],
    ['NETDIAG_TOR_EXIT_LIST_URL', '//tor'],
    ['NETDIAG_RELAY_RANGES_URL', 'relay.csv'],
    ['NETDIAG_WHOIS_SERVER', 'whois.test:0'],
    ['NETDIAG_ALLOWED_TARGETS', '10.0.0.0/33'],
    ['NETDIAG_MYIP_SERVERS', 'cloudflare=127.0.0.1'],
  ])('%s=%s is a ConfigError naming the variable', (variable, value) => {
    const error = configError(() => loadNetdiagConfig({ [variable]: value }));
    expect(error.message).toContain(variable);
    expect(error.message).not.toMatch(/\[netdiag\]/);
  });

  test('variables of other faces are not read (a server-only typo never stops a command)', () => {
    expect(
      loadNetdiagConfig({ NETDIAG_RATE_LIMIT: 'abc', PORT: 'x', NETDIAG_METRICS: 'maybe' }),
    ).toEqual(DEFAULT_NETDIAG_CONFIG);
  });

  test('every key has a documented variable', () => {
    expect(Object.keys(NETDIAG_CONFIG_ENV).sort()).toEqual(
      Object.keys(DEFAULT_NETDIAG_CONFIG).sort(),
    );
  });
});

describe('resolveNetdiagConfig', () => {
  test('options over defaults; undefined keeps the default; checked like the environment', () => {
    const config = resolveNetdiagConfig({ whoisServer: '127.0.0.1:4343', dohUrl: undefined });
    expect(config.whoisServer).toBe('127.0.0.1:4343');
    expect(config.rdapBootstrapUrl).toBe(DEFAULT_NETDIAG_CONFIG.rdapBootstrapUrl);
    expect(configError(() => resolveNetdiagConfig({ dnsServers: ['nope'] })).message).toMatch(
      /NETDIAG_DNS_SERVERS/,
    );
  });

  test('keys that are not configuration are dropped', () => {
    const config = resolveNetdiagConfig({ port: 1 } as never);
    expect(config).not.toHaveProperty('port');
  });
});
