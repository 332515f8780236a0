/**
 * Prometheus metrics (prom-client), one registry per app: requests by route and status, latency
 * histograms, upstream failures by kind, cache hit ratio, rate-limit rejections, probes in flight.
 * Served at `GET /metrics` unless `NETDIAG_METRICS=off`.
 * @module
 */
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

/** The metrics `metricsRecorder` counts each request into, registered in `registry`. */
export function requestMetrics(registry: Registry): Pick<Metrics, 'requests' | 'duration'> {
  return {
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
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
  };
}

/** Routes that make the server connect to a caller-chosen target. */
const PROBE_ROUTES = new Set(['/api/down', '/api/security-headers', '/api/ports']);

export function getMetrics(ctx: AppContext): Metrics {
  return service(ctx, 'metrics', () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'netdiag_' });
    return {
      registry,
      ...requestMetrics(registry),
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
      ...feedGauges(ctx, registry),
    };
  });
}

/** Feed age and size (Tor exits, relay ranges, VPN exits, cloud ranges), read at scrape time. */
function feedGauges(ctx: AppContext, registry: Registry) {
  const status = () => ctx.engine.feedStatus();
  new Gauge({
    name: 'netdiag_feed_age_seconds',
    help: 'Seconds since the list in use of each data feed was fetched (absent: bundled data only)',
    labelNames: ['feed'],
    registers: [registry],
    collect() {
      this.reset();
      for (const f of status()) if (f.age_s !== null) this.set({ feed: f.name }, f.age_s);
    },
  });
  new Gauge({
    name: 'netdiag_feed_entries',
    help: 'Entries (addresses or ranges) in the list in use of each data feed (0: none)',
    labelNames: ['feed'],
    registers: [registry],
    collect() {
      this.reset();
      for (const f of status()) this.set({ feed: f.name }, f.entries);
    },
  });
  return {};
}

/** From a cached lookup (sub-ms) to a probe hitting its 10 s budget, in seconds. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Counts each request: its (method, route, status) count and its (method, route) latency. */
export function metricsRecorder(metrics: Metrics) {
  return (method: string, route: string, status: number, seconds: number) => {
    metrics.requests.inc({ method, route, status: String(status) });
    metrics.duration.observe({ method, route }, seconds);
  };
}

/** Routes that make the server connect to a caller-chosen target (probes in flight). */
export function isProbeRoute(path: string): boolean {
  return PROBE_ROUTES.has(path);
}
