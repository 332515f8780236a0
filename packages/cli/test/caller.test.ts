import { type DnsTestServer, startDnsServer, tempDir } from '@netdiag/test-utils';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  startXposedOrNotServer,
  type XonAction,
  type XonFakeServer,
} from '../../../test-utils/src/xposedornot-server.js';
import { EXIT, run } from '../src/index.js';
import { captureIO } from './helpers.js';

let fake: XonFakeServer;
let action: XonAction;
beforeAll(async () => {
  fake = await startXposedOrNotServer({
    accounts: {
      'johndoe@example.com': {
        breaches: ['Adobe', 'RockYou'],
        risk: { risk_label: 'Moderate', risk_score: 40 },
      },
    },
    onRequest: () => action,
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  action = undefined;
});

const env = () => ({ NETDIAG_BREACH_API_URL: fake.url });

describe('netdiag breach', () => {
  test('--json prints exactly the API data', async () => {
    const cap = captureIO(env());
    expect(await run(['breach', 'JohnDoe@example.com', '--json'], cap.io)).toBe(EXIT.ok);
    expect(JSON.parse(cap.stdout())).toEqual({
      email: 'joh***@example.com',
      status: 'checked',
      breaches: 2,
      services: ['Adobe', 'RockYou'],
      passwords: { plain_text: 1, weak_hash: 1, strong_hash: 0, unknown: 0, total: 2 },
      risk: { score: 40, level: 'moderate' },
    });
    expect(cap.stdout().trim().split('\n')).toHaveLength(1);
  });

  test('human output', async () => {
    const cap = captureIO(env());
    expect(await run(['breach', 'johndoe@example.com'], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout()).toBe(
      'joh***@example.com: found in 2 breaches (risk moderate, 40/100)\n' +
        'Services:  Adobe, RockYou\n' +
        'Passwords: 1 plain text, 1 weakly hashed, 0 strongly hashed, 0 unknown\n',
    );
  });

  test('no breach', async () => {
    const cap = captureIO(env());
    expect(await run(['breach', 'nobody@example.net'], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout()).toBe('nob***@example.net: not found in any known breach\n');
  });

  test('an invalid address is exit 2 with a clear message', async () => {
    const cap = captureIO(env());
    expect(await run(['breach', 'not-an-address'], cap.io)).toBe(EXIT.badInput);
    expect(cap.stderr()).toMatch(/not a valid email address/);
    expect(cap.stdout()).toBe('');
  });

  test.each([
    ['throttled', 'throttle' as const, /rate limiting us; retry in 7 s/],
    ['down', 'down' as const, /HTTP 500/],
    ['malformed', 'malformed' as const, /not valid JSON/],
  ])('upstream %s → exit 3', async (_name, mode, message) => {
    action = mode;
    const cap = captureIO(env());
    expect(await run(['breach', 'someone@example.com'], cap.io)).toBe(EXIT.network);
    expect(cap.stderr()).toMatch(message);
    expect(cap.stderr()).not.toContain('someone');
  });
});

describe('netdiag ip / netdiag score', () => {
  let myip: DnsTestServer;
  let dnsbl: DnsTestServer;
  const cacheDir = tempDir('netdiag-cli-caller-');
  beforeAll(async () => {
    // Stands in for resolver1.opendns.com: answers myip.opendns.com with "your" address.
    myip = await startDnsServer({ zone: { 'myip.opendns.com': { A: ['8.8.8.8'] } } });
    dnsbl = await startDnsServer({
      zone: { '8.8.8.8.zen.spamhaus.org': { A: ['127.0.0.2'] } },
    });
  });
  afterAll(async () => {
    await Promise.all([myip.close(), dnsbl.close()]);
  });
  const ipEnv = (extra: Record<string, string> = {}) => ({
    NETDIAG_DNS_SERVERS: dnsbl.address,
    NETDIAG_CACHE_DIR: cacheDir,
    ...extra,
  });

  test('netdiag ip 8.8.8.8 --json: the /api/ip data, connection fields empty', async () => {
    const cap = captureIO(ipEnv());
    expect(await run(['ip', '8.8.8.8', '--json'], cap.io)).toBe(EXIT.ok);
    const data = JSON.parse(cap.stdout());
    expect(Object.keys(data)).toEqual([
      'ip',
      'location',
      'network',
      'privacy',
      'is_eu',
      'ipv6',
      'bogon',
    ]);
    expect(data).toMatchObject({
      ip: '8.8.8.8',
      network: { asn: 15169, connection_type: '', tls_version: '' },
      privacy: { type: 'datacenter', score: 60, grade: 'B', hosting: true },
      ipv6: false,
    });
    expect(typeof data.location.latitude).toBe('string');
  });

  test('netdiag ip with no argument finds the public address through DNS', async () => {
    const cap = captureIO(ipEnv({ NETDIAG_MYIP_SERVERS: `opendns=${myip.address}` }));
    expect(await run(['ip'], cap.io)).toBe(EXIT.ok);
    expect(myip.queries).toContainEqual(
      expect.objectContaining({ name: 'myip.opendns.com', type: 'A' }),
    );
    expect(cap.stdout()).toMatch(/^8\.8\.8\.8 \(IPv4\)\n/);
    expect(cap.stdout()).toMatch(/Network: {2}AS15169 /);
    expect(cap.stdout()).toMatch(/Privacy: {2}datacenter · score 60\/100 \(grade B\)/);
  });

  test('offline: a clear error and exit 3', async () => {
    const silent = await startDnsServer({ onQuery: () => 'drop' });
    try {
      const cap = captureIO(
        ipEnv({
          NETDIAG_MYIP_SERVERS: `${silent.address},127.0.0.1:1`,
          NETDIAG_LOG_LEVEL: 'silent',
        }),
      );
      expect(await run(['ip'], cap.io)).toBe(EXIT.network);
      expect(cap.stderr()).toMatch(
        /cannot find this machine's public address \(are you offline\?\)/,
      );
      expect(cap.stdout()).toBe('');
    } finally {
      await silent.close();
    }
  }, 20_000);

  test('an invalid address is exit 2', async () => {
    const cap = captureIO(ipEnv());
    expect(await run(['ip', '999.1.1.1'], cap.io)).toBe(EXIT.badInput);
    expect(cap.stderr()).toMatch(/Invalid IP address format/);
  });

  test('netdiag score 8.8.8.8: the score with its evidence', async () => {
    const cap = captureIO(ipEnv());
    expect(await run(['score', '8.8.8.8'], cap.io)).toBe(EXIT.ok);
    const out = cap.stdout();
    expect(out).toMatch(/^8\.8\.8\.8: 60\/100, grade B \(Mostly clean\), type datacenter\n/);
    expect(out).toContain('Flags: Listed on 1 spam blacklist');
    expect(out).toMatch(/ {2}-25 {2}datacenter or hosting network \(/);
    expect(out).toMatch(/ {2}-15 {2}listed on .* \(zen\.spamhaus\.org\)/);
  });

  test('netdiag score --json equals the /api/score shape', async () => {
    const cap = captureIO(ipEnv());
    expect(await run(['score', '2001:4860:4860::8888', '--json'], cap.io)).toBe(EXIT.ok);
    const data = JSON.parse(cap.stdout());
    expect(Object.keys(data)).toEqual(['ip', 'location', 'network', 'privacy', 'ipv6', 'bogon']);
    expect(data).toMatchObject({ ipv6: true, network: { asn: 15169, tls_version: '' } });
    expect(data.privacy.evidence[0]).toMatchObject({ signal: 'datacenter', weight: -25 });
  });
});
