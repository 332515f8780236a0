/**
 * The HTTP client for trusted upstreams (RDAP, breach database, Tor list, DoH): a time budget, a
 * byte cap, names resolved through a `DnsResolver`, failures named by upstream. User-supplied
 * targets go through `safe-fetch.ts`; hosts named by remote answers through the SSRF guard.
 * @module
 */
import { isIP } from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import { isNetdiagError, ThrottledError, UpstreamError } from '../errors.js';
import type { BaseOptions } from '../types.js';
import type { DnsResolver } from './dns-types.js';
import type { CidrSet } from './ranges.js';
import { resolverLookup } from './resolve-host.js';
import { withTimeout } from './signal.js';
import { failureInWords } from './socket-failure.js';
import { loadUndici } from './undici.js';
import { checkReferredHost, guardedLookup, refusal } from './upstream-guard.js';

type Undici = Awaited<ReturnType<typeof loadUndici>>;

export const USER_AGENT = 'netdiag (+https://github.com/netdiag/netdiag)';

export interface UpstreamRequestOptions extends BaseOptions {
  /** Name used in errors and logs (`rdap`, `breach`, …). */
  upstream: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Largest body read, in bytes. @default 5 MiB */
  maxBytes?: number;
  /** Redirects followed. @default 3 */
  maxRedirects?: number;
  /** An undici dispatcher (proxy, mock agent, pinned connections); wins over `resolver`. */
  dispatcher?: Dispatcher;
  /**
   * Resolve the host names of the URL (and of redirects) through this resolver instead of the
   * system's getaddrinfo; the connection goes to the address, SNI and Host keep the name.
   * IP literals are used as they are. @default the system resolver (via undici)
   */
  resolver?: DnsResolver;
  /**
   * Which hops go through the SSRF guard: `'redirects'` to another origin (the URL itself is
   * trusted configuration), or `'all'` when the URL came from a remote answer (an RDAP registry,
   * a registrar link). A refused hop throws an `UpstreamError` saying which URL and why.
   * @default { scope: 'redirects' }
   */
  guard?: { scope: 'redirects' | 'all'; allowedTargets?: readonly string[] | CidrSet };
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The final URL after redirects. */
  url: string;
}

/**
 * Sends one request and reads the whole body (up to `maxBytes`). Any status is returned; only
 * network failures, oversize bodies and timeouts throw. 429/503 with Retry-After are left to the
 * caller: use `throwForStatus` for the common mapping.
 */
