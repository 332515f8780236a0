/**
 * One exchange with one server: UDP (RFC 1035 §4.2.1), TCP with the two-byte length prefix
 * (RFC 1035 §4.2.2, RFC 7766) or DNS-over-HTTPS (RFC 8484). Each call opens its own socket, so
 * every query leaves from a fresh OS-chosen random source port (RFC 5452 §9.2).
 * @module
 */
import dgram from 'node:dgram';
import net, { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { isNetdiagError, UpstreamError } from '../errors.js';
import { upstreamRequest } from './http-client.js';
import type { DnsServer } from './resolver-servers.js';
import { type DecodedMessage, matchResponse, type Query } from './resolver-wire.js';

/** An attempt ran out of its per-server time; the resolver moves on to the next server. */
export class AttemptTimeout extends Error {
  override name = 'AttemptTimeout';
  constructor(
    readonly server: string,
    readonly ms: number,
  ) {
    super(`${server} did not answer within ${ms} ms`);
  }
}

/**
 * Runs `start` with a settle-once callback, a per-attempt timer and the caller's signal; the
 * cleanup closes the socket whatever happened.
 */
function attempt<T>(
  server: string,
  ms: number,
  signal: AbortSignal,
  start: (finish: (error: unknown, value?: T) => void) => () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let cleanup: () => void = () => {};
    const finish = (error: unknown, value?: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      cleanup();
      if (error === undefined) resolve(value as T);
      else reject(error);
    };
    const onAbort = () => finish(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(() => finish(new AttemptTimeout(server, ms)), ms);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      cleanup = start(finish);
    } catch (error) {
      finish(networkError(server, error));
    }
    if (settled) cleanup();
  });
}

function networkError(server: string, error: unknown): UpstreamError {
  return new UpstreamError('dns', `${server}: ${(error as Error).message}`, error);
}

/**
 * Sends `query` over a connected UDP socket and resolves with the first datagram that matches
 * it (id, question); stray and forged datagrams are ignored until the timer runs out. A
 * connected socket also surfaces ICMP port-unreachable as ECONNREFUSED at once.
 */
export function udpExchange(
  server: DnsServer,
  query: Query,
  ms: number,
  signal: AbortSignal,
): Promise<DecodedMessage> {
  return attempt<DecodedMessage>(server.label, ms, signal, (finish) => {
    const socket = dgram.createSocket({
      type: server.family === 6 ? 'udp6' : 'udp4',
      lookup: literalLookup,
    });
    let closed = false;
    socket.on('error', (error) => finish(networkError(server.label, error)));
    socket.on('message', (message, rinfo) => {
      if (rinfo.port !== server.port) return;
      const decoded = matchResponse(message, query);
      if (decoded) finish(undefined, decoded);
    });
    socket.connect(server.port, server.host, () => {
      if (closed) return;
      socket.send(query.wire, (error) => {
        if (error) finish(networkError(server.label, error));
      });
    });
    return () => {
      closed = true;
      try {
        socket.close();
      } catch {
        // already closed after an error
      }
    };
  });
}

/**
 * Servers are IP literals and the socket binds to the wildcard address, so no name is ever
 * resolved: dgram's implicit `dns.lookup` is replaced by a literal check.
 */
function literalLookup(
  address: string,
  _family: unknown,
  callback: (error: Error | null, address: string, family: number) => void,
): void {
  const family = isIP(address);
  if (family === 0) callback(new Error(`${address} is not an IP address`), address, 0);
  else callback(null, address, family);
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
    });
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    if (isNetdiagError(error, 'UPSTREAM_TIMEOUT')) throw new AttemptTimeout(url, ms);
    throw error;
  }
  if (response.status !== 200) {
    throw new UpstreamError('dns', `DoH server ${hostOf(url)} answered HTTP ${response.status}`);
  }
  const type = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/dns-message') {
    throw new UpstreamError(
      'dns',
      `DoH server ${hostOf(url)} answered with content-type "${type}", not application/dns-message`,
    );
  }
  const decoded = matchResponse(response.body, query);
  if (!decoded) {
    throw new UpstreamError('dns', `DoH server ${hostOf(url)} answered a different question`);
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
