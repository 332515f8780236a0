/**
 * Faults (issue 8): upstream DNS dropping every packet, RDAP answering slowly, the breach API
 * returning garbage. Every endpoint must answer within its time budget with the documented
 * error (or a documented partial success), never hang and never 500. Redis being killed is
 * covered in redis.test.ts.
 */
import {
  type DnsTestServer,
  type HttpTarget,
  startDnsServer,
  startHttpTarget,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectMatchesSchema, operationIdOf } from './expect-schema.js';
import { startLoopbackApp } from './loopback-app.js';

let dns: DnsTestServer;
let slow: HttpTarget;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  dns = await startDnsServer({ zone: {}, onQuery: () => 'drop' });
  slow = await startHttpTarget({
    routes: {
      // RDAP bootstrap and registry: answer after 30 s (longer than any budget).
      '/dns.json': () => {},
      // Breach database: 200 with a body that is not JSON.
      '/v1/breach-analytics': (_req, res) =>
        void res.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops'),
      '*': (_req, res) => void res.writeHead(200).end('garbage'),
    },
  });
  const started = await startLoopbackApp({
    dnsAddress: dns.address,
    upstreamUrl: slow.url,
    rateLimit: 1000,
    toolRateLimit: 1000,
    allowedTargets: ['127.0.0.0/8'],
  });
  base = started.base;
  close = started.close;
});
afterAll(async () => {
  await close?.();
  await dns?.close();
  await slow?.close();
});

/** [path, allowed statuses, budget in seconds] */
const cases: [string, number[], number][] = [
  ['/api/dns?domain=example.com', [504], 12],
  ['/api/v1/dns/example.com?type=MX', [504], 12],
  ['/api/rdns?ip=8.8.8.8', [504], 12],
  // No list answered: no verdict (never CLEAN), 504 naming the lists (docs/dns.md).
  ['/api/blacklist?ip=127.0.0.2', [504], 12],
  ['/api/email-auth?domain=example.com', [502, 504], 25],
  ['/api/whois?domain=example.com', [504], 25],
  ['/api/v1/whois/example.com', [504], 25],
  ['/api/breach?email=someone%40example.com', [502], 12],
  ['/api/down?url=http%3A%2F%2Fsite.example', [200], 15],
  ['/api/security-headers?url=site.example', [502, 504], 15],
  ['/api/ports?host=host.example&ports=80', [502, 504], 15],
  ['/api/lookup?ip=8.8.8.8', [200], 5],
  ['/api/v1/headers', [200], 5],
];

describe('faults: every endpoint answers in time with the documented error', () => {
  test.concurrent.each(cases)(
    '%s',
    async (path, statuses, budgetS) => {
      const started = Date.now();
      const res = await fetch(base + path, { signal: AbortSignal.timeout((budgetS + 5) * 1000) });
      const elapsed = (Date.now() - started) / 1000;
      const body = (await res.json()) as {
        success: boolean;
        error?: string;
        data?: Record<string, unknown>;
      };
      expect(
        statuses,
        `${path} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`,
      ).toContain(res.status);
      expect(elapsed).toBeLessThan(budgetS);
      if (res.status >= 400) {
        expect(body.success).toBe(false);
        expect(body.error).toMatch(/\w/);
      } else expectMatchesSchema(operationIdOf(path), body);
      if (path.startsWith('/api/blacklist')) {
        expect(body.error).toMatch(/^Upstream dnsbl failed: none of the 12 DNSBLs answered/);
      }
      if (path.startsWith('/api/down')) {
        expect(body.data?.['is_up']).toBe(false);
      }
    },
    40_000,
  );
});
