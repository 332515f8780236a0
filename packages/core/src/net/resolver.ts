/**
 * The built-in `DnsResolver`: a stub resolver on dns-packet. UDP with EDNS0, TCP when the answer
 * is truncated, random ids and source ports, answers checked against the question, a timeout
 * per server with failover across the list, or DNS-over-HTTPS; a TTL-honouring cache with
 * negative caching (RFC 2308) and collapsing of identical in-flight queries.
 * @module
 */
import dns from 'node:dns';
import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import {
  ConfigError,
  InvalidInputError,
  isNetdiagError,
  TimeoutError,
  UpstreamError,
} from '../errors.js';
import { type Cache, createMemoryCache, createSingleFlight } from './cache.js';
import type {
  DnsQueryOptions,
  DnsRecord,
  DnsResolver,
  DnsResponse,
  RecordType,
} from './dns-types.js';
import { type CachedResponse, cacheTtlSeconds, fromCache } from './resolver-cache.js';
import { toDnsRecord } from './resolver-records.js';
import { type DnsServer, parseDnsServers } from './resolver-servers.js';
import { AttemptTimeout, dohExchange, tcpExchange, udpExchange } from './resolver-transport.js';
import { buildQuery, type DecodedMessage } from './resolver-wire.js';
import { DEFAULT_TIMEOUT_MS, raceAbort, withTimeout } from './signal.js';

export interface ResolverOptions {
  /**
   * Servers as `ip`, `ip:port` or `[v6]:port`, asked in order (the next one when a server
   * times out, fails or answers SERVFAIL/REFUSED).
   * @default the system's resolvers (`dns.getServers()` from node:dns), read at the first query
   */
  servers?: readonly string[];
  /**
   * DNS-over-HTTPS endpoint (RFC 8484); when set, queries go there and not to `servers`.
   * A host name in the URL is itself resolved over plain DNS through `servers` (a bootstrap,
   * as browsers do; RFC 8484 leaves it to the client), or through the system's resolvers
   * from `dns.getServers()` when `servers` is not given — asked by this client, never through
   * getaddrinfo. An IP literal in the URL needs no bootstrap.
   */
  dohUrl?: string;
  /** HTTP method for DoH. @default 'POST' */
  dohMethod?: 'GET' | 'POST';
  /**
   * undici dispatcher for DoH (proxy, pinned connections, tests); when given, it decides how
   * the DoH host is reached (no bootstrap).
   */
  dispatcher?: Dispatcher;
  /**
   * Time one server gets to answer one attempt before the next server is asked.
   * @default 2000
   */
  attemptTimeout?: number;
  /**
   * Rounds over the server list for servers that timed out or failed (glibc's `attempts`,
   * RES_DFLRETRY = 2 in resolv.h).
   * @default 2
   */
  tries?: number;
  /** Overall budget of one query when the caller gives none. @default 10000 */
  timeout?: number | false;
  /** Response cache; `false` disables caching. @default an in-memory LRU of 10 000 entries */
  cache?: Cache | false;
  /** Prefix of cache keys, to share one store between resolvers. @default 'dns:' */
  cachePrefix?: string;
  /** Send the EDNS0 OPT record (RFC 6891). @default true */
  edns?: boolean;
  /**
   * Ask over TCP from the start (RFC 7766 allows it; `dig +tcp`), not only after a truncated
   * UDP answer. @default false
   */
  tcp?: boolean;
  /** Clock used to age cached TTLs; give the same clock to the cache in tests. @default Date.now */
  now?: () => number;
}

export interface Resolver extends DnsResolver {
  /** The servers in use (`ip:port` labels) or the DoH URL. */
  readonly servers: readonly string[];
}

