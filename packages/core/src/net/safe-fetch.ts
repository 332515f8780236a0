/**
 * The SSRF-safe HTTP client for user-supplied targets (CONTRACT §4). Per hop: parse (http/https
 * only) → the guard resolves once and checks every address → undici `Client` whose connector is
 * pinned to those addresses (SNI and Host from the URL) → redirects followed by hand, each hop
 * checked again, at most 5 → body read up to 1 MiB → connect 5 s, whole exchange 10 s.
 * Trusted upstreams (RDAP, DoH, …) use `http-client.ts` instead.
 * @module
 */
import { STATUS_CODES } from 'node:http';
import type { Client, Dispatcher } from 'undici';
import { AbortedError, isNetdiagError, TargetNotAllowedError } from '../errors.js';
import {
  allowedSet,
  checkProbeUrl,
  type GuardOptions,
  hostOfUrl,
  parseProbeUrl,
  resolveAndCheck,
} from './guard.js';
import { headerLists, USER_AGENT } from './http-client.js';
import { pinnedConnector, type TlsFacts } from './safe-fetch-connect.js';
import { ProbeError, ProbeTimeoutError, socketFailure } from './safe-fetch-errors.js';
import { toAbortError } from './signal.js';
import { loadUndici } from './undici.js';

/** Redirects followed at most (CONTRACT §4). */
export const MAX_REDIRECTS = 5;
/** Largest body read: 1 MiB (CONTRACT §4). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** TCP + TLS connect budget per hop (CONTRACT §4). */
export const CONNECT_TIMEOUT_MS = 5_000;
/** Whole exchange, all hops and the body (CONTRACT §4). */
export const TOTAL_TIMEOUT_MS = 10_000;

export interface SafeFetchOptions extends GuardOptions {
  /** @default 'GET' */
  method?: 'GET' | 'HEAD';
  /** Extra request headers (an `Origin` for the CORS check, …). */
  headers?: Record<string, string>;
  /** @default 5 */
  maxRedirects?: number;
  /** Bytes of the final body kept; the rest is not read. @default 1 MiB */
  maxBytes?: number;
  /** @default 5000 */
  connectTimeout?: number;
  /**
   * An untrusted certificate: `verify` fails the hop (`tls` ProbeError) before anything is sent;
   * `report` goes on and reports `tls.authorized: false`. @default 'verify'
   */
  tlsPolicy?: 'verify' | 'report';
  /** Extra trusted CA certificates (PEM) on top of Node's bundled roots (internal CAs, tests). */
  ca?: string | Buffer | readonly (string | Buffer)[];
  /** Clock for certificate `daysLeft`. @default Date.now */
  now?: () => number;
}

/** One HTTP answer in the chain. */
export interface SafeFetchHop {
  url: string;
  status: number;
  /** The checked address the request went to. */
  address: string;
  /** The `Location` header of a redirect. */
  location: string | null;
}

