/**
 * The request latency histogram and request counter are counted by the request path without
 * prom-client (src/metrics.ts); what a scrape reads must be what prom-client's own histogram
 * and counter give for the same requests, line for line.
 */
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, test } from 'vitest';
import { type Metrics, metricsRecorder, requestMetrics } from '../src/metrics.js';

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Ours: the two metrics as `getMetrics` makes them, fed through `metricsRecorder`. */
function ours() {
  const registry = new Registry();
  const metrics = { registry, ...requestMetrics(registry) } as Metrics;
  return { registry, record: metricsRecorder(metrics), again: () => metricsRecorder(metrics) };
}

/** prom-client's own histogram and counter, observed one request at a time. */
function oracle() {
  const registry = new Registry();
  const requests = new Counter({
    name: 'netdiag_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'netdiag_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route'],
    buckets: BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    record(method: string, route: string, status: number, seconds: number) {
      duration.observe({ method, route }, seconds);
      requests.inc({ method, route, status: String(status) });
    },
  };
}

/** The metric families of an exposition, each family's lines sorted (orders may differ). */
function families(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const block of text.trim().split('\n\n')) {
    const lines = block.split('\n');
    out.set(lines[0] as string, lines.slice(1).sort());
  }
  return out;
}

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'HEAD'),
  route: fc.constantFrom('/api/lookup', '/api/dns', 'other'),
  status: fc.constantFrom(200, 400, 429, 502),
  // Bucket bounds themselves, values between them and past the last one.
  seconds: fc.oneof(
    fc.constantFrom(...BUCKETS, 0, 11),
    fc.double({ min: 0, max: 12, noNaN: true }),
  ),
});

describe('request metrics without prom-client on the request path', () => {
  test('a scrape reads what prom-client gives for the same requests (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { maxLength: 60 }), fc.nat(60), async (all, cut) => {
        const mine = ours();
        const theirs = oracle();
        // Two recorders on one registry (two apps on one context), and a scrape in between.
        const second = mine.again();
        for (const [i, r] of all.entries()) {
          (i % 2 ? second : mine.record)(r.method, r.route, r.status, r.seconds);
          theirs.record(r.method, r.route, r.status, r.seconds);
          if (i === cut) {
            expect(families(await mine.registry.metrics())).toEqual(
              families(await theirs.registry.metrics()),
            );
          }
        }
        expect(families(await mine.registry.metrics())).toEqual(
          families(await theirs.registry.metrics()),
        );
      }),
      { numRuns: 300 },
    );
  });

  test('a reset of the registry clears the latency counts', async () => {
    const mine = ours();
    mine.record('GET', '/api/lookup', 200, 0.002);
    mine.registry.resetMetrics();
    const text = await mine.registry.metrics();
    expect(text).toContain(
      'netdiag_http_request_duration_seconds_count{method="GET",route="/api/lookup"} 0',
    );
  });
});
