/**
 * One exchange with one server: UDP (RFC 1035 §4.2.1) through the socket pool
 * (resolver-socket-pool.ts), TCP with the two-byte length prefix (RFC 1035 §4.2.2, RFC 7766) on
 * its own connection, or DNS-over-HTTPS (RFC 8484).
 * @module
 */
import net from 'node:net';
import type { Dispatcher } from 'undici';
import { isNetdiagError, UpstreamError } from '../errors.js';
import type { DnsResolver } from './dns-types.js';
import { upstreamRequest } from './http-client.js';
import { AttemptTimeout, attempt, networkError } from './resolver-attempt.js';
import type { DnsServer } from './resolver-servers.js';
import { getDefaultUdpSocketPool, type UdpSocketPool } from './resolver-socket-pool.js';
import { type DecodedMessage, matchResponse, type Query } from './resolver-wire.js';
import { whenAborted } from './signal.js';

export { AttemptTimeout };

/**
 * Sends `query` over UDP through `pool` (the process-wide one by default) and resolves with the
 * first datagram that answers it; the caller's signal cancels the attempt.
 */
export function udpExchange(
  server: DnsServer,
  query: Query,
  ms: number,
  signal: AbortSignal,
  pool: UdpSocketPool = getDefaultUdpSocketPool(),
): Promise<DecodedMessage> {
  return new Promise<DecodedMessage>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason ?? new Error('aborted'));
    let stopWaiting: (() => void) | undefined;
    let done = false;
    const cancel = pool.send(server, query, ms, (error, message) => {
      done = true;
      stopWaiting?.();
      if (error === undefined) resolve(message as DecodedMessage);
      else reject(error);
    });
    // `send` may have answered at once (a send that failed): then nothing to wait for.
    if (done) return;
    stopWaiting = whenAborted(signal, () => {
      cancel();
      reject(signal.reason ?? new Error('aborted'));
    });
  });
}

/** Sends `query` over TCP with the two-byte length prefix and reads one matching answer. */
export function tcpExchange(
  server: DnsServer,
  query: Query,
  ms: number,
  signal: AbortSignal,
): Promise<DecodedMessage> {
  return attempt<DecodedMessage>(server.label, ms, signal, (finish) => {
    const socket = net.connect({ host: server.host, port: server.port });
    let pending = Buffer.alloc(0);
    socket.setNoDelay(true);
    socket.on('connect', () => {
      const framed = Buffer.alloc(2 + query.wire.length);
      framed.writeUInt16BE(query.wire.length, 0);
      query.wire.copy(framed, 2);
      socket.write(framed);
    });
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2) {
        const length = pending.readUInt16BE(0);
        if (pending.length < 2 + length) return;
        const message = pending.subarray(2, 2 + length);
        pending = pending.subarray(2 + length);
        const decoded = matchResponse(message, query);
        if (decoded) {
          finish(undefined, decoded);
          return;
        }
      }
    });
    socket.on('error', (error) => finish(networkError(server.label, error)));
    socket.on('close', () =>
      finish(networkError(server.label, new Error('connection closed before an answer'))),
    );
    return () => socket.destroy();
  });
}

export interface DohExchangeOptions {
  /** RFC 8484 §4.1: POST carries the message as the body, GET as `?dns=` base64url. */
  method: 'GET' | 'POST';
  dispatcher?: Dispatcher | undefined;
  /** Resolves the DoH server's host name (the plain-DNS bootstrap). */
  resolver?: DnsResolver | undefined;
}

/** RFC 8484 §6: the largest DNS message is 65535 bytes. */
const MAX_DNS_MESSAGE = 65_535;

/** One RFC 8484 exchange in the `application/dns-message` wire format. */
export async function dohExchange(
  url: string,
  query: Query,
  ms: number,
  signal: AbortSignal,
  options: DohExchangeOptions,
): Promise<DecodedMessage> {
  const headers: Record<string, string> = { accept: 'application/dns-message' };
  let target = url;
  let body: Uint8Array | undefined;
  if (options.method === 'GET') {
    const withParam = new URL(url);
    // RFC 8484 §6: base64url without padding (RFC 4648 §5).
    withParam.searchParams.set('dns', query.wire.toString('base64url'));
    target = withParam.toString();
  } else {
    headers['content-type'] = 'application/dns-message';
    body = query.wire;
  }
  let response: Awaited<ReturnType<typeof upstreamRequest>>;
  try {
    response = await upstreamRequest(target, {
      upstream: 'dns',
      method: options.method,
      headers,
      ...(body ? { body } : {}),
      timeout: ms,
      signal,
      maxBytes: MAX_DNS_MESSAGE,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(options.resolver ? { resolver: options.resolver } : {}),
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    if (isNetdiagError(error, 'UPSTREAM_TIMEOUT')) throw new AttemptTimeout(url, ms);
    throw error;
  }
  if (response.status !== 200) {
    throw new UpstreamError(
      'dns',
      `the DoH server answered HTTP ${response.status}`,
      undefined,
      hostOf(url),
    );
  }
  const type = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/dns-message') {
    throw new UpstreamError(
      'dns',
      `the DoH server answered with content-type "${type}", not application/dns-message`,
      undefined,
      hostOf(url),
    );
  }
  const decoded = matchResponse(response.body, query);
  if (!decoded) {
    throw new UpstreamError(
      'dns',
      'the DoH server answered a different question',
      undefined,
      hostOf(url),
    );
  }
  return decoded;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
