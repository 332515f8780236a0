import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  test('defaults', () => {
    expect(loadConfig({})).toEqual(DEFAULT_CONFIG);
  });
  test('reads every CONTRACT §5 key', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      NETDIAG_TRUST_PROXY: '1',
      NETDIAG_DNS_SERVERS: '127.0.0.1:5353, [::1]:53,127.0.0.2',
      NETDIAG_DOH_URL: 'https://127.0.0.1/dns-query',
      NETDIAG_RDAP_BOOTSTRAP_URL: 'http://127.0.0.1:1/dns.json',
      NETDIAG_WHOIS_SERVER: '127.0.0.1:4343',
      NETDIAG_BREACH_API_URL: 'http://127.0.0.1:2',
      NETDIAG_TOR_EXIT_LIST_URL: 'http://127.0.0.1:3/list',
      NETDIAG_GEOIP_DB: '/tmp/city.mmdb',
      NETDIAG_ASN_DB: '/tmp/asn.mmdb',
      NETDIAG_ALLOWED_TARGETS: '127.0.0.0/8,::1/128',
      NETDIAG_RATE_LIMIT: '100',
      NETDIAG_TOOL_RATE_LIMIT: '5',
      NETDIAG_RATE_WINDOW_S: '30',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      trustProxy: 1,
      dnsServers: ['127.0.0.1:5353', '[::1]:53', '127.0.0.2'],
      whoisServer: '127.0.0.1:4343',
      allowedTargets: ['127.0.0.0/8', '::1/128'],
      rateLimit: 100,
      toolRateLimit: 5,
      rateWindowS: 30,
      redisUrl: 'redis://127.0.0.1:6379',
    });
    expect(loadConfig({ NETDIAG_TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
    expect(loadConfig({ NETDIAG_TRUST_PROXY: '10.0.0.0/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'loopback',
    ]);
  });
  test.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be a whole number from 0 to 65535/],
    [{ NETDIAG_RATE_LIMIT: '0' }, /NETDIAG_RATE_LIMIT/],
    [{ NETDIAG_DNS_SERVERS: 'dns.google' }, /NETDIAG_DNS_SERVERS entries/],
    [{ NETDIAG_DNS_SERVERS: '127.0.0.1:99999' }, /NETDIAG_DNS_SERVERS/],
    [{ NETDIAG_DOH_URL: 'ftp://x' }, /NETDIAG_DOH_URL must be an http\(s\) URL/],
    [{ NETDIAG_ALLOWED_TARGETS: '10.0.0.0/99' }, /NETDIAG_ALLOWED_TARGETS/],
    [{ NETDIAG_TRUST_PROXY: 'everyone' }, /NETDIAG_TRUST_PROXY/],
    [{ NETDIAG_LOG_LEVEL: 'loud' }, /NETDIAG_LOG_LEVEL/],
  ])('%o fails with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
