/**
 * The engine: owns what every capability shares (one resolver, CONTRACT §5; the caches, IP
 * datasets, feeds, WHOIS/RDAP and breach clients, limiters) and answers every endpoint with its
 * SPEC/CONTRACT `data`. The faces (HTTP, CLI, MCP) make one engine call per request.
 * One piece: every method closes over the same resolver, caches, datasets and feeds.
 * @module
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AsnSearchResult, searchAsn } from '../asn/search-asn.js';
import { checkBlacklist } from '../blocklist/check-blacklist.js';
import { checkBreach } from '../breach/check-breach.js';
import { createRateGate } from '../breach/rate-gate.js';
import {
  type AddressReport,
  callerAnswer,
  callerAnswerV1,
  scoreAnswer,
  type V1Record,
} from '../caller/answers.js';
import { type CallerConnection, connectionInfo } from '../caller/connection.js';
import { privacySignalsOf } from '../caller/signals.js';
import { type NetdiagConfig, resolveNetdiagConfig } from '../config/config.js';
import { lookupDns, lookupDnsV1 } from '../dns/lookup-dns.js';
import { reverseDns } from '../dns/reverse-dns.js';
import { validateDnssec } from '../dnssec/validate-dnssec.js';
import { checkEmailAuth } from '../email-auth/check-email-auth.js';
import { evaluateSpf, type SpfEvaluation } from '../email-auth/spf/evaluate-spf.js';
import { type Feed, type FeedPolicy, type FeedStatus, startFeed } from '../feeds/feed.js';
import { intelFeedPatch, saveFeedTable } from '../feeds/feed-copies.js';
import {
  INTEL_FEEDS,
  type IntelFeedDefinition,
  type IntelFeedValue,
} from '../feeds/intel-feeds.js';
import { type NetdiagLogger, SILENT_LOGGER } from '../feeds/logger.js';
import { TOR_EXIT_FEED } from '../feeds/tor-exit-feed.js';
import {
  type GradeSecurityHeadersOptions,
  gradeSecurityHeaders,
} from '../headers/grade-security-headers.js';
import { bulkAnswerItem, lookupAnswer, lookupAnswerV1 } from '../ip/answers.js';
import { BULK_MAX_IPS, bulkLookup } from '../ip/bulk-lookup.js';
import { IP_DATA_FILE } from '../ip/data/ip-data-file.js';
import { type IpDataUpdate, updateIpData } from '../ip/data/update-ip-data.js';
import {
  type DatasetInfo,
  type IpDatasets,
  installedIntel,
  loadIpDatasets,
} from '../ip/datasets.js';
import type { TorExitList } from '../ip/tor-exit-list.js';
import { discoverPublicIp } from '../myip/discover.js';
import { parseMyIpServers } from '../myip/methods.js';
import { type Cache, createMemoryCache, createSingleFlight } from '../net/cache.js';
import type { DnsResolver } from '../net/dns-types.js';
import { normaliseDomain } from '../net/domain.js';
import { reverseName } from '../net/ip.js';
import { type CidrSet, parseCidrList } from '../net/ranges.js';
import { createResolver } from '../net/resolver.js';
import { createScanLimiter, type ScanLimiter } from '../ports/scan-limiter.js';
import { type ScanPortsInput, type ScanPortsOptions, scanPorts } from '../ports/scan-ports.js';
import type {
  BlacklistData,
  BreachData,
  BulkData,
  CallerIpData,
  CallerIpV1Data,
  DnsLookupData,
  DnsLookupV1Data,
  DnssecData,
  EmailAuthData,
  LookupData,
  LookupV1Data,
  PortScanData,
  ReverseDnsData,
  ScoreData,
  SecurityHeadersData,
  SiteCheckData,
  TlsData,
  WhoisData,
  WhoisV1Data,
} from '../schemas/index.js';
import { scoreIp } from '../score/index.js';
import { type CheckSiteOptions, checkSite } from '../site/check-site.js';
import { createTlsCheckLimiter } from '../tls/check-limiter.js';
import { type CheckTlsOptions, checkTls } from '../tls/check-tls.js';
import { checkTlsPort } from '../tls/non-tls-ports.js';
import { type BootstrapLoader, createBootstrapLoader } from '../whois/bootstrap.js';
import { rdapLookup, rdapLookupResource, whois } from '../whois/lookup.js';
import type { RdapResourceResult } from '../whois/rdap-normalise.js';

/** `signal` and `timeout` (ms; `false` for none) of one engine call. */
export interface CallOptions {
  signal?: AbortSignal;
  timeout?: number | false;
}

