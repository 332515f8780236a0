/**
 * Issue 20 item 5: hosts named by remote answers — WHOIS `refer:` and `Registrar WHOIS Server:`
 * lines, RDAP registry URLs from the bootstrap file, the RDAP registrar link, a breach API
 * redirect — pass the SSRF guard; NETDIAG_ALLOWED_TARGETS is the one exemption. Trap listeners
 * on other loopback addresses count every connection: a refused hop must never reach them.
 */
import { createServer, type Server } from 'node:net';
import {
  bootstrapFile,
  bootstrapRoute,
  startHttpTarget,
  startRdapServer,
  startWhoisServer,
} from '@netdiag/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { checkBreach } from '../breach/check-breach.js';
import { createMemoryCache } from '../net/cache.js';
import { rdapLookup } from './lookup.js';
import { lookupWhoisChain } from './whois-chain.js';

/** A TCP listener that counts connections and answers nothing. */
async function startTrap(
  host: string,
): Promise<{ port: number; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((socket) => {
    hits++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as { port: number }).port,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const closers: (() => Promise<unknown>)[] = [];
let trap: Awaited<ReturnType<typeof startTrap>>;

beforeAll(async () => {
  trap = await startTrap('127.0.0.2');
});
afterAll(() => trap.close());
beforeEach(() => {
  closers.length = 0;
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const RECORD = (registrarServer = '') =>
  [
    'Domain Name: EXAMPLE.COM',
    'Registrar: Example Registrar, Inc.',
    registrarServer ? `Registrar WHOIS Server: ${registrarServer}` : '',
    'Creation Date: 1995-08-14T04:00:00Z',
    'Name Server: A.IANA-SERVERS.NET',
    '',
  ].join('\n');

async function root(refer: string) {
  const server = await startWhoisServer({
    answers: () => `refer:        ${refer}\n\ndomain:       COM\n`,
  });
  closers.push(() => server.close());
  return server;
}

describe('WHOIS referrals', () => {
  test('a refer: line to a loopback address is refused before any connection', async () => {
    const iana = await root(`127.0.0.2:${trap.port}`);
    const error = await lookupWhoisChain('example.com', { whoisServer: iana.address }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'whois' });
    expect(error.message).toContain(
      `refused to follow the WHOIS referral to 127.0.0.2:${trap.port}`,
    );
    expect(error.message).toMatch(/loopback/);
    expect(trap.hits()).toBe(0);
  });

  test('a refer: line to a public address on another port than 43 is refused without a packet', async () => {
    // 192.0.2.0/24 would be refused as documentation space; a public address shows the port rule.
    const iana = await root('8.8.8.8:4343');
    const error = await lookupWhoisChain('example.com', { whoisServer: iana.address }).catch(
      (e) => e,
    );
    expect(error.message).toMatch(
      /refused to follow the WHOIS referral to 8\.8\.8\.8:4343: port 4343 \(WHOIS referrals must use port 43\)/,
    );
  });

  test('NETDIAG_ALLOWED_TARGETS exempts a referral, on any port', async () => {
    const registry = await startWhoisServer({
      host: '127.0.0.3',
      answers: { 'example.com': RECORD() },
    });
    closers.push(() => registry.close());
    const iana = await root(registry.address);
    const { record, servers } = await lookupWhoisChain('example.com', {
      whoisServer: iana.address,
      allowedTargets: ['127.0.0.3/32'],
    });
    expect(record.registrar).toBe('Example Registrar, Inc.');
    expect(servers).toEqual([iana.address, registry.address]);
    expect(registry.queries).toEqual(['example.com']);
  });

  test('a Registrar WHOIS Server: line outside the exemption is not followed; the registry answer stands', async () => {
    const registry = await startWhoisServer({
      host: '127.0.0.3',
      answers: { 'example.com': RECORD(`127.0.0.2:${trap.port}`) },
    });
    closers.push(() => registry.close());
    const iana = await root(registry.address);
    const { record } = await lookupWhoisChain('example.com', {
      whoisServer: iana.address,
      allowedTargets: ['127.0.0.3/32'],
    });
    expect(record.registrar).toBe('Example Registrar, Inc.');
    expect(trap.hits()).toBe(0);
  });
});

describe('RDAP', () => {
  test('a registry URL from the bootstrap file is guarded', async () => {
    const rdap = await startRdapServer();
    closers.push(() => rdap.close());
    rdap.routes['/dns.json'] = bootstrapRoute(
      bootstrapFile([[['com'], [`http://127.0.0.2:${trap.port}/registry/`]]]),
    );
    const error = await rdapLookup('example.com', {
      bootstrapUrl: `${rdap.url}/dns.json`,
      cache: createMemoryCache(),
    }).catch((e) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'rdap' });
    expect(error.message).toMatch(
      /refused to follow http:\/\/127\.0\.0\.2:\d+ \(named by a remote answer\).*loopback/,
    );
    expect(trap.hits()).toBe(0);
  });

  test('the registrar link of an allowed registry is guarded on its own', async () => {
    const rdap = await startRdapServer();
    closers.push(() => rdap.close());
    Object.assign(rdap.routes, {
      '/dns.json': bootstrapRoute(bootstrapFile([[['com'], [`${rdap.url}/registry/`]]])),
      '/registry/domain/example.com': {
        body: {
          objectClassName: 'domain',
          ldhName: 'example.com',
          events: [{ eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' }],
          links: [
            { rel: 'related', href: `http://127.0.0.2:${trap.port}/registrar/domain/example.com` },
          ],
        },
      },
    });
    const record = await rdapLookup('example.com', {
      bootstrapUrl: `${rdap.url}/dns.json`,
      cache: createMemoryCache(),
      allowedTargets: ['127.0.0.1/32'],
    });
    expect(record.creation_date).toBe('1995-08-14T04:00:00.000Z');
    expect(trap.hits()).toBe(0);
  });
});

describe('breach API', () => {
  test('a redirect to another origin is refused, naming the hop and the reason', async () => {
    const api = await startHttpTarget({
      routes: {
        '*': (_q, r) =>
          void r.writeHead(302, { location: `http://127.0.0.2:${trap.port}/steal` }).end(),
      },
    });
    closers.push(() => api.close());
    const error = await checkBreach('someone@example.com', {
      apiUrl: api.url,
      cache: createMemoryCache(),
    }).catch((e) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream: 'breach' });
    expect(error.message).toMatch(
      /refused to follow a redirect to http:\/\/127\.0\.0\.2:\d+: .*loopback/,
    );
    expect(trap.hits()).toBe(0);
  });
});
