/**
 * Prometheus metrics (prom-client), one registry per app: requests by route and status, latency
 * histograms, upstream failures by kind, cache hit ratio, rate-limit rejections, probes in flight.
 * Served at `GET /metrics` unless `NETDIAG_METRICS=off`.
 * @module
 */
import type { NextFunction, Request, Response } from 'express';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { type AppContext, service } from './context.js';

export interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route'>;
  upstreamErrors: Counter<'upstream' | 'kind'>;
  cacheLookups: Counter<'cache' | 'result'>;
  rateLimited: Counter<'limiter'>;
  probesInFlight: Gauge<'route'>;
}

/** Routes that make the server connect to a caller-chosen target. */
const PROBE_ROUTES = new Set(['/api/down', '/api/security-headers', '/api/ports']);

export function getMetrics(ctx: AppContext): Metrics {
  return service(ctx, 'metrics', () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'netdiag_' });
    return {
      registry,
      requests: new Counter({
        name: 'netdiag_http_requests_total',
        help: 'HTTP requests by route and status',
        labelNames: ['method', 'route', 'status'],
        registers: [registry],
      }),
      duration: new Histogram({
        name: 'netdiag_http_request_duration_seconds',
        help: 'HTTP request latency by route',
        labelNames: ['method', 'route'],
        // From a cached lookup (sub-ms) to a probe hitting its 10 s budget.
        buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [registry],
      }),
      upstreamErrors: new Counter({
        name: 'netdiag_upstream_errors_total',
        help: 'Upstream failures by upstream and kind (error, timeout, throttled)',
        labelNames: ['upstream', 'kind'],
        registers: [registry],
      }),
      cacheLookups: new Counter({
        name: 'netdiag_cache_lookups_total',
        help: 'Cache lookups by cache and result (hit, miss); hit ratio = hit / (hit + miss)',
        labelNames: ['cache', 'result'],
        registers: [registry],
      }),
      rateLimited: new Counter({
        name: 'netdiag_rate_limited_total',
        help: 'Requests rejected with 429, by limiter (all, tool)',
        labelNames: ['limiter'],
        registers: [registry],
      }),
      probesInFlight: new Gauge({
        name: 'netdiag_probes_in_flight',
        help: 'Outbound probes (down, security-headers, ports) being served now',
        labelNames: ['route'],
        registers: [registry],
      }),
    };
  });
}

/**
 * Counts and times every request by its route pattern. Never the raw URL: labels must stay a
 * bounded set, so a request that matched no route (404, or stopped by a limiter before routing)
 * is labelled by its path only when that path is a known static route, else `other`.
 */
export function metricsMiddleware(ctx: AppContext, knownPaths: ReadonlySet<string>) {
  const metrics = getMetrics(ctx);
  return (req: Request, res: Response, next: NextFunction) => {
    const start = process.hrtime.bigint();
    const probe = PROBE_ROUTES.has(req.path) ? req.path : undefined;
    if (probe) metrics.probesInFlight.inc({ route: probe });
    res.once('close', () => {
      if (probe) metrics.probesInFlight.dec({ route: probe });
      const path = req.originalUrl.split('?')[0] ?? '';
      const route =
        (req.route?.path as string | undefined) ?? (knownPaths.has(path) ? path : 'other');
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      metrics.requests.inc({ method: req.method, route, status: String(res.statusCode) });
      metrics.duration.observe({ method: req.method, route }, seconds);
    });
    next();
  };
}
