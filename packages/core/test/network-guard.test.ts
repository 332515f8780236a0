/**
 * The suite's network guard (test-utils/src/guard.ts) against the product itself: every way
 * netdiag opens a connection — TCP (port scan, WHOIS), TLS (the TLS check), HTTP (the SSRF-safe
 * client), UDP and TCP DNS (its own resolver), DoH — is refused for an address outside loopback.
 * The SSRF guard is opened for documentation ranges (RFC 5737, RFC 3849) so that the product
 * really tries to connect: the test guard must be the one that stops it, before any packet.
 */
import { takeViolations } from '@netdiag/test-utils';
import { afterEach, describe, expect, test } from 'vitest';
import { createNetdiag, createResolver, lookupDns } from '../src/index.js';

const V4 = '192.0.2.10';
const V6 = '2001:db8::10';
const allowedTargets = ['192.0.2.0/24', '2001:db8::/32'];

const engines: { close(): Promise<void> }[] = [];
function engine(config: Parameters<typeof createNetdiag>[0] = {}) {
  const e = createNetdiag({ allowedTargets, dnsServers: [`${V4}:53`], ...config });
  engines.push(e);
  return e;
}

afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.close()));
  // The guard's record is this file's to read: the setup file's afterEach would fail the test.
  takeViolations();
});

/** Runs `attempt`, ignoring how the product reports the failure, and returns what the guard saw. */
async function blocked(attempt: () => Promise<unknown>): Promise<string[]> {
  takeViolations();
  await attempt().catch(() => undefined);
  return takeViolations();
}

describe('the network guard stops every way the product connects', () => {
  test.each([
    [V4, /blocked TCP connect to 192\.0\.2\.10/],
    [V6, /blocked TCP connect to 2001:db8::10/],
  ])('TCP: a port scan of %s', async (host, pattern) => {
    const seen = await blocked(() =>
      engine().scanPorts({ host, ports: [443] }, { limited: false, timeout: 2_000 }),
    );
    expect(seen.join('\n')).toMatch(pattern);
  });

  test('TLS: the TLS check', async () => {
    const seen = await blocked(() => engine().checkTls({ host: V4 }, { timeout: 2_000 }));
    expect(seen.join('\n')).toMatch(/blocked TCP connect to 192\.0\.2\.10/);
  });

  test('HTTP: the up/down check through the SSRF-safe client', async () => {
    const seen = await blocked(() => engine().checkSite(`http://${V4}/`, { timeout: 2_000 }));
    expect(seen.join('\n')).toMatch(/blocked TCP connect to 192\.0\.2\.10/);
  });

  test('UDP DNS: a record lookup through the resolver', async () => {
    const seen = await blocked(() =>
      engine().dns({ domain: 'example.com', type: 'A' }, { timeout: 2_000 }),
    );
    expect(seen.join('\n')).toMatch(/blocked UDP (send|connect) to 192\.0\.2\.10/);
  });

  test('TCP DNS: a lookup over TCP', async () => {
    const resolver = createResolver({ servers: [`[${V6}]:53`], tcp: true });
    const seen = await blocked(() =>
      lookupDns({ domain: 'example.com', type: 'A' }, { resolver, timeout: 2_000 }),
    );
    expect(seen.join('\n')).toMatch(/blocked (TCP connect|UDP (send|connect)) to 2001:db8::10/);
  });

  test('DoH: a lookup over HTTPS', async () => {
    const seen = await blocked(() =>
      engine({ dohUrl: `https://${V4}/dns-query` }).dns(
        { domain: 'example.com', type: 'A' },
        { timeout: 2_000 },
      ),
    );
    expect(seen.join('\n')).toMatch(/blocked TCP connect to 192\.0\.2\.10/);
  });

  test('WHOIS: a query to a WHOIS server', async () => {
    const seen = await blocked(() =>
      engine({ whoisServer: `${V4}:43`, rdapBootstrapUrl: `http://${V4}/dns.json` }).whois(
        'example.com',
        { timeout: 2_000 },
      ),
    );
    expect(seen.join('\n')).toMatch(/blocked TCP connect to 192\.0\.2\.10/);
  });
});
