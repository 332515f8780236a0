/**
 * One TCP connect probe (the `nmap -sT` method): a completed handshake is `open`, a RST is
 * `closed`, silence until the timeout or an ICMP unreachable is `filtered` (nmap's port state
 * definitions, https://nmap.org/book/man-port-scanning-basics.html). The address must come
 * from the SSRF guard: this function connects wherever it is told.
 * @module
 */
import type { BaseOptions } from '../types.js';
import { connectScan, type PortState, type ProbeResult } from './connect-scan.js';

export type { PortState, ProbeResult };

/** Per-port connect timeout: nmap's initial RTT timeout is 1 s; 1.5 s spares slow links. */
export const DEFAULT_PORT_TIMEOUT_MS = 1_500;

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

/**
 * Probes one port. When `timeout` runs out or `signal` aborts, the probe resolves `filtered`:
 * it never rejects.
 */
export async function probeTcpPort(
  input: ProbeTcpPortInput,
  options: ProbeTcpPortOptions = {},
): Promise<ProbeResult> {
  const [result] = await connectScan(input.address, [input.port], {
    timeout: options.timeout ?? DEFAULT_PORT_TIMEOUT_MS,
    concurrency: 1,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return result as ProbeResult;
}