export async function upstreamRequest(
  url: string,
  options: UpstreamRequestOptions,
): Promise<UpstreamResponse> {
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const undici = await loadUndici();
  return withTimeout(options, options.upstream, async (signal) => {
    let current = url;
    const trustedOrigin = new URL(url).origin;
    const scope = options.guard?.scope ?? 'redirects';
    for (let hop = 0; ; hop++) {
      const target = new URL(current);
      const guarded = scope === 'all' || target.origin !== trustedOrigin;
      const what =
        hop === 0
          ? `${target.origin} (named by a remote answer)`
          : `a redirect to ${target.origin}`;
      let response: Dispatcher.ResponseData;
      try {
        if (guarded) await checkLiteralTarget(target, what, options, signal);
        response = await undici.request(current, {
          method: options.method ?? 'GET',
          headers: { 'user-agent': USER_AGENT, ...options.headers },
          body: options.body,
          signal,
          ...(guarded ? guardedDispatcherOf(options, undici) : dispatcherOf(options, undici)),
        });
      } catch (error) {
        if (signal.aborted) throw error;
        const refused = guardRefusal(error, what, options.upstream);
        if (refused) throw refused;
        // The host and the low-level text stay in `server` and `cause` (CLI, logs): an API
        // client learns which upstream failed and how, not where netdiag's upstreams are.
        const server = SERVER_NAMES[options.upstream] ?? `the ${options.upstream} server`;
        throw new UpstreamError(
          options.upstream,
          `cannot reach ${server}: ${failureInWords(error)}`,
          error,
          new URL(current).host,
        );
      }
      const headers = flattenHeaders(response.headers);
      const location = headers['location'];
      const redirect = response.statusCode >= 300 && response.statusCode < 400;
      if (redirect && location && hop < (options.maxRedirects ?? 3)) {
        await response.body.dump();
        current = new URL(location, current).toString();
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          response.body.destroy();
          throw new UpstreamError(options.upstream, `answer larger than ${maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      return { status: response.statusCode, headers, body: Buffer.concat(chunks), url: current };
    }
  });
}

/** One keep-alive agent per resolver, so requests through it share connections. */
const agents = new WeakMap<DnsResolver, Agent>();

/** The undici agent whose connections resolve host names through `resolver`. */
export function resolverAgent(resolver: DnsResolver, { Agent }: Undici): Agent {
  return memo(agents, resolver, () => new Agent({ connect: { lookup: resolverLookup(resolver) } }));
}

function memo<K extends object, V>(map: WeakMap<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/**
 * A guarded hop to an IP literal: no lookup happens, so the guard's lookup in the agent never
 * runs; check the address here. Names are checked by `guardedLookup` when the agent connects
 * (or here, when a caller-supplied dispatcher connects instead).
 */
async function checkLiteralTarget(
  target: URL,
  what: string,
  options: UpstreamRequestOptions,
  signal: AbortSignal,
): Promise<void> {
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.dispatcher && isIP(host) === 0) return;
  await checkReferredHost(host, what, options.upstream, {
    resolver: options.resolver,
    allowedTargets: options.guard?.allowedTargets,
    signal,
  });
}

/** How messages name an upstream's server; others are `the <upstream> server`. */
const SERVER_NAMES: Record<string, string> = {
  dns: 'the DoH server',
  rdap: 'the RDAP server',
  'rdap-bootstrap': 'the RDAP bootstrap server',
  breach: 'the breach database',
};

/**
 * The guard's refusal anywhere in an error's cause chain (undici may wrap what the lookup
 * threw), as the upstream's error; `undefined` when the guard did not refuse.
 */
function guardRefusal(error: unknown, what: string, upstream: string): unknown {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (isNetdiagError(e) && e.code === 'TARGET_NOT_ALLOWED') return refusal(e, what, upstream);
    if (isNetdiagError(e) && e.upstream === upstream) return e; // already the upstream's error
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Guarded agents, per resolver and allowed list (the engine passes the same objects each time). */
const guardedAgents = new WeakMap<object, WeakMap<object, Agent>>();
const NO_RESOLVER = {};
const NOTHING_ALLOWED = {};

function guardedDispatcherOf(
  options: UpstreamRequestOptions,
  { Agent }: Undici,
): { dispatcher?: Dispatcher } {
  if (options.dispatcher) return { dispatcher: options.dispatcher };
  const { resolver } = options;
  const allowedTargets = options.guard?.allowedTargets;
  const byAllowed = memo(guardedAgents, resolver ?? NO_RESOLVER, () => new WeakMap());
  const agent = memo(byAllowed, (allowedTargets as object | undefined) ?? NOTHING_ALLOWED, () => {
    return new Agent({ connect: { lookup: guardedLookup({ resolver, allowedTargets }) } });
  });
  return { dispatcher: agent };
}

function dispatcherOf(
  options: UpstreamRequestOptions,
  undici: Undici,
): { dispatcher?: Dispatcher } {
  if (options.dispatcher) return { dispatcher: options.dispatcher };
  if (options.resolver) return { dispatcher: resolverAgent(options.resolver, undici) };
  return {};
}

/** 429 / 503 with Retry-After → ThrottledError; other non-2xx → UpstreamError. */
export function throwForStatus(response: UpstreamResponse, upstream: string): void {
  if (response.status >= 200 && response.status < 300) return;
  if (response.status === 429 || (response.status === 503 && response.headers['retry-after'])) {
    throw new ThrottledError(upstream, parseRetryAfter(response.headers['retry-after']));
  }
  throw new UpstreamError(upstream, `answered HTTP ${response.status}`);
}

/** Retry-After in seconds (delta-seconds or an HTTP date, RFC 9110 §10.2.3); default 60. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number {
  if (!value) return 60;
  if (/^\d+$/.test(value.trim())) return Math.max(1, Number(value.trim()));
  const date = Date.parse(value);
  return Number.isNaN(date) ? 60 : Math.max(1, Math.ceil((date - now) / 1000));
}

/** Parses a JSON body, naming the upstream when it is not JSON. */
export function parseJsonBody<T>(response: UpstreamResponse, upstream: string): T {
  try {
    return JSON.parse(response.body.toString('utf8')) as T;
  } catch (error) {
    throw new UpstreamError(upstream, 'answered with a body that is not valid JSON', error);
  }
}

/** undici's header object → lower-case name → list of values. */
export function headerLists(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    out[key] = [...(out[key] ?? []), ...[value].flat()];
  }
  return out;
}

/** Each header's values joined with `, ` (RFC 9110 §5.3). */
function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const lists = Object.entries(headerLists(headers));
  return Object.fromEntries(lists.map(([name, values]) => [name, values.join(', ')]));
}