export interface CreateNetdiagOptions extends Partial<NetdiagConfig> {
  /** The cache of a namespace (`dns`, `dnsbl`, …), e.g. Redis. @default a 10,000-entry LRU */
  cacheStore?: (namespace: string) => Cache;
  /** Receives the engine's notes (datasets loaded, feed refreshed). @default silent */
  logger?: NetdiagLogger;
  /** `schedule`: fetch feeds 2 s after start, then on schedule. @default `manual` (on demand) */
  feeds?: FeedPolicy;
  /** The folder of the IP data file, when the engine cannot find @netdiag/ip-data itself. */
  ipDataDir?: string;
  /** Datasets to use instead of loading them from the configuration (tests, custom data). */
  datasets?: IpDatasets | Promise<IpDatasets>;
  /** A resolver to use instead of one built from `dnsServers` / `dohUrl` (tests). */
  resolver?: DnsResolver;
  /** DNSSEC trust anchors (DS or DNSKEY records, zone-file form). @default the IANA root KSKs */
  dnssecTrustAnchors?: string | readonly string[];
  /** DNS questions one `validateDnssec` may ask; beyond, `indeterminate`. @default 200 */
  dnssecMaxQueries?: number;
  /** The server-wide cap on port scans (`limited`). @default 4 at once, 16 waiting */
  scanLimiter?: ScanLimiter;
  /** The server-wide cap on TLS checks (`limited`). @default 4 at once, 16 waiting */
  tlsLimiter?: ScanLimiter;
  /** Time budgets in ms (tests shorten them). */
  timeouts?: Partial<EngineTimeouts>;
}

export interface EngineTimeouts {
  /** One RDAP request. @default 8000 */
  rdap: number;
  /** One WHOIS hop. @default 8000 */
  whoisHop: number;
  /** A whole WHOIS/RDAP lookup. @default 20000 */
  whois: number;
  /** One breach check. @default 10000 */
  breach: number;
  /** The best-effort reverse lookup behind `/api/v1/ip` `authority`. @default 2000 */
  authority: number;
}

/** `POST /api/bulk` data (SPEC 2.13). */
export type BulkAnswer = BulkData;

export interface IpDataInput {
  /** A MaxMind-format City or Country database, or DB-IP's IPv4 and IPv6 files. */
  geo: string | readonly [string, string];
  /** A MaxMind-format ASN or ISP database. @default the AS data in use */
  asn?: string;
}

export interface EmailAuthInput {
  domain: string;
  /** Evaluate SPF for this client address. */
  ip?: string | undefined;
  sender?: string | undefined;
  helo?: string | undefined;
  /** Comma list of DKIM selectors to try first. */
  dkimSelector?: string | undefined;
}

export interface SpfInput {
  domain: string;
  ip: string;
  sender?: string | undefined;
  helo?: string | undefined;
}

export interface PortScanInput
  extends ScanPortsInput,
    Pick<ScanPortsOptions, 'maxPorts' | 'portTimeout' | 'concurrency' | 'onProgress'> {}

export interface ScanCallOptions extends CallOptions {
  /** Wait for a slot of the engine's limiter; `false` for a local CLI run. @default true */
  limited?: boolean;
}

