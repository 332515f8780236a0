/**
 * One TCP connect probe (the `nmap -sT` method): a completed handshake is `open`, a RST is
 * `closed`, silence until the timeout or an ICMP unreachable is `filtered` (nmap's port state
 * definitions, https://nmap.org/book/man-port-scanning-basics.html). The address must come
 * from the SSRF guard: this function connects wherever it is told.
 * @module
 */
import net from 'node:net';
import type { BaseOptions } from '../types.js';

/** Per-port connect timeout: nmap's initial RTT timeout is 1 s; 1.5 s spares slow links. */
export const DEFAULT_PORT_TIMEOUT_MS = 1_500;

export type PortState = 'open' | 'closed' | 'filtered';

export interface ProbeResult {
  state: PortState;
  /** Time to the handshake or the RST; `null` when filtered (nothing came back). */
  latencyMs: number | null;
}

/** What `probeTcpPort` connects to. */
export interface ProbeTcpPortInput {
  /** An IP address that passed the SSRF guard. */
  address: string;
  port: number;
}

/**
 * `timeout` is the connect budget in ms (`false`: wait for the handshake, a reset or an
 * unreachable). @default 1500
 */
export type ProbeTcpPortOptions = BaseOptions;

/** Errors that mean a router or firewall answered for the host (ICMP unreachable). */
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EACCES', 'EPERM']);

/**
 * Probes one port. When `timeout` runs out or `signal` aborts, the probe resolves `filtered`:
 * it never rejects.
 */
export function probeTcpPort(
  input: ProbeTcpPortInput,
  options: ProbeTcpPortOptions = {},
): Promise<ProbeResult> {
  const { address, port } = input;
  const { signal } = options;
  const timeoutMs = options.timeout ?? DEFAULT_PORT_TIMEOUT_MS;
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect({ host: address, port });
    let done = false;
    const finish = (state: PortState, measured: boolean) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      const ms = Math.round((performance.now() - started) * 10) / 10;
      resolve({ state, latencyMs: measured ? ms : null });
    };
    const onAbort = () => finish('filtered', false);
    const timer =
      timeoutMs === false ? undefined : setTimeout(() => finish('filtered', false), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => finish('open', true));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET') finish('closed', true);
      else if (UNREACHABLE.has(error.code ?? '')) finish('filtered', false);
      else finish('filtered', false);
    });
  });
}
