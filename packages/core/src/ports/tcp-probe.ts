/**
 * One TCP connect probe (the `nmap -sT` method): a completed handshake is `open`, a RST is
 * `closed`, silence until the timeout or an ICMP unreachable is `filtered` (nmap's port state
 * definitions, https://nmap.org/book/man-port-scanning-basics.html). The address must come
 * from the SSRF guard: this function connects wherever it is told.
 * @module
 */
import net from 'node:net';

export type PortState = 'open' | 'closed' | 'filtered';

export interface ProbeResult {
  state: PortState;
  /** Time to the handshake or the RST; `null` when filtered (nothing came back). */
  latencyMs: number | null;
}

/** Errors that mean a router or firewall answered for the host (ICMP unreachable). */
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EACCES', 'EPERM']);

export function probeTcpPort(
  address: string,
  port: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect({ host: address, port });
    let done = false;
    const finish = (state: PortState, measured: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      const ms = Math.round((performance.now() - started) * 10) / 10;
      resolve({ state, latencyMs: measured ? ms : null });
    };
    const onAbort = () => finish('filtered', false);
    const timer = setTimeout(() => finish('filtered', false), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => finish('open', true));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET') finish('closed', true);
      else if (UNREACHABLE.has(error.code ?? '')) finish('filtered', false);
      else finish('filtered', false);
    });
  });
}