export interface Netdiag {
  readonly config: Readonly<NetdiagConfig>;
  /** The one resolver all DNS work goes through. */
  readonly resolver: DnsResolver;
  /** The cache of a namespace (the same instance for the engine's lifetime). */
  cache(namespace: string): Cache;
  /** The IP datasets (loaded on first use); rejects with `ConfigError` for an unusable database. */
  datasets(): Promise<IpDatasets>;
  /** Runs `answer` synchronously when the datasets are loaded (no promise per call), else after. */
  withDatasets<T>(answer: (datasets: IpDatasets) => T): T | Promise<T>;
  /** NETDIAG_ALLOWED_TARGETS, parsed. */
  readonly allowedTargets: CidrSet;

  /** `GET /api/lookup` data. */
  lookupIp(ip: string, options?: CallOptions): Promise<LookupData>;
  /** `GET /api/v1/ip/:address` data. */
  lookupIpV1(ip: string, options?: CallOptions): Promise<LookupV1Data>;
  /** `POST /api/bulk` data: 1–50 entries (CONTRACT §6). */
  bulkLookup(
    ips: readonly unknown[],
    options?: CallOptions & { maxIps?: number },
  ): Promise<BulkAnswer>;
  /** `GET /api/asn` data. */
  searchAsn(q: string, options?: CallOptions): Promise<AsnSearchResult>;

  /** IP intelligence, the DNSBL step and the score of one address. */
  inspect(ip: string, options?: CallOptions): Promise<AddressReport>;
  /** `GET /api/ip` data for a caller. */
  caller(connection: CallerConnection, options?: CallOptions): Promise<CallerIpData>;
  /** `GET /api/v1/ip` data for a caller (with the reverse zone's `authority`). */
  callerV1(connection: CallerConnection, options?: CallOptions): Promise<CallerIpV1Data>;
  /** `GET /api/score` data for a caller. */
  score(connection: CallerConnection, options?: CallOptions): Promise<ScoreData>;

  /** `GET /api/dns` data. */
  dns(
    input: { domain: string; type?: string | undefined; allTypes?: boolean | undefined },
    options?: CallOptions,
  ): Promise<DnsLookupData>;
  /** `GET /api/v1/dns/:domain` data. */
  dnsV1(
    input: { domain: string; type?: string | undefined; dnssec?: boolean | undefined },
    options?: CallOptions,
  ): Promise<DnsLookupV1Data>;
  /** `GET /api/rdns` data. */
  reverseDns(ip: string, options?: CallOptions): Promise<ReverseDnsData>;
  /** `GET /api/blacklist` data (cached per address for 10 minutes). */
  blacklist(ip: string, options?: CallOptions): Promise<BlacklistData>;

  /** `GET /api/whois` data: RDAP, then classic WHOIS. */
  whois(domain: string, options?: CallOptions): Promise<WhoisData>;
  /** `GET /api/v1/whois/:domain` data: RDAP only. */
  whoisV1(domain: string, options?: CallOptions): Promise<WhoisV1Data>;
  /** The RDAP record of an IP network or an AS number (`netdiag whois 8.8.8.8`). */
  rdapResource(query: string, options?: CallOptions): Promise<RdapResourceResult>;

  /** `GET /api/down` data. */
  checkSite(url: string, options?: CallOptions): Promise<SiteCheckData>;
  /** `GET /api/security-headers` data. */
  securityHeaders(
    url: string,
    options?: CallOptions & Pick<GradeSecurityHeadersOptions, 'httpPort'>,
  ): Promise<SecurityHeadersData>;
  /** `GET /api/ports` data. */
  scanPorts(input: PortScanInput, options?: ScanCallOptions): Promise<PortScanData>;
  /** `GET /api/tls` data: protocols, suites, chain and an SSL Labs-style grade. */
  checkTls(
    input: {
      host: string;
      port?: number | undefined;
      servername?: string | undefined;
      /** Repeat `port` to check a well-known non-TLS port (SMTP, Redis, …). */
      allowPort?: number | undefined;
    },
    options?: ScanCallOptions & Pick<CheckTlsOptions, 'ca' | 'hsts'>,
  ): Promise<TlsData>;

