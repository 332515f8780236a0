/**
 * The caller service: what `/api/ip`, `/api/v1/ip`, `/api/score` and `netdiag ip|score` share.
 * - `inspectAddress`: IP intelligence + the DNSBL step + `scoreIp`, so that one address gets
 *   one score everywhere.
 * - `ipData` / `v1IpData` / `scoreData`: the SPEC 2.2 / 2.5 (v1) / 2.4 shapes.
 * - `connectionInfo`: the HTTP version the caller speaks to us and the TLS version, when we
 *   terminate TLS ourselves (NETDIAG_TLS_CERT / NETDIAG_TLS_KEY) or a trusted proxy reports them.
 * - `discoverPublicIp`: this machine's public address from DNS alone (for `netdiag ip`).
 * @module
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  type DnsblAnswer,
  type IpInfo,
  type IpScore,
  type PrivacySignals,
  parseIp,
  reverseName,
  scoreIp,
  TimeoutError,
  UpstreamError,
} from '@netdiag/core';
import type { Request } from 'express';
import type { AppContext } from '../context.js';
import { ipDataService, lookupLocation } from './ip-data.js';
import { getResolver, runBlacklist } from './resolver.js';

/** The reverse-DNS lookup behind `authority` (v1) is best effort within this budget. */
export const AUTHORITY_TIMEOUT_MS = 2_000;

export interface AddressReport {
  info: IpInfo;
  score: IpScore;
}

/**
 * IP intelligence → privacy signals. IP intelligence also marks a Tor exit as a proxy; the
 * score counts it once, as a Tor exit, unless a proxy signal of its own is present.
 */
export function privacySignalsOf(info: IpInfo): PrivacySignals {
  const p = info.privacy;
  const sourceOf = (name: string) => {
    const found = p.signals.filter((s) => s.signal === name);
    return found.length > 0 ? found.map((s) => `${s.source}: ${s.evidence}`).join('; ') : undefined;
  };
  const proxyOwn = p.signals.some((s) => s.signal === 'proxy');
  const sources: NonNullable<PrivacySignals['sources']> = {};
  for (const [key, signal] of [
    ['tor', 'tor'],
    ['vpn', 'vpn'],
    ['proxy', 'proxy'],
    ['datacenter', 'hosting'],
    ['mobile', 'mobile'],
    ['residential', 'residential'],
  ] as const) {
    const source = sourceOf(signal);
    if (source) sources[key] = source;
  }
  return {
    tor: p.is_tor,
    vpn: p.is_vpn,
    proxy: p.is_proxy && (!p.is_tor || proxyOwn),
    datacenter: p.is_hosting,
    mobile: p.is_mobile,
    residential: p.is_residential,
    sources,
  };
}

/**
 * The DNSBL answers of a public address: the 12 lists in parallel under one deadline, cached
 * per address for 10 minutes — the very result `/api/blacklist` shows (`runBlacklist`, same
 * cache). `null` when the check failed as a whole (the score names it and goes on).
 */
export async function dnsblAnswers(
  ctx: AppContext,
  ip: string,
  signal?: AbortSignal,
): Promise<DnsblAnswer[] | null> {
  try {
    const result = await runBlacklist(ctx, ip, signal ? { signal } : {});
    return result.results.map((r) => ({ name: r.name, zone: r.zone, status: r.status }));
  } catch (error) {
    if (signal?.aborted) throw error;
    return null;
  }
}

/** Everything the caller endpoints show about one address, score included. */
export async function inspectAddress(
  ctx: AppContext,
  ip: string,
  signal?: AbortSignal,
): Promise<AddressReport> {
  const datasets = await ipDataService(ctx).datasets();
  const info = datasets.lookup(ip);
  // Private and reserved addresses are not on public blocklists: no DNSBL step.
  const dnsbl = info.bogon ? undefined : await dnsblAnswers(ctx, info.ip, signal);
  return { info, score: scoreIp({ signals: privacySignalsOf(info), dnsbl }) };
}

/** One record of a v1 DNS answer (SPEC 2.7/2.8 v1 shape). */
export interface V1Record {
  name: string;
  type: number;
  ttl: number;
  data: string;
}

/**
 * `/api/v1/ip` `authority`: the authority section of the reverse-DNS (PTR) lookup of the
 * address, in the v1 DNS record shape — the reverse zone's SOA when the address has no PTR
 * record, usually `[]` when it has one. Best effort: `[]` for special-purpose addresses and
 * when DNS fails or is slow.
 */
export async function reverseAuthority(
  ctx: AppContext,
  info: IpInfo,
  signal?: AbortSignal,
): Promise<V1Record[]> {
  if (info.bogon) return [];
  try {
    const response = await getResolver(ctx).query(
      reverseName({ version: info.version, address: info.ip }),
      'PTR',
      {
        timeout: AUTHORITY_TIMEOUT_MS,
        ...(signal ? { signal } : {}),
      },
    );
    return response.authority.map((r) => ({
      name: `${r.name}.`,
      type: r.typeCode,
      ttl: r.ttl,
      data: r.data,
    }));
  } catch (error) {
    if (signal?.aborted) throw error;
    return [];
  }
}

