/**
 * What a client reads when an upstream fails (issue 41 item 11): which upstream, and how, in
 * words — never the upstream's address, its port or the low-level error text
 * (`connect ECONNREFUSED 127.0.0.1:4301`). The resolver over UDP is in resolver-address.test.ts.
 */
import { createServer, type Server } from 'node:net';
import { createNetdiag } from '@netdiag/core';
import {
  type DnsTestServer,
  freePort,
  type HttpTarget,
  startDnsServer,
  startHttpTarget,
  tempDir,
} from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CreateAppOptions, createApp } from '../src/app.js';

let closed: number;
let dns: DnsTestServer;
let bootstrap: HttpTarget;
/** Accepts a connection and resets it at once. */
let resetter: Server;
let resetPort: number;

const bootstrapFile = (urls: string[]) =>
  JSON.stringify({
    version: '1.0',
    publication: '2024-01-01T00:00:00Z',
    services: [[['com'], urls]],
  });

beforeAll(async () => {
  closed = await freePort();
  dns = await startDnsServer({ zone: { 'example.com': { A: ['192.0.2.1'] } } });
  bootstrap = await startHttpTarget({
    routes: {
      // A registry that is not listening, named by the bootstrap file.
      '/dns.json': (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(bootstrapFile([`http://127.0.0.1:${closed}/com/`])),
      // No service for .com: the WHOIS chain answers.
      '/none.json': (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ version: '1.0', publication: '', services: [] })),
    },
  });
  resetter = createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((resolve) => resetter.listen(0, '127.0.0.1', resolve));
  resetPort = (resetter.address() as { port: number }).port;
});
afterAll(async () => {
  await Promise.all([dns.close(), bootstrap.close()]);
  await new Promise((resolve) => resetter.close(resolve));
});

/** Says which upstream failed and how, without an address, a port or an errno-style code. */
function expectWords(message: string, upstream: string, how: RegExp, ports: number[]) {
  expect(message).toMatch(new RegExp(`^Upstream ${upstream} failed: `));
  expect(message).toMatch(how);
  expect(message).not.toMatch(/127\.0\.0\.1|\[?::1\]?/);
  for (const port of ports) expect(message).not.toContain(String(port));
  expect(message).not.toMatch(/:\d+\b/);
  expect(message).not.toMatch(/\bE[A-Z]{4,}\b|UND_ERR|\bconnect\b/);
}

const refused = /connection refused/;
const cases: [string, string, () => Partial<CreateAppOptions>, string, RegExp, RegExp][] = [
  [
    'DoH',
    '/api/dns?domain=example.com',
    () => ({ dohUrl: `http://127.0.0.1:${closed}/dns-query` }),
    'dns',
    /the DoH server/,
    refused,
  ],
  [
    'RDAP bootstrap',
    '/api/v1/whois/example.com',
    () => ({ rdapBootstrapUrl: `http://127.0.0.1:${closed}/dns.json` }),
    'rdap-bootstrap',
    /the RDAP bootstrap server/,
    refused,
  ],
  [
    'RDAP registry',
    '/api/v1/whois/example.com',
    () => ({ rdapBootstrapUrl: `${bootstrap.url}/dns.json`, allowedTargets: ['127.0.0.0/8'] }),
    'rdap',
    /the RDAP server/,
    refused,
  ],
  [
    'WHOIS',
    '/api/whois?domain=example.com',
    () => ({ rdapBootstrapUrl: `${bootstrap.url}/none.json`, whoisServer: `127.0.0.1:${closed}` }),
    'whois',
    /the WHOIS server/,
    refused,
  ],
  [
    'WHOIS, reset',
    '/api/whois?domain=example.com',
    () => ({
      rdapBootstrapUrl: `${bootstrap.url}/none.json`,
      whoisServer: `127.0.0.1:${resetPort}`,
    }),
    'whois',
    /the WHOIS server/,
    /connection reset/,
  ],
  [
    'breach API',
    '/api/breach?email=someone%40example.com',
    () => ({ breachApiUrl: `http://127.0.0.1:${closed}` }),
    'breach',
    /the breach database/,
    refused,
  ],
  [
    'breach API, reset',
    '/api/breach?email=someone%40example.com',
    () => ({ breachApiUrl: `http://127.0.0.1:${resetPort}` }),
    'breach',
    /the breach database/,
    /connection (reset|closed)/,
  ],
];

describe('a failed upstream: 502 naming it and the failure in words', () => {
  test.each(cases)('%s', async (_name, path, options, upstream, server, how) => {
    const app = createApp({
      logLevel: 'silent',
      env: false,
      dnsServers: [dns.address],
      ...options(),
    });
    const res = await request(app).get(path);
    expect(res.status, JSON.stringify(res.body)).toBe(502);
    expectWords(res.body.error, upstream, server, [closed, resetPort, dns.port]);
    expect(res.body.error).toMatch(how);
  });

  test('a feed that cannot be fetched: /healthz says so in words', async () => {
    const url = `http://127.0.0.1:${closed}/list`;
    const engine = createNetdiag({
      dnsServers: [dns.address],
      torExitListUrl: url,
      relayRangesUrl: url,
      vpnExitsUrl: url,
      cloudRangesUrl: url,
      cacheDir: tempDir('netdiag-feed-messages-'),
      feeds: 'schedule',
    });
    try {
      await engine.feedsReady;
      const res = await request(createApp({ logLevel: 'silent', env: false, engine })).get(
        '/healthz',
      );
      const feeds = res.body.data.feeds as { name: string; last_error: string }[];
      expect(feeds.length).toBeGreaterThan(0);
      for (const feed of feeds) {
        expect(feed.last_error).toMatch(
          new RegExp(`^\\[netdiag\\] \\[${feed.name}\\] cannot reach`),
        );
        expect(feed.last_error).toMatch(refused);
        expect(feed.last_error).not.toContain('127.0.0.1');
        expect(feed.last_error).not.toContain(String(closed));
        expect(feed.last_error).not.toMatch(/ECONNREFUSED/);
      }
    } finally {
      await engine.close();
    }
  });
});