  /** `GET /api/dnssec` data: `domain`/`type` validated from the trust anchor, with the chain. */
  validateDnssec(
    input: { domain: string; type?: string | undefined },
    options?: CallOptions,
  ): Promise<DnssecData>;

  /** `GET /api/email-auth` data. */
  emailAuth(input: EmailAuthInput, options?: CallOptions): Promise<EmailAuthData>;
  /** One RFC 7208 evaluation: the same object as `emailAuth(…).spf.evaluation`. */
  evaluateSpf(input: SpfInput, options?: CallOptions): Promise<SpfEvaluation>;
  /** `GET /api/breach` data. */
  breach(email: string, options?: CallOptions): Promise<BreachData>;

  /** This machine's public address, found with DNS queries (NETDIAG_MYIP_SERVERS). */
  myIp(options?: CallOptions): Promise<string>;

  /** The Tor exit list in use, if any. */
  torExitList(): TorExitList | undefined;
  /** Fetches every feed now; resolves with the names of the feeds that were updated. */
  refreshFeeds(): Promise<string[]>;
  /** Opens the IP data again and swaps it in (on failure the old stays); resolves its info. */
  reloadIpData(): Promise<DatasetInfo>;
  /** `netdiag data update`: MaxMind-format databases made into IP data, then reloaded. */
  updateIpData(input: IpDataInput): Promise<IpDataUpdate>;
  /** Every feed's state: entries, when fetched, age, last error (`/healthz`, metrics). */
  feedStatus(): FeedStatus[];
  /** Settles when the feeds have read their disk copies (and, when scheduled, fetched once). */
  readonly feedsReady: Promise<void>;
  /** Stops timers and fetches in flight. The engine answers nothing useful after. */
  close(): Promise<void>;
}

/** Entries kept per namespace in memory (a DNSBL result is ~2 KiB, so ~20 MiB at worst). */
const MEMORY_ENTRIES = 10_000;
export const DEFAULT_ENGINE_TIMEOUTS: Readonly<EngineTimeouts> = Object.freeze({
  rdap: 8_000,
  whoisHop: 8_000,
  whois: 20_000,
  breach: 10_000,
  authority: 2_000,
});