/** A resolver with its own cache and in-flight table. */
export function createResolver(options: ResolverOptions = {}): Resolver {
  const now = options.now ?? Date.now;
  const cache =
    options.cache === false
      ? undefined
      : (options.cache ?? createMemoryCache({ max: 10_000, now }));
  const prefix = options.cachePrefix ?? 'dns:';
  const attemptMs = options.attemptTimeout ?? 2000;
  const tries = Math.max(1, options.tries ?? 2);
  const budget = options.timeout ?? DEFAULT_TIMEOUT_MS;
  const edns = options.edns ?? true;
  const tcpOnly = options.tcp === true;
  const dohUrl = options.dohUrl;
  if (dohUrl !== undefined) assertHttpUrl(dohUrl);
  let configured = options.servers ? parseDnsServers(options.servers) : undefined;
  const servers = (): DnsServer[] => {
    if (!configured) configured = parseDnsServers(dns.getServers());
    if (configured.length === 0) {
      throw new UpstreamError('dns', 'no DNS servers are configured on this system');
    }
    return configured;
  };
  const flight = createSingleFlight();
  // The DoH server's own name is resolved over plain DNS (see `dohUrl`), cached beside ours.
  const dohBootstrap =
    dohUrl !== undefined && isIP(new URL(dohUrl).hostname.replace(/^\[|\]$/g, '')) === 0
      ? createResolver({
          ...(options.servers ? { servers: options.servers } : {}),
          attemptTimeout: attemptMs,
          tries,
          timeout: budget,
          cache: cache ?? false,
          cachePrefix: `${prefix}doh-bootstrap:`,
          edns,
          now,
        })
      : undefined;

  /**
   * Asks one server; TCP when the UDP answer is truncated (RFC 7766 §5). A TCP answer that is
   * itself truncated cannot be completed by any retry: it is a `TruncatedAnswerError`.
   */
  async function ask(
    server: DnsServer,
    name: string,
    type: RecordType,
    signal: AbortSignal,
  ): Promise<DnsResponse> {
    let useEdns = edns;
    for (;;) {
      const query = buildQuery(name, type, { edns: useEdns });
      let message = tcpOnly
        ? await tcpExchange(server, query, attemptMs, signal)
        : await udpExchange(server, query, attemptMs, signal);
      let transport: DnsResponse['transport'] = tcpOnly ? 'tcp' : 'udp';
      if (tcpOnly && message.flag_tc) {
        throw new TruncatedAnswerError(server.label, name, type, 'TCP');
      }
      if (message.flag_tc) {
        const retry = buildQuery(name, type, { edns: useEdns });
        message = await tcpExchange(server, retry, attemptMs, signal);
        transport = 'tcp';
        if (message.flag_tc) throw new TruncatedAnswerError(server.label, name, type, 'TCP');
      }
      // A server that does not know EDNS answers FORMERR: ask again without it (RFC 6891 §7).
      if (useEdns && message.rcode === 'FORMERR') {
        useEdns = false;
        continue;
      }
      return toResponse(message, name, type, server.label, transport);
    }
  }

  async function askDoh(
    url: string,
    name: string,
    type: RecordType,
    signal: AbortSignal,
  ): Promise<DnsResponse> {
    const query = buildQuery(name, type, { edns, id: 0 });
    const message = await dohExchange(url, query, attemptMs, signal, {
      method: options.dohMethod ?? 'POST',
      dispatcher: options.dispatcher,
      resolver: dohBootstrap,
    });
    // DoH carries the whole message like TCP does (RFC 8484 §6), and there is no TCP to fall
    // back to: a truncated DoH answer is unusable.
    if (message.flag_tc) throw new TruncatedAnswerError(url, name, type, 'DNS-over-HTTPS');
    return toResponse(message, name, type, url, 'doh');
  }

  /** Failover: every server in order, `tries` rounds for those that timed out or failed. */
  async function exchange(name: string, type: RecordType, signal: AbortSignal) {
    const started = now();
    const targets: (DnsServer | string)[] = dohUrl !== undefined ? [dohUrl] : servers();
    const answered = new Set<DnsServer | string>();
    let failure: DnsResponse | undefined;
    let lastError: unknown;
    let allTimeouts = true;
    for (let round = 0; round < tries; round++) {
      for (const target of targets) {
        if (answered.has(target)) continue;
        try {
          const response =
            typeof target === 'string'
              ? await askDoh(target, name, type, signal)
              : await ask(target, name, type, signal);
          if (response.rcode === 'SERVFAIL' || response.rcode === 'REFUSED') {
            // This server answered; another one may do better (RFC 1035 §7.2).
            failure = response;
            answered.add(target);
            continue;
          }
          return response;
        } catch (error) {
          if (signal.aborted) throw signal.reason ?? error;
          lastError = error;
          if (!(error instanceof AttemptTimeout)) allTimeouts = false;
          // The server answered; asking it again would bring the same truncated answer.
          if (error instanceof TruncatedAnswerError) answered.add(target);
        }
      }
      if (answered.size === targets.length) break;
    }
    if (failure) return failure;
    if (allTimeouts) throw new TimeoutError('dns', Math.max(attemptMs, now() - started));
    if (isNetdiagError(lastError)) throw lastError;
    throw new UpstreamError(
      'dns',
      (lastError as Error)?.message ?? 'no server answered',
      lastError,
    );
  }

  async function resolveAndStore(name: string, type: RecordType, key: string) {
    const response = await withTimeout({ timeout: budget }, 'dns', (signal) =>
      exchange(name, type, signal),
    );
    const ttl = cacheTtlSeconds(response);
    if (cache && ttl > 0) {
      const entry: CachedResponse = { response, storedAt: now() };
      await cache.set(key, entry, ttl * 1000);
    }
    return response;
  }

  return {
    get servers() {
      if (dohUrl !== undefined) return [dohUrl];
      return (configured ?? []).map((s) => s.label);
    },
    async query(name: string, type: RecordType, queryOptions: DnsQueryOptions = {}) {
      const qname = normaliseQueryName(name);
      const key = `${prefix}${type}:${qname}`;
      const withBudget =
        queryOptions.timeout === undefined ? { ...queryOptions, timeout: budget } : queryOptions;
      return withTimeout(withBudget, 'dns', async (signal) => {
        if (cache) {
          const hit = await cache.get<CachedResponse>(key);
          if (hit) return fromCache(hit, now());
        }
        // Collapsed callers share one exchange bounded by the resolver's budget; each caller
        // still stops waiting at its own deadline or abort.
        return raceAbort(
          flight(key, () => resolveAndStore(qname, type, key)),
          signal,
        );
      });
    },
  };
}