/** Coordinates as strings in `/api/ip` (SPEC 2.2); "" when unknown (CONTRACT §2). */
function coordinateText(value: number | null): string {
  return value === null ? '' : String(value);
}

/** `GET /api/ip` data (SPEC 2.2). */
export function ipData(report: AddressReport, connection: ConnectionInfo) {
  const { info, score } = report;
  const l = info.location;
  return {
    ip: info.ip,
    location: {
      city: l.city,
      region: l.region,
      country: l.country,
      country_name: l.country_name,
      continent: l.continent,
      latitude: coordinateText(l.latitude),
      longitude: coordinateText(l.longitude),
      timezone: l.timezone,
      postal_code: l.postal_code,
    },
    network: {
      asn: info.network.asn,
      isp: info.network.isp,
      connection_type: connection.connection_type,
      tls_version: connection.tls_version,
    },
    privacy: {
      type: score.type,
      score: score.score,
      grade: score.grade,
      is_vpn: score.is_vpn,
      is_datacenter: score.is_datacenter,
      is_residential: score.is_residential,
      hosting: info.privacy.is_hosting,
      proxy: info.privacy.is_proxy,
    },
    is_eu: l.is_eu,
    ipv6: info.version === 6,
    bogon: info.bogon,
  };
}

/** `GET /api/v1/ip` data (SPEC 2.5, v1 form). */
export function v1CallerData(
  report: AddressReport,
  connection: ConnectionInfo,
  authority: V1Record[],
) {
  const { info, score } = report;
  return {
    ip: info.ip,
    location: lookupLocation(info),
    network: {
      asn: info.network.asn,
      isp: info.network.isp,
      org: info.network.org,
      as_name: info.network.as_name,
      connection_type: connection.connection_type,
      tls_version: connection.tls_version,
    },
    privacy: {
      type: score.type,
      score: score.score,
      grade: score.grade,
      label: score.label,
      is_vpn: score.is_vpn,
      is_datacenter: score.is_datacenter,
      is_residential: score.is_residential,
      hosting: info.privacy.is_hosting,
      proxy: info.privacy.is_proxy,
    },
    ipv6: info.version === 6,
    authority,
    bogon: info.bogon,
  };
}

/** `GET /api/score` data (SPEC 2.4, plus the evidence list). */
export function scoreData(report: AddressReport, connection: ConnectionInfo) {
  const { info, score } = report;
  return {
    ip: info.ip,
    location: {
      city: info.location.city,
      country: info.location.country,
      timezone: info.location.timezone,
    },
    network: {
      isp: info.network.isp,
      asn: info.network.asn,
      tls_version: connection.tls_version,
    },
    privacy: {
      type: score.type,
      score: score.score,
      grade: score.grade,
      label: score.label,
      flags: score.flags,
      is_vpn: score.is_vpn,
      is_datacenter: score.is_datacenter,
      is_residential: score.is_residential,
      evidence: score.evidence,
    },
    ipv6: info.version === 6,
    bogon: info.bogon,
  };
}

/**
 * Headers a trusted reverse proxy may set to report the client's side of the connection
 * (nginx: `proxy_set_header X-Forwarded-HTTP-Version $server_protocol;` and
 * `proxy_set_header X-Forwarded-TLS-Version $ssl_protocol;`). Believed only when the socket
 * peer is trusted by NETDIAG_TRUST_PROXY, like X-Forwarded-For.
 */
export const FORWARDED_HTTP_VERSION = 'x-forwarded-http-version';
export const FORWARDED_TLS_VERSION = 'x-forwarded-tls-version';

export interface ConnectionInfo {
  /** `HTTP/1.0`, `HTTP/1.1`, `HTTP/2`, `HTTP/3`. */
  connection_type: string;
  /** `TLSv1.2`, `TLSv1.3` …, or "" for plain HTTP. */
  tls_version: string;
}