/** Creates an engine. Cheap: datasets load and feeds start on first use. */
export function createNetdiag(options: CreateNetdiagOptions = {}): Netdiag {
  const config = resolveNetdiagConfig(options);
  const timeouts: EngineTimeouts = { ...DEFAULT_ENGINE_TIMEOUTS, ...options.timeouts };
  const logger = options.logger ?? SILENT_LOGGER;
  const caches = new Map<string, Cache>();
  const cache = (namespace: string): Cache => {
    let found = caches.get(namespace);
    if (!found) {
      found = options.cacheStore?.(namespace) ?? createMemoryCache({ max: MEMORY_ENTRIES });
      caches.set(namespace, found);
    }
    return found;
  };

  const resolver =
    options.resolver ??
    createResolver({
      ...(config.dnsServers.length > 0 ? { servers: config.dnsServers } : {}),
      ...(config.dohUrl ? { dohUrl: config.dohUrl } : {}),
      cache: cache('dns'),
      cachePrefix: '',
    });
  const allowedTargets = parseCidrList(config.allowedTargets);
  const cacheDir = config.cacheDir ?? tmpdir();
  const withCall = (call: CallOptions) => ({
    ...(call.signal ? { signal: call.signal } : {}),
    ...(call.timeout !== undefined ? { timeout: call.timeout } : {}),
  });

  // Datasets and feeds start lazily: an engine that answers DNS loads no tables.
  let loading: Promise<IpDatasets> | undefined;
  let loaded: IpDatasets | undefined;
  let tor: Feed<TorExitList> | undefined;
  const loadData = () =>
    loadIpDatasets({
      geoipDb: config.geoipDb,
      asnDb: config.asnDb,
      cacheDir,
      ...(options.ipDataDir ? { ipDataDir: options.ipDataDir } : {}),
      onNote: (message) => logger.info({ component: 'ip-data' }, message),
    });
  /** Applies the feeds' current values to freshly loaded data, which then answers. */
  const adopt = (value: IpDatasets) => {
    const list = torFeed().current();
    if (list) value.setTorExitList(list);
    for (const [definition, feed] of intelFeeds()) {
      const current = feed.current();
      if (current) applyIntelFeed(value, definition, current);
    }
    loaded = value;
    logger.info({ component: 'ip-data', ...value.info }, 'IP datasets loaded');
  };
  const datasets = (): Promise<IpDatasets> => {
    if (!loading) {
      torFeed();
      intelFeeds();
      loading = Promise.resolve(options.datasets ?? loadData());
      loading.then(adopt, () => {}); // a failure is reported to whoever awaits `datasets()`
    }
    return loading;
  };
  const reloadIpData = async (): Promise<DatasetInfo> => {
    const next = await loadData();
    const previous = loaded;
    adopt(next);
    loading = Promise.resolve(next);
    previous?.close(); // lookups are synchronous: none is in flight on the old data
    return next.info;
  };
  const feedOptions = { dir: cacheDir, policy: options.feeds ?? 'manual', resolver, logger };
  const torFeed = (): Feed<TorExitList> =>
    (tor ??= startFeed(TOR_EXIT_FEED, {
      ...feedOptions,
      url: config.torExitListUrl,
      onUpdate: (list) => loaded?.setTorExitList(list),
    }));
  // IP-intel feeds (relay ranges, VPN exits, cloud ranges): each replaces a bundled source.
  const intelUrls: Record<string, string> = {
    'relay-ranges': config.relayRangesUrl,
    'vpn-exits': config.vpnExitsUrl,
    'cloud-ranges': config.cloudRangesUrl,
  };
  let intel: [IntelFeedDefinition, Feed<IntelFeedValue>][] | undefined;
  const applyIntelFeed = (
    value: IpDatasets,
    definition: IntelFeedDefinition,
    list: IntelFeedValue,
  ) => {
    // Data built without IP-intel data (`intel: false`) has no source to replace.
    const source = value.intelSources.find((s) => s.id === definition.source);
    if (source) value.setIntelSource(definition.source, intelFeedPatch(definition, list, config));
    return source;
  };
  const intelFeeds = (): [IntelFeedDefinition, Feed<IntelFeedValue>][] => {
    intel ??= INTEL_FEEDS.map((definition) => {
      const feed = startFeed(definition, {
        ...feedOptions,
        url: intelUrls[definition.name] ?? definition.defaultUrl,
        onUpdate: (list, text) => {
          const source = loaded && applyIntelFeed(loaded, definition, list);
          // The table for the one-shot lookups that read the copy (feed-copies.ts).
          if (source) {
            void saveFeedTable(cacheDir, definition, text, source, list).catch(() => {});
          }
        },
      });
      return [definition, feed];
    });
    return intel;
  };
  const withDatasets = <T>(answer: (value: IpDatasets) => T): T | Promise<T> =>
    loaded ? answer(loaded) : datasets().then(answer);
  const allFeeds = (): Feed<unknown>[] => [torFeed(), ...intelFeeds().map(([, feed]) => feed)];

  // One RDAP bootstrap loader and one breach rate gate per engine.
  let bootstrap: BootstrapLoader | undefined;
  const rdapBootstrap = () =>
    (bootstrap ??= createBootstrapLoader({
      url: config.rdapBootstrapUrl,
      cache: cache('rdap-bootstrap'),
      resolver,
    }));
  const breachFlights = createSingleFlight();
  const breachGate = createRateGate();
  const scans = options.scanLimiter ?? createScanLimiter();
  const tlsChecks = options.tlsLimiter ?? createTlsCheckLimiter();

  const blacklist = (ip: string, call: CallOptions = {}) =>
    checkBlacklist(ip, { resolver, cache: cache('dnsbl'), ...withCall(call) });

  /** The DNSBL answers behind a score; `null` when the check failed as a whole. */
  const dnsblAnswers = async (ip: string, call: CallOptions) => {
    try {
      const result = await blacklist(ip, call);
      return result.results.map((r) => ({ name: r.name, zone: r.zone, status: r.status }));
    } catch (error) {
      if (call.signal?.aborted) throw error;
      return null;
    }
  };

  const inspect = async (ip: string, call: CallOptions = {}): Promise<AddressReport> => {
    const info = (await datasets()).lookup(ip);
    // Private and reserved addresses are on no public blocklist.
    const dnsbl = info.bogon ? undefined : await dnsblAnswers(info.ip, call);
    return { info, score: scoreIp({ signals: privacySignalsOf(info), dnsbl }) };
  };

  /** `/api/v1/ip` `authority`: the PTR lookup's authority section; best effort (`[]`). */
  const reverseAuthority = async (
    { info }: AddressReport,
    call: CallOptions,
  ): Promise<V1Record[]> => {
    if (info.bogon) return [];
    try {
      const response = await resolver.query(
        reverseName({ version: info.version, address: info.ip }),
        'PTR',
        { timeout: timeouts.authority, ...(call.signal ? { signal: call.signal } : {}) },
      );
      return response.authority.map((r) => ({
        name: `${r.name}.`,
        type: r.typeCode,
        ttl: r.ttl,
        data: r.data,
      }));
    } catch (error) {
      if (call.signal?.aborted) throw error;
      return [];
    }
  };

  const whoisBase = (call: CallOptions) => ({
    bootstrap: rdapBootstrap(),
    resolver,
    allowedTargets,
    rdapTimeoutMs: timeouts.rdap,
    timeout: timeouts.whois,
    ...withCall(call),
  });

  return {
    config,
    resolver,
    cache,
    datasets,
    withDatasets,
    allowedTargets,

    lookupIp: async (ip) => withDatasets((d) => lookupAnswer(d.lookup(ip))),
    lookupIpV1: async (ip) => withDatasets((d) => lookupAnswerV1(d.lookup(ip))),
    async bulkLookup(ips, call = {}) {
      const { results, errors } = await bulkLookup(ips, {
        datasets: await datasets(),
        maxIps: call.maxIps ?? BULK_MAX_IPS,
        ...withCall(call),
      });
      return { total: results.length, results: results.map(bulkAnswerItem), errors };
    },
    searchAsn: async (q, call = {}) =>
      searchAsn(q, { datasets: await datasets(), ...withCall(call) }),

    inspect,
    caller: async (connection, call = {}) =>
      callerAnswer(await inspect(connection.ip, call), connectionInfo(connection)),
    async callerV1(connection, call = {}) {
      const report = await inspect(connection.ip, call);
      const authority = await reverseAuthority(report, call);
      return callerAnswerV1(report, connectionInfo(connection), authority);
    },
    score: async (connection, call = {}) =>
      scoreAnswer(await inspect(connection.ip, call), connectionInfo(connection)),

    dns: (input, call = {}) => lookupDns(input, { resolver, ...withCall(call) }),
    dnsV1: (input, call = {}) => lookupDnsV1(input, { resolver, ...withCall(call) }),
    reverseDns: (ip, call = {}) => reverseDns(ip, { resolver, ...withCall(call) }),
    blacklist,

    whois: (domain, call = {}) =>
      whois(domain, {
        whoisServer: config.whoisServer,
        whoisHopTimeoutMs: timeouts.whoisHop,
        ...whoisBase(call),
      }),
    whoisV1: (domain, call = {}) => rdapLookup(domain, whoisBase(call)),
    rdapResource: (query, call = {}) => rdapLookupResource(query, whoisBase(call)),

    checkSite: (url, call = {}) =>
      checkSite(url, { resolver, allowedTargets, ...withCall(call) } satisfies CheckSiteOptions),
    securityHeaders: (url, call = {}) =>
      gradeSecurityHeaders(url, {
        resolver,
        allowedTargets,
        ...(call.httpPort !== undefined ? { httpPort: call.httpPort } : {}),
        ...withCall(call),
      }),
    scanPorts(input, call = {}) {
      const { host, ports, ...tuning } = input;
      const task = () =>
        scanPorts({ host, ports }, { ...tuning, resolver, allowedTargets, ...withCall(call) });
      return call.limited === false ? task() : scans.run(task, call.signal);
    },

    checkTls(input, call = {}) {
      // A refused port is answered at once, not after a wait for a slot.
      checkTlsPort(input.port ?? 443, input.allowPort);
      const task = () =>
        checkTls(input.host, {
          resolver,
          allowedTargets,
          ...(input.port !== undefined ? { port: input.port } : {}),
          ...(input.servername !== undefined ? { servername: input.servername } : {}),
          ...(input.allowPort !== undefined ? { allowPort: input.allowPort } : {}),
          ...(call.ca !== undefined ? { ca: call.ca } : {}),
          ...(call.hsts !== undefined ? { hsts: call.hsts } : {}),
          ...withCall(call),
        });
      return call.limited === false ? task() : tlsChecks.run(task, call.signal);
    },

    validateDnssec: (input, call = {}) =>
      validateDnssec(input.domain, {
        resolver,
        ...(input.type !== undefined ? { type: input.type } : {}),
        ...(options.dnssecTrustAnchors !== undefined
          ? { trustAnchors: options.dnssecTrustAnchors }
          : {}),
        ...(options.dnssecMaxQueries !== undefined ? { maxQueries: options.dnssecMaxQueries } : {}),
        ...withCall(call),
      }),

    emailAuth: (input, call = {}) =>
      checkEmailAuth(
        {
          domain: input.domain,
          ...(input.ip !== undefined ? { ip: input.ip } : {}),
          ...(input.sender !== undefined ? { sender: input.sender } : {}),
          ...(input.helo !== undefined ? { helo: input.helo } : {}),
          ...(input.dkimSelector !== undefined ? { dkimSelectors: input.dkimSelector } : {}),
        },
        { resolver, allowedTargets, ...withCall(call) },
      ),
    evaluateSpf(input, call = {}) {
      const domain = normaliseDomain(input.domain, { param: 'domain' });
      return evaluateSpf(
        {
          ip: input.ip,
          domain,
          sender: input.sender || `postmaster@${domain}`,
          helo: input.helo || domain,
        },
        { resolver, ...withCall(call) },
      );
    },
    breach: (email, call = {}) =>
      checkBreach(email, {
        apiUrl: config.breachApiUrl,
        cache: cache('breach'),
        singleFlight: breachFlights,
        gate: breachGate,
        resolver,
        timeout: timeouts.breach,
        ...withCall(call),
      }),

    myIp: (call = {}) =>
      discoverPublicIp({
        methods: parseMyIpServers(config.myIpServers),
        ...(call.signal ? { signal: call.signal } : {}),
        ...(typeof call.timeout === 'number' ? { timeout: call.timeout } : {}),
      }),

    torExitList: () => torFeed().current(),
    reloadIpData,
    async updateIpData(input) {
      const inUse = () => datasets().then((d) => ({ index: d.asn, description: d.info.asn }));
      const update = await updateIpData({
        geo: input.geo,
        asn: input.asn ?? (await inUse()),
        intel: installedIntel(options.ipDataDir),
        out: join(cacheDir, IP_DATA_FILE),
      });
      await reloadIpData();
      return update;
    },
    async refreshFeeds() {
      const all = allFeeds();
      const updated = await Promise.all(all.map((feed) => feed.refresh()));
      return all.filter((_, i) => updated[i]).map((feed) => feed.status().name);
    },
    feedStatus: () => allFeeds().map((feed) => feed.status()),
    get feedsReady() {
      return Promise.all(allFeeds().map((feed) => feed.ready)).then(() => undefined);
    },
    async close() {
      tor?.close();
      for (const [, feed] of intel ?? []) feed.close();
    },
  };
}