export interface SafeFetchResponse {
  /** The final URL after redirects. */
  url: string;
  status: number;
  /** Standard reason phrase for the status (RFC 9110 §15). */
  statusText: string;
  /** Final response headers: lower-case name → every value in order of arrival. */
  headers: Record<string, string[]>;
  /** `Set-Cookie` values of every hop, in order. */
  setCookies: string[];
  body: Buffer;
  /** Why the body is incomplete: the byte cap or the time budget hit first. */
  bodyTruncated: 'max-bytes' | 'timeout' | null;
  /** Every answer, redirects first, the final one last. */
  hops: SafeFetchHop[];
  /** Redirects followed (= hops.length - 1). */
  redirects: number;
  /** Address of the final connection. */
  address: string;
  /** Certificate facts of the final hop (https only). */
  tls: TlsFacts | null;
  /** Start → final response headers, including DNS and redirects. */
  responseMs: number;
  /** Start → body read. */
  totalMs: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches a user-supplied URL through the guard. Rejects with `InvalidInputError` (bad URL or
 * scheme), `TargetNotAllowedError` (a hop is not public), `NotFoundError`/`UpstreamError` from
 * DNS, `ProbeError` (refused, reset, unreachable, tls, protocol, redirects),
 * `ProbeTimeoutError` (connect or response budget) or `AbortedError`. A body still arriving
 * when the budget ends is cut (`bodyTruncated: 'timeout'`) rather than failing the fetch.
 */
export async function safeFetch(
  input: string | URL,
  options: SafeFetchOptions = {},
): Promise<SafeFetchResponse> {
  const totalMs = options.timeout === undefined ? TOTAL_TIMEOUT_MS : options.timeout;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const allowed = allowedSet(options.allowedTargets);
  const started = performance.now();
  const budget = new AbortController();
  const timer =
    totalMs === false
      ? undefined
      : setTimeout(() => budget.abort(new ProbeTimeoutError('response', totalMs)), totalMs);
  const signal = options.signal ? AbortSignal.any([budget.signal, options.signal]) : budget.signal;
  const hops: SafeFetchHop[] = [];
  const setCookies: string[] = [];
  // A URL object was parsed (and its length checked) by the caller: only its scheme, host and
  // port are checked again, on a copy.
  let url = typeof input === 'string' ? parseProbeUrl(input) : checkProbeUrl(new URL(input.href));
  try {
    for (let hop = 0; ; hop++) {
      if (signal.aborted) throw signal.reason;
      const { host } = hostOfUrl(url);
      const checked = await resolveAndCheck(host, {
        resolver: options.resolver,
        allowedTargets: allowed,
        signal,
      }).catch((error: unknown) => {
        throw hops.length > 0 ? refusedRedirect(error, hops, url) : error;
      });
      const exchange = await requestOnce(url, checked.addresses, checked.literal, options, signal);
      const { response, client } = exchange;
      try {
        const headers = headerLists(response.headers);
        const location = headers['location']?.[0] ?? null;
        setCookies.push(...(headers['set-cookie'] ?? []));
        hops.push({
          url: url.href,
          status: response.statusCode,
          address: exchange.address,
          location,
        });
        if (REDIRECT_STATUSES.has(response.statusCode) && location !== null) {
          await response.body.dump({ limit: 64 * 1024 }).catch(() => {});
          if (hop >= maxRedirects) {
            throw new ProbeError(
              'redirects',
              `more than ${maxRedirects} redirects (the last one from ${url.href} to ${location})`,
              undefined,
              response.statusCode,
              { redirects: hops.length - 1, url: url.href, address: exchange.address },
            );
          }
          url = nextHop(url, location);
          continue;
        }
        const responseMs = performance.now() - started;
        const { body, truncated } = await readBody(
          response.body,
          options.maxBytes ?? MAX_BODY_BYTES,
          budget.signal,
          options.signal,
        );
        return {
          url: url.href,
          status: response.statusCode,
          statusText: STATUS_CODES[response.statusCode] ?? '',
          headers,
          setCookies,
          body,
          bodyTruncated: truncated,
          hops,
          redirects: hops.length - 1,
          address: exchange.address,
          tls: exchange.tls,
          responseMs: round(responseMs),
          totalMs: round(performance.now() - started),
        };
      } finally {
        void client.destroy().catch(() => {});
      }
    }
  } catch (error) {
    if (options.signal?.aborted) throw toAbortError(options.signal.reason);
    if (budget.signal.aborted && !isNetdiagError(error, 'TARGET_NOT_ALLOWED')) {
      throw budget.signal.reason;
    }
    throw error;
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/**
 * A guard refusal of a redirect target names the hop: which redirect, from where, to where, and
 * why (issue 20 item 12). Other errors pass unchanged.
 */
function refusedRedirect(error: unknown, hops: readonly SafeFetchHop[], to: URL): unknown {
  if (!isNetdiagError(error, 'TARGET_NOT_ALLOWED')) return error;
  const from = hops[hops.length - 1]?.url ?? '';
  const reason = error.message.replace(/^(\[netdiag\] )?(\[[^\]]*\] )?Target not allowed: /, '');
  return new TargetNotAllowedError(
    `redirect ${hops.length} (from ${from} to ${to.href}) was refused: ${reason}`,
  );
}

/** Resolves a Location against the current URL and re-applies the URL rules. */
function nextHop(current: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, current);
  } catch (error) {
    throw new ProbeError(
      'protocol',
      `invalid redirect Location ${JSON.stringify(location)}`,
      error,
    );
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new TargetNotAllowedError(
      `redirect from ${current.href} to a ${next.protocol.replace(/:$/, '')} URL; only http and https are followed`,
    );
  }
  if (next.port === '0') {
    throw new ProbeError('protocol', `redirect from ${current.href} to port 0 (${next.href})`);
  }
  next.username = '';
  next.password = '';
  next.hash = '';
  return next;
}

