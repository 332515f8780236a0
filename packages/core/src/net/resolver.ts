/**
 * The built-in `DnsResolver`: a stub resolver on dns-packet. UDP with EDNS0, TCP when the answer
 * is truncated, random ids and source ports, answers checked against the question, a timeout
 * per server with failover across the list, or DNS-over-HTTPS; a TTL-honouring cache with
 * negative caching (RFC 2308) and collapsing of identical in-flight queries.
 * One piece: the query's life (cache, in-flight collapse, attempts, failover) shares its state.
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
import { sharedDeadlines } from './deadlines.js';
import type {
  DnsQueryOptions,
  DnsRecord,
  DnsResolver,
  DnsResponse,
  RecordType,
} from './dns-types.js';
import { type CachedResponse, cacheTtlSeconds, fromCache } from './resolver-cache.js';
import { extendedDnsErrors, toDnsRecord } from './resolver-records.js';
import { type DnsServer, parseDnsServers } from './resolver-servers.js';
import { getDefaultUdpSocketPool, type UdpSocketPool } from './resolver-socket-pool.js';
import { AttemptTimeout, dohExchange, tcpExchange } from './resolver-transport.js';
import { buildQuery, type DecodedMessage, type Query } from './resolver-wire.js';
import { DEFAULT_TIMEOUT_MS, toAbortError, whenAborted } from './signal.js';
import { failureInWords } from './socket-failure.js';

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
  /** UDP sockets to send through. @default the process-wide pool (resolver-socket-pool.ts) */
  udpPool?: UdpSocketPool;
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
  const deadlines = sharedDeadlines();
  const udpPool = () => options.udpPool ?? getDefaultUdpSocketPool();
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
   * One exchange that collapsed callers share, bounded by the resolver's budget (an entry in
   * the shared deadline queue). UDP attempts use the pool's callbacks; TCP and DoH get a signal
   * made on demand.
   */
  interface Job {
    name: string;
    type: RecordType;
    bits: DnssecBits;
    /** Set when the budget ran out; every later step throws it. */
    expired: TimeoutError | undefined;
    /** Stops the attempt in flight (UDP) with the given reason. */
    stop: ((reason: Error) => void) | undefined;
    controller: AbortController | undefined;
  }

  function jobSignal(job: Job): AbortSignal {
    job.controller ??= new AbortController();
    if (job.expired && !job.controller.signal.aborted) job.controller.abort(job.expired);
    return job.controller.signal;
  }

  function udpAttempt(job: Job, server: DnsServer, query: Query): Promise<DecodedMessage> {
    return new Promise<DecodedMessage>((resolve, reject) => {
      let settled = false;
      const cancel = udpPool().send(server, query, attemptMs, (error, message) => {
        if (settled) return;
        settled = true;
        job.stop = undefined;
        if (error === undefined) resolve(message as DecodedMessage);
        else reject(error);
      });
      if (settled) return;
      job.stop = (reason) => {
        if (settled) return;
        settled = true;
        job.stop = undefined;
        cancel();
        reject(reason);
      };
    });
  }

  /**
   * Asks one server; TCP when the UDP answer is truncated (RFC 7766 §5). A TCP answer that is
   * itself truncated cannot be completed by any retry: it is a `TruncatedAnswerError`.
   */
  async function ask(job: Job, server: DnsServer): Promise<DnsResponse> {
    const { name, type } = job;
    let useEdns = edns;
    let sent = job.bits;
    for (;;) {
      const query = buildQuery(name, type, { edns: useEdns, ...sent });
      let message = tcpOnly
        ? await tcpExchange(server, query, attemptMs, jobSignal(job))
        : await udpAttempt(job, server, query);
      let transport: DnsResponse['transport'] = tcpOnly ? 'tcp' : 'udp';
      if (message.flag_tc && !tcpOnly) {
        const retry = buildQuery(name, type, { edns: useEdns, ...sent });
        message = await tcpExchange(server, retry, attemptMs, jobSignal(job));
        transport = 'tcp';
      }
      if (message.flag_tc) throw new TruncatedAnswerError(server.label, name, type, 'TCP');
      // A server that does not know EDNS answers FORMERR: ask again without it (RFC 6891 §7).
      // Without EDNS there is no DO bit either: the answer then carries no signatures.
      if ((useEdns || sent.dnssecOk) && message.rcode === 'FORMERR') {
        useEdns = false;
        sent = { ...sent, dnssecOk: false };
        continue;
      }
      return toResponse(message, name, type, server.label, transport, sent);
    }
  }

  async function askDoh(job: Job, url: string): Promise<DnsResponse> {
    const { name, type, bits } = job;
    const query = buildQuery(name, type, { edns, id: 0, ...bits });
    const message = await dohExchange(url, query, attemptMs, jobSignal(job), {
      method: options.dohMethod ?? 'POST',
      dispatcher: options.dispatcher,
      resolver: dohBootstrap,
    });
    // DoH carries the whole message like TCP does (RFC 8484 §6), and there is no TCP to fall
    // back to: a truncated DoH answer is unusable.
    if (message.flag_tc) throw new TruncatedAnswerError(url, name, type, 'DNS-over-HTTPS');
    return toResponse(message, name, type, url, 'doh', bits);
  }

  /** Failover: every server in order, `tries` rounds for those that timed out or failed. */
  async function exchange(job: Job): Promise<DnsResponse> {
    const started = now();
    const targets: (DnsServer | string)[] = dohUrl !== undefined ? [dohUrl] : servers();
    const answered = new Set<DnsServer | string>();
    let failure: DnsResponse | undefined;
    let lastError: unknown;
    let allTimeouts = true;
    for (let round = 0; round < tries; round++) {
      for (const target of targets) {
        if (answered.has(target)) continue;
        if (job.expired) throw job.expired;
        try {
          const response =
            typeof target === 'string' ? await askDoh(job, target) : await ask(job, target);
          if (response.rcode === 'SERVFAIL' || response.rcode === 'REFUSED') {
            // This server answered; another one may do better (RFC 1035 §7.2).
            failure = response;
            answered.add(target);
            continue;
          }
          return response;
        } catch (error) {
          if (job.expired) throw job.expired;
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
    // The server's address goes in `server`, never in the message (see networkError).
    if (lastError instanceof AttemptTimeout) {
      throw new UpstreamError(
        'dns',
        `the DNS server did not answer within ${lastError.ms} ms`,
        lastError,
        lastError.server,
      );
    }
    throw new UpstreamError(
      'dns',
      `the DNS exchange failed: ${failureInWords(lastError)}`,
      lastError,
    );
  }

  /** The shared exchange under the resolver's budget, then the cache. */
  function resolveAndStore(
    name: string,
    type: RecordType,
    key: string,
    bits: DnssecBits,
  ): Promise<DnsResponse> {
    const job: Job = {
      name,
      type,
      bits,
      expired: undefined,
      stop: undefined,
      controller: undefined,
    };
    return new Promise<DnsResponse>((resolve, reject) => {
      const deadline =
        budget === false
          ? undefined
          : deadlines.add(budget, () => {
              const error = new TimeoutError('dns', budget);
              job.expired = error;
              job.stop?.(error);
              job.controller?.abort(error);
              reject(error);
            });
      exchange(job).then(
        (response) => {
          deadline?.cancel();
          const ttl = cacheTtlSeconds(response);
          if (!cache || ttl <= 0) {
            resolve(response);
            return;
          }
          const entry: CachedResponse = { response, storedAt: now() };
          // A store's failure is the caller's (Redis down: say so rather than answer silently
          // uncached); a local store settles at once.
          Promise.resolve()
            .then(() => cache.set(key, entry, ttl * 1000))
            .then(() => resolve(response), reject);
        },
        (error: unknown) => {
          deadline?.cancel();
          reject(error);
        },
      );
    });
  }

  /**
   * A caller's own deadline and signal around the shared work: the caller stops waiting at its
   * own time, the exchange goes on for the others (and fills the cache).
   */
  function forCaller<T>(
    work: () => Promise<T>,
    ms: number | false,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    if (signal?.aborted) return Promise.reject(toAbortError(signal.reason));
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = (error: unknown, value?: T) => {
        if (settled) return;
        settled = true;
        deadline?.cancel();
        stopWaiting?.();
        if (error === undefined) resolve(value as T);
        else reject(error);
      };
      const deadline =
        ms === false ? undefined : deadlines.add(ms, () => settle(new TimeoutError('dns', ms)));
      const stopWaiting = signal && whenAborted(signal, () => settle(toAbortError(signal.reason)));
      work().then(
        (value) => settle(undefined, value),
        (error: unknown) => settle(error),
      );
    });
  }

  return {
    get servers() {
      if (dohUrl !== undefined) return [dohUrl];
      return (configured ?? []).map((s) => s.label);
    },
    query(name: string, type: RecordType, queryOptions: DnsQueryOptions = {}) {
      let qname: string;
      try {
        qname = normaliseQueryName(name);
      } catch (error) {
        return Promise.reject(error);
      }
      const dnssecOk = queryOptions.dnssecOk === true;
      const checkingDisabled = queryOptions.checkingDisabled === true;
      const bits: DnssecBits = { dnssecOk, checkingDisabled };
      // DO and CD change the answer (RRSIGs, unvalidated data): separate cache entries.
      const key = `${prefix}${type}:${qname}${dnssecOk ? ':do' : ''}${checkingDisabled ? ':cd' : ''}`;
      const shared = () => flight(key, () => resolveAndStore(qname, type, key, bits));
      const work = cache
        ? () =>
            cache.get<CachedResponse>(key).then((hit) => (hit ? fromCache(hit, now()) : shared()))
        : shared;
      const { signal, timeout } = queryOptions;
      // The caller's deadline covers the cache read too: a shared store (Redis) may be slow.
      return forCaller(work, timeout === undefined ? budget : timeout, signal);
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

/** The DNSSEC header and EDNS bits of a query (see `DnsQueryOptions`). */
interface DnssecBits {
  dnssecOk: boolean;
  checkingDisabled: boolean;
}

function toResponse(
  message: DecodedMessage,
  name: string,
  type: RecordType,
  server: string,
  transport: DnsResponse['transport'],
  bits: DnssecBits,
): DnsResponse {
  const rdata = { rdata: bits.dnssecOk };
  const response: DnsResponse = {
    name,
    type,
    rcode: message.rcode ?? 'NOERROR',
    answers: records(message.answers, rdata),
    authority: records(message.authorities, rdata),
    authenticated: message.flag_ad === true,
    server,
    transport,
  };
  const extendedErrors = extendedDnsErrors(message.additionals);
  if (extendedErrors.length > 0) response.extendedErrors = extendedErrors;
  return response;
}

/** A section's records of class IN (OPT has no class and is dropped by toDnsRecord), in one pass. */
function records(list: DecodedMessage['answers'], rdata: { rdata: boolean }): DnsRecord[] {
  const out: DnsRecord[] = [];
  if (list === undefined) return out;
  for (const answer of list) {
    if (((answer as { class?: string }).class ?? 'IN') !== 'IN') continue;
    const record = toDnsRecord(answer as Parameters<typeof toDnsRecord>[0], rdata);
    if (record !== undefined) out.push(record);
  }
  return out;
}

/**
 * Lower case, no trailing dot (the root `.` is ``); RFC 1035 §2.3.4 sizes (labels 1–63, at most
 * 253 characters).
 * Callers validate user input with `normaliseDomain`; this only refuses what cannot be sent.
 */
export function normaliseQueryName(name: string): string {
  // The root can be asked too (its DNSKEY, for DNSSEC).
  if (name.trim() === '.') return '';
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
