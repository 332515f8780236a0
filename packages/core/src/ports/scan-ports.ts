/**
 * `scanPorts`: a TCP connect scan of one host, behind the SSRF guard. The host is resolved
 * once and every address checked; the first (IPv4 preferred) is scanned.
 * @module
 */
import type { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { type GuardOptions, normaliseHost, resolveAndCheck } from '../net/guard.js';
import { withTimeout } from '../net/signal.js';
import { catalogEntry, defaultPorts } from './catalog.js';
import { connectScan, DEFAULT_PORT_TIMEOUT_MS, type PortState } from './connect-scan.js';
import { parsePortList } from './port-list.js';
import type { portResultSchema, portScanDataSchema } from './schema.js';

/** Ports probed at once per scan (nmap's default timing allows 300): 4 scans stay at 400. */
const DEFAULT_SCAN_CONCURRENCY = 100;

/** What `scanPorts` scans: a host, and which of its ports. */
export interface ScanPortsInput {
  /** Host name or IP address (any literal form) to scan. */
  host: string;
  /**
   * Ports: a list, or a string of ports and ranges (`22,80,8000-8010`).
   * @default the curated catalog (`PORT_CATALOG`)
   */
  ports?: string | readonly number[];
}

export interface ScanPortsOptions extends GuardOptions {
  /** Most ports per scan; `false` lifts the cap (the CLI does). @default 100 */
  maxPorts?: number | false;
  /** @default 1500 */
  portTimeout?: number;
  /** @default 100 */
  concurrency?: number;
  /** Called after each port, for progress bars. */
  onProgress?: (done: number, total: number) => void;
  /** Clock for `scanned_at`. @default Date.now */
  now?: () => number;
}

/** One port: its state, latency and, in the catalog, what an open port means. */
export type PortResult = z.output<typeof portResultSchema>;

/** `GET /api/ports` data. */
export type ScanPortsResult = z.output<typeof portScanDataSchema>;

/**
 * Scans TCP ports of a public host. Errors: `InvalidInputError` (host, ports, limits),
 * `TargetNotAllowedError` (private/reserved address, also after DNS), `NotFoundError` /
 * `UpstreamError` from DNS, `TimeoutError` when the overall budget (default 30 s) runs out.
 */
export async function scanPorts(
  input: ScanPortsInput,
  options: ScanPortsOptions = {},
): Promise<ScanPortsResult> {
  const ports =
    input.ports === undefined
      ? defaultPorts()
      : parsePortList(typeof input.ports === 'string' ? input.ports : input.ports.join(','), {
          maxPorts: options.maxPorts,
        });
  const { host } = normaliseHost(input.host, 'host');
  const portTimeout = options.portTimeout ?? DEFAULT_PORT_TIMEOUT_MS;
  if (!Number.isFinite(portTimeout) || portTimeout <= 0) {
    throw new InvalidInputError('portTimeout must be a positive number of milliseconds', 'timeout');
  }
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_SCAN_CONCURRENCY));
  return withTimeout(
    options,
    'ports',
    async (signal) => {
      const checked = await resolveAndCheck(host, { ...options, signal });
      const address = checked.addresses[0] as string;
      const startedAt = (options.now ?? Date.now)();
      const started = performance.now();
      let done = 0;
      const onProgress = options.onProgress;
      const probes = await connectScan(address, ports, {
        timeout: portTimeout,
        concurrency,
        signal,
        ...(onProgress ? { onResult: () => onProgress(++done, ports.length) } : {}),
      });
      const results = probes.map((probe, index): PortResult => {
        const port = ports[index] as number;
        const entry = catalogEntry(port);
        return {
          port,
          state: probe.state,
          latency_ms: probe.latencyMs,
          service: entry?.service ?? '',
          risk_level: entry?.level ?? '',
          risk: entry?.risk ?? '',
        };
      });
      if (signal.aborted) throw signal.reason;
      const count = (state: PortState) => results.filter((r) => r.state === state).length;
      const open = count('open');
      // 90 % of at least 10 ports open: a firewall, proxy or tarpit accepting everything.
      const acceptsEverything = results.length >= 10 && open / results.length >= 0.9;
      return {
        host: checked.host,
        ip: address,
        ports_scanned: results.length,
        open_count: open,
        closed_count: count('closed'),
        filtered_count: count('filtered'),
        open_ports: results.filter((r) => r.state === 'open').map((r) => r.port),
        accepts_everything: acceptsEverything,
        note: acceptsEverything
          ? `${open} of ${results.length} ports answered open: a firewall, proxy or tarpit is probably accepting every connection, so "open" does not prove a service listens`
          : null,
        port_timeout_ms: portTimeout,
        duration_ms: Math.round(performance.now() - started),
        scanned_at: new Date(startedAt).toISOString(),
        results,
      };
    },
    30_000,
  );
}