/** `1.1` / `HTTP/2.0` / `h2` → `HTTP/1.1` / `HTTP/2` (RFC 9110 §2.5 major-only names for 2, 3). */
export function formatHttpVersion(version: string): string {
  const text = version.trim().replace(/^HTTP\//i, '');
  if (/^h2$/i.test(text)) return 'HTTP/2';
  if (/^h3$/i.test(text)) return 'HTTP/3';
  const match = /^(\d)(?:\.(\d))?$/.exec(text);
  if (!match) return '';
  const [, major, minor] = match;
  return major === '1' || major === '0' ? `HTTP/${major}.${minor ?? '0'}` : `HTTP/${major}`;
}

/** TLS protocol names as OpenSSL and nginx print them (`TLSv1.3`). */
const TLS_VERSION = /^(?:TLSv1(?:\.[0-3])?|SSLv3)$/;

function trustedPeer(req: Request): boolean {
  const trust = req.app.get('trust proxy fn') as
    | ((address: string, hop: number) => boolean)
    | undefined;
  const peer = req.socket.remoteAddress;
  return typeof trust === 'function' && peer !== undefined && trust(peer, 0);
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

export function connectionInfo(req: Request): ConnectionInfo {
  const socket = req.socket as Partial<TLSSocket>;
  const direct: ConnectionInfo = {
    connection_type: formatHttpVersion(req.httpVersion),
    tls_version:
      socket.encrypted === true && typeof socket.getProtocol === 'function'
        ? (socket.getProtocol() ?? '')
        : '',
  };
  if (!trustedPeer(req)) return direct;
  const http = formatHttpVersion(header(req, FORWARDED_HTTP_VERSION) ?? '');
  const tls = header(req, FORWARDED_TLS_VERSION) ?? '';
  return {
    connection_type: http || direct.connection_type,
    tls_version: TLS_VERSION.test(tls) ? tls : direct.tls_version,
  };
}

/** One way of asking DNS "what is my address?". */
export interface MyIpMethod {
  name: string;
  /** `ip` or `ip:port` (`[v6]:port`) of the server that answers with the client's address. */
  server: string;
  qname: string;
  type: 'A' | 'AAAA' | 'TXT';
}

/**
 * Both are answered by the authoritative server itself with the address the query came from,
 * so no recursive resolver may sit in between:
 * - OpenDNS: `myip.opendns.com A` at resolver1.opendns.com (208.67.222.222).
 * - Google: `o-o.myaddr.l.google.com TXT` at ns1.google.com (216.239.32.10).
 */
export const MYIP_METHODS: readonly MyIpMethod[] = [
  { name: 'opendns', server: '208.67.222.222', qname: 'myip.opendns.com', type: 'A' },
  { name: 'google', server: '216.239.32.10', qname: 'o-o.myaddr.l.google.com', type: 'TXT' },
];

/**
 * `NETDIAG_MYIP_SERVERS` overrides the servers (tests, air-gapped networks): a comma list of
 * `name=ip[:port]` (`opendns=127.0.0.1:5300`) or plain `ip[:port]` entries, which replace the
 * methods' servers in order. Methods left without a server keep theirs.
 */
export function myIpMethods(override: string | undefined): MyIpMethod[] {
  const methods = MYIP_METHODS.map((m) => ({ ...m }));
  const entries = (override ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let position = 0;
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    const name = eq > 0 ? entry.slice(0, eq).trim().toLowerCase() : undefined;
    const server = eq > 0 ? entry.slice(eq + 1).trim() : entry;
    const target = name ? methods.find((m) => m.name === name) : methods[position++];
    if (!target) {
      throw new UpstreamError(
        'myip',
        `NETDIAG_MYIP_SERVERS: unknown method "${name ?? entry}" (known: ${MYIP_METHODS.map((m) => m.name).join(', ')})`,
      );
    }
    target.server = server;
  }
  return methods;
}

export interface DiscoverPublicIpOptions {
  methods?: readonly MyIpMethod[];
  /** Per method. @default 3000 */
  timeoutMs?: number;
}

/**
 * This machine's public address, without any web API: the first method that answers with an
 * address wins. Offline (no method answers) → `UpstreamError('myip')` naming every failure
 * (CLI exit 3).
 */
export async function discoverPublicIp(options: DiscoverPublicIpOptions = {}): Promise<string> {
  const methods = options.methods ?? MYIP_METHODS;
  const timeoutMs = options.timeoutMs ?? 3000;
  const failures: string[] = [];
  for (const method of methods) {
    try {
      const address = await askMethod(method, timeoutMs);
      if (address) return address;
      failures.push(`${method.name}: no address in the answer`);
    } catch (error) {
      failures.push(`${method.name}: ${(error as Error).message}`);
    }
  }
  throw new UpstreamError(
    'myip',
    `cannot find this machine's public address (are you offline?): ${failures.join('; ')}`,
  );
}

async function askMethod(method: MyIpMethod, timeoutMs: number): Promise<string | undefined> {
  // One try, no retries: a fallback method follows (c-ares timeout is per try).
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  resolver.setServers([method.server]);
  const budget = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => {
      resolver.cancel();
      reject(new TimeoutError('myip', timeoutMs));
    }, timeoutMs + 500);
    timer.unref();
  });
  const answer = (async () => {
    if (method.type === 'TXT') {
      const records = await resolver.resolveTxt(method.qname);
      // ns1.google.com answers the client address, plus "edns0-client-subnet …" when ECS is sent.
      return records.map((chunks) => chunks.join('')).find((text) => isIP(text.trim()) !== 0);
    }
    const list =
      method.type === 'A'
        ? await resolver.resolve4(method.qname)
        : await resolver.resolve6(method.qname);
    return list[0];
  })();
  const raw = await Promise.race([answer, budget]);
  return raw ? parseIp(raw.trim())?.address : undefined;
}
