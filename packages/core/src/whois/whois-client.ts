/**
 * One WHOIS query over TCP (RFC 3912: connect to port 43, send the query and CRLF, read until
 * the server closes). Each hop is bounded in time and bytes, and the answer is decoded as
 * UTF-8 when it is valid UTF-8, else as ISO-8859-1 (RFC 3912 §3 leaves the character set
 * unspecified; older ccTLD servers still answer in Latin-1).
 * @module
 */
import { createConnection } from 'node:net';
import { TimeoutError, UpstreamError } from '../errors.js';
import type { DnsResolver } from '../net/dns-types.js';
import { formatHostPort, parseHostPort } from '../net/host-port.js';
import { resolverLookup } from '../net/resolve-host.js';
import { raceAbort } from '../net/signal.js';
import { failureInWords } from '../net/socket-failure.js';

export interface WhoisServer {
  host: string;
  port: number;
}

/** The IANA-assigned WHOIS port (RFC 3912 §2). */
export const WHOIS_PORT = 43;
/** Default per-hop budget: registries answer in well under a second; slow ones in a few. */
export const DEFAULT_WHOIS_HOP_TIMEOUT_MS = 8_000;
/** Default per-hop byte cap: real answers are 1–10 KB; 256 KiB bounds a hostile server. */
export const DEFAULT_WHOIS_MAX_BYTES = 256 * 1024;

/** `host`, `host:port`, `[v6]:port` or a bare IPv6 address → host and port. */
export function parseWhoisServer(text: string, defaultPort = WHOIS_PORT): WhoisServer | undefined {
  return parseHostPort(text, { defaultPort, names: true });
}

/** `host[:port]`, the port left out when it is 43. */
export function formatWhoisServer(server: WhoisServer): string {
  return formatHostPort(server, WHOIS_PORT);
}

/** UTF-8 when the bytes are valid UTF-8, otherwise ISO-8859-1; a BOM is dropped. */
export function decodeWhois(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = Buffer.from(bytes).toString('latin1');
  }
  return text.startsWith('\ufeff') ? text.slice(1) : text;
}

/** What `queryWhoisServer` asks: the query line, sent to one server. */
export interface WhoisQueryInput {
  server: WhoisServer;
  /** The query line, without the CRLF. */
  query: string;
  /** The address of a referral already checked by the SSRF guard. @default resolve `host` */
  address?: string;
}

export interface WhoisQueryOptions {
  signal?: AbortSignal;
  /** Connect + answer budget in ms. @default 8000 */
  timeoutMs?: number;
  /** Bytes read before the answer is cut off. @default 262144 */
  maxBytes?: number;
  /** Resolves a server given by name. @default the system resolver (getaddrinfo) */
  resolver?: DnsResolver;
}

export interface WhoisAnswer {
  /** `host[:port]` that answered. */
  server: string;
  text: string;
  /** True when the answer hit `maxBytes` and was cut off. */
  truncated: boolean;
}

/** Sends `query` to `server`. Throws `TimeoutError('whois', ms)`, `UpstreamError('whois', …)`. */
export function queryWhoisServer(
  input: WhoisQueryInput,
  options: WhoisQueryOptions = {},
): Promise<WhoisAnswer> {
  const { server, query } = input;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WHOIS_HOP_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_WHOIS_MAX_BYTES;
  const name = formatWhoisServer(server);
  const socket = createConnection({
    host: input.address ?? server.host,
    port: server.port,
    ...(options.resolver && !input.address ? { lookup: resolverLookup(options.resolver) } : {}),
  });
  const answer = new Promise<WhoisAnswer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const settle = (outcome: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      outcome();
    };
    const finish = (truncated: boolean) =>
      settle(() => resolve({ server: name, text: decodeWhois(Buffer.concat(chunks)), truncated }));
    const fail = (error: Error) => settle(() => reject(error));
    const timer = setTimeout(() => fail(new TimeoutError('whois', timeoutMs)), timeoutMs);
    socket.setNoDelay(true);
    socket.on('connect', () => socket.write(`${query}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      const kept = chunk.subarray(0, maxBytes - size);
      chunks.push(kept);
      size += kept.length;
      if (kept.length < chunk.length) finish(true);
    });
    socket.on('end', () => finish(false));
    socket.on('close', () => finish(false));
    socket.on('error', (error) => {
      const why = `cannot reach the WHOIS server: ${failureInWords(error)}`;
      fail(new UpstreamError('whois', why, error, name));
    });
  });
  if (!options.signal) return answer;
  const signal = options.signal;
  const onAbort = () => socket.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  return raceAbort(answer, signal).finally(() => signal.removeEventListener('abort', onAbort));
}
