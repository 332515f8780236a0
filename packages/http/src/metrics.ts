/**
 * Prometheus metrics (prom-client), one registry per app: requests by route and status, latency
 * histograms, upstream failures by kind, cache hit ratio, rate-limit rejections, probes in flight.
 * Served at `GET /metrics` unless `NETDIAG_METRICS=off`.
 * @module
 */
import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import { type AppContext, service } from './context.js';

export interface Metrics {
  registry: Registry;
  /** Adds the requests counted so far to `requests` (see `metricsRecorder`); run before reads. */
  flushes: Set<() => void>;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: LatencyHistogram;
  upstreamErrors: Counter<'upstream' | 'kind'>;
  cacheLookups: Counter<'cache' | 'result'>;
  rateLimited: Counter<'limiter'>;
  probesInFlight: Gauge<'route'>;
}

/** The metrics `metricsRecorder` counts each request into, registered in `registry`. */
export function requestMetrics(
  registry: Registry,
): Pick<Metrics, 'flushes' | 'requests' | 'duration'> {
  const flushes = new Set<() => void>();
  return {
    flushes,
    requests: new Counter({
      name: 'netdiag_http_requests_total',
      help: 'HTTP requests by route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
      // prom-client runs this before every read of the counter (each scrape).
      collect: () => {
        for (const flush of flushes) flush();
      },
    }),
    duration: new LatencyHistogram(registry),
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

/** One (method, route) series of the latency histogram: a count per bucket, then +Inf. */
interface LatencySeries {
  method: string;
  route: string;
  counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * `netdiag_http_request_duration_seconds`, counted in typed arrays by the request path and
 * read by the registry at each scrape in the shape of prom-client's own histograms (the same
 * `_bucket`, `_sum` and `_count` lines). prom-client's histogram checks, hashes and allocates a
 * label object on every observation: ~7 % of the CPU of `GET /api/lookup` (paired rounds of
 * bench/ip/http.bench.ts), where this adds one to a number.
 */
export class LatencyHistogram {
  readonly name = 'netdiag_http_request_duration_seconds';
  readonly help = 'HTTP request latency by route';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, LatencySeries>();

  constructor(registry: Registry) {
    // The registry reads a metric through `get()` (and `reset()`): it takes any object that
    // has them, though its types name only prom-client's own classes.
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series of `method` and `route`, to count into with `observe`. */
  seriesOf(method: string, route: string): LatencySeries {
    const key = `${method} ${route}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = {
        method,
        route,
        counts: new Float64Array(LATENCY_BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    return series;
  }

  observe(series: LatencySeries, seconds: number): void {
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[bucket] as number)) {
      bucket++;
    }
    series.counts[bucket] = (series.counts[bucket] as number) + 1;
    series.sum += seconds;
    series.count++;
  }

  async get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] =
      [];
    for (const { method, route, counts, sum, count } of this.series.values()) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += counts[i] as number;
        values.push({
          labels: { le, method, route },
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      });
      values.push(
        { labels: { le: '+Inf', method, route }, value: count, metricName: `${this.name}_bucket` },
        { labels: { method, route }, value: sum, metricName: `${this.name}_sum` },
        { labels: { method, route }, value: count, metricName: `${this.name}_count` },
      );
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      values,
      aggregator: this.aggregator,
    };
  }

  reset(): void {
    for (const series of this.series.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}

/**
 * Counts each request: its (method, route) latency series and its (method, route, status)
 * count. prom-client's counter, like its histogram, hashes a label object on every call, so a
 * request adds one to a number here and the counts go to the counter just before it is read
 * (its `collect`, at each scrape): a scrape always sees every request that has ended. The
 * entries are found through nested maps rather than a key string built per request.
 */
export function metricsRecorder(metrics: Metrics) {
  interface StatusCount {
    counter: { inc(value?: number): void };
    pending: number;
  }
  interface Children {
    duration: LatencySeries;
    byStatus: Map<number, StatusCount>;
  }
  const byRoute = new Map<string, Map<string, Children>>();
  const counts: StatusCount[] = [];
  metrics.flushes.add(() => {
    for (const count of counts) {
      if (count.pending === 0) continue;
      count.counter.inc(count.pending);
      count.pending = 0;
    }
  });
  return (method: string, route: string, status: number, seconds: number) => {
    let byMethod = byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      byRoute.set(route, byMethod);
    }
    let children = byMethod.get(method);
    if (children === undefined) {
      children = { duration: metrics.duration.seriesOf(method, route), byStatus: new Map() };
      byMethod.set(method, children);
    }
    metrics.duration.observe(children.duration, seconds);
    let count = children.byStatus.get(status);
    if (count === undefined) {
      count = { counter: metrics.requests.labels(method, route, String(status)), pending: 0 };
      children.byStatus.set(status, count);
      counts.push(count);
    }
    count.pending++;
  };
}

/** Routes that make the server connect to a caller-chosen target (probes in flight). */
export function isProbeRoute(path: string): boolean {
  return PROBE_ROUTES.has(path);
}