/**
 * A truncated answer (TC bit, RFC 1035 §4.1.1) where no retry can get the full one: over TCP
 * (RFC 7766: TCP is the transport that carries answers too large for UDP, so TC there means the
 * server could not send it at all) or over DNS-over-HTTPS. A truncated answer is incomplete
 * (RFC 2181 §9), so its records — usually none — must not be reported as the answer.
 */
export class TruncatedAnswerError extends UpstreamError {
  override name = 'TruncatedAnswerError';
  constructor(server: string, name: string, type: RecordType, transport: string) {
    super(
      'dns',
      `the DNS server sent a truncated answer (TC bit set) over ${transport} for ${name} ${type}; ` +
        'the full answer cannot be obtained, so the records are unknown',
      undefined,
      server,
    );
  }
}

function toResponse(
  message: DecodedMessage,
  name: string,
  type: RecordType,
  server: string,
  transport: DnsResponse['transport'],
): DnsResponse {
  const records = (list: DecodedMessage['answers']): DnsRecord[] =>
    (list ?? [])
      // Only class IN is ours; OPT has no class and is dropped by toDnsRecord.
      .filter((a) => ((a as { class?: string }).class ?? 'IN') === 'IN')
      .map((a) => toDnsRecord(a as Parameters<typeof toDnsRecord>[0]))
      .filter((r): r is DnsRecord => r !== undefined);
  return {
    name,
    type,
    rcode: message.rcode ?? 'NOERROR',
    answers: records(message.answers),
    authority: records(message.authorities),
    authenticated: message.flag_ad === true,
    server,
    transport,
  };
}

/**
 * Lower case, no trailing dot; RFC 1035 §2.3.4 sizes (labels 1–63, at most 253 characters).
 * Callers validate user input with `normaliseDomain`; this only refuses what cannot be sent.
 */
export function normaliseQueryName(name: string): string {
  const text = name.trim().toLowerCase().replace(/\.$/, '');
  const labels = text.split('.');
  if (
    text === '' ||
    text.length > 253 ||
    labels.some((l) => l.length === 0 || Buffer.byteLength(l) > 63)
  ) {
    throw new InvalidInputError(`"${name}" is not a domain name that can be queried`, 'name');
  }
  return text;
}

function assertHttpUrl(url: string): void {
  let ok = false;
  try {
    const parsed = new URL(url);
    ok = parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    ok = false;
  }
  if (!ok) throw new ConfigError(`The DoH URL must be an http(s) URL, got "${url}"`);
}

let defaultResolver: Resolver | undefined;

/** The library's shared resolver (system servers, in-memory cache), created on first use. */
export function getDefaultResolver(): Resolver {
  defaultResolver ??= createResolver();
  return defaultResolver;
}