interface Exchange {
  response: Dispatcher.ResponseData;
  client: Client;
  address: string;
  tls: TlsFacts | null;
}

async function requestOnce(
  url: URL,
  addresses: readonly string[],
  literal: boolean,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<Exchange> {
  const connected = { address: addresses[0] ?? '', tls: null as TlsFacts | null };
  const { Client } = await loadUndici();
  const client = new Client(url.origin, {
    connect: pinnedConnector({
      addresses,
      servername: literal ? undefined : hostOfUrl(url).host,
      connectTimeout: options.connectTimeout ?? CONNECT_TIMEOUT_MS,
      tlsPolicy: options.tlsPolicy ?? 'verify',
      ...(options.ca ? { ca: options.ca } : {}),
      signal,
      now: options.now ?? Date.now,
      onConnected(info) {
        connected.address = info.address;
        connected.tls = info.tls;
      },
    }),
    pipelining: 1,
    // The overall budget (our timer) governs; these only stop undici's own 300 s defaults.
    headersTimeout: 0,
    bodyTimeout: 0,
    keepAliveTimeout: 1_000,
  });
  try {
    const response = await client.request({
      path: `${url.pathname}${url.search}`,
      method: options.method ?? 'GET',
      headers: {
        'user-agent': USER_AGENT,
        accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
        'accept-encoding': 'identity',
        ...options.headers,
      },
      signal,
    });
    return { response, client, address: connected.address, tls: connected.tls };
  } catch (error) {
    void client.destroy().catch(() => {});
    if (signal.aborted) throw signal.reason;
    if (isNetdiagError(error)) throw error;
    throw socketFailure(error, url.host);
  }
}

/**
 * Reads at most `maxBytes`. The budget running out mid-body ends the read with what arrived
 * (`timeout`); the caller's own abort still rejects.
 */
function readBody(
  body: Dispatcher.ResponseData['body'],
  maxBytes: number,
  budget: AbortSignal,
  callerSignal: AbortSignal | undefined,
): Promise<{ body: Buffer; truncated: 'max-bytes' | 'timeout' | null }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (truncated: 'max-bytes' | 'timeout' | null, error?: unknown) => {
      if (done) return;
      done = true;
      budget.removeEventListener('abort', onBudget);
      body.off('data', onData);
      if (truncated !== null || error) body.destroy();
      if (error) reject(error);
      else resolve({ body: Buffer.concat(chunks, size), truncated });
    };
    const onBudget = () => finish('timeout');
    const onData = (chunk: Buffer) => {
      const kept = chunk.subarray(0, Math.max(0, maxBytes - size));
      chunks.push(kept);
      size += kept.length;
      if (kept.length < chunk.length) finish('max-bytes');
    };
    if (budget.aborted) return finish('timeout');
    budget.addEventListener('abort', onBudget, { once: true });
    body.on('data', onData);
    body.once('end', () => finish(null));
    body.once('error', (error) => {
      if (callerSignal?.aborted) finish(null, new AbortedError(callerSignal.reason));
      else if (budget.aborted) finish('timeout');
      else finish(null, socketFailure(error, 'the target'));
    });
  });
}

/** All values of a header joined as RFC 9110 §5.3 allows (not for Set-Cookie). */
export function headerValue(headers: Record<string, string[]>, name: string): string | null {
  const values = headers[name.toLowerCase()];
  return values && values.length > 0 ? values.join(', ') : null;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
