/**
 * TCP connect probes of one address (the `nmap -sT` method) with a bounded number in flight: a
 * completed handshake is `open`, a RST is `closed`, silence until the timeout or an ICMP
 * unreachable is `filtered` (https://nmap.org/book/man-port-scanning-basics.html). The address
 * must come from the SSRF guard: this connects wherever it is told.
 * @module
 */

import net from 'node:net';
import type { z } from 'zod';
import type { portResultSchema } from './schema.js';

/** Per-port connect timeout: nmap's initial RTT timeout is 1 s; 1.5 s spares slow links. */
export const DEFAULT_PORT_TIMEOUT_MS = 1_500;

/** A probe's outcome, the `state` of the answer's port entry. */
export type PortState = z.output<typeof portResultSchema>['state'];

export interface ProbeResult {
  state: PortState;
  /** Time to the handshake or the RST; `null` when filtered (nothing came back). */
  latencyMs: number | null;
}

export interface ConnectScanOptions {
  /** Connect budget per port in ms; `false` waits for a handshake, a reset or an unreachable. */
  timeout: number | false;
  /** Probes in flight at once. */
  concurrency: number;
  signal?: AbortSignal;
  /** Called once per port as it finishes (any order). */
  onResult?: (index: number, result: ProbeResult) => void;
}

/** Errors that mean the host refused: a RST (nmap's `closed`). */
const REFUSED = new Set(['ECONNREFUSED', 'ECONNRESET']);

const FILTERED: ProbeResult = { state: 'filtered', latencyMs: null };

/** One probe, never rejects; `cancels` lets one abort listener end every pending probe. */
function probe(
  address: string,
  port: number,
  timeoutMs: number | false,
  cancels: Set<() => void>,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect({ host: address, port });
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: ProbeResult) => {
      if (timer) clearTimeout(timer);
      cancels.delete(onAbort);
      socket.destroy();
      resolve(result);
    };
    const answered = (state: PortState) =>
      finish({ state, latencyMs: Math.round((performance.now() - started) * 10) / 10 });
    const onAbort = () => finish(FILTERED);
    socket.once('connect', () => answered('open'));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // An ICMP unreachable (EHOSTUNREACH, ENETUNREACH) or anything else: a router or firewall
      // answered for the host, which nmap also calls filtered.
      if (REFUSED.has(error.code ?? '')) answered('closed');
      else finish(FILTERED);
    });
    cancels.add(onAbort);
    if (timeoutMs !== false) {
      // At the deadline, one more pass of the poll phase first: a loop held past it (a busy
      // process) runs timers before the answers that came in on time, which would then count
      // as filtered.
      timer = setTimeout(() => setImmediate(() => finish(FILTERED)), timeoutMs);
    }
  });
}

/**
 * Probes `ports` of `address` and resolves one result per port, in the order of `ports`. Never
 * rejects: a probe that times out or is aborted is `filtered`.
 */
export async function connectScan(
  address: string,
  ports: readonly number[],
  options: ConnectScanOptions,
): Promise<ProbeResult[]> {
  const { signal, onResult, timeout } = options;
  const results = new Array<ProbeResult>(ports.length);
  const cancels = new Set<() => void>();
  const onAbort = () => {
    for (const cancel of cancels) cancel();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  let next = 0;
  const worker = async () => {
    while (next < ports.length) {
      const index = next++;
      const result = signal?.aborted
        ? FILTERED
        : await probe(address, ports[index] as number, timeout, cancels);
      results[index] = result;
      onResult?.(index, result);
    }
  };
  const workers = Math.min(ports.length, Math.max(1, Math.floor(options.concurrency)));
  await Promise.all(Array.from({ length: workers }, worker));
  signal?.removeEventListener('abort', onAbort);
  return results;
}
