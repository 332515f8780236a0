/**
 * The SSRF guard (CONTRACT §4): the one place that decides whether netdiag may connect to a
 * user-supplied target. Every probe (site check, security headers, port scan, MTA-STS) and
 * every redirect hop goes through it:
 * 1. the target is parsed (URL: http/https only, userinfo dropped; host: every IP literal form
 *    that inet_aton(3) or the WHATWG URL parser accepts counts as that address);
 * 2. a host name is resolved ONCE with the netdiag resolver (A + AAAA) — never getaddrinfo;
 * 3. the target is rejected when ANY address is not public (IANA special-purpose registries,
 *    `net/ranges.ts`) unless it lies in `allowedTargets` (NETDIAG_ALLOWED_TARGETS);
 * 4. the caller then connects only to the checked addresses (see `safe-fetch.ts`,
 *    `ports/connect-scan.ts`), so a second DNS answer (rebinding) can never matter.
 * @module
 */
import {
  InvalidInputError,
  NotFoundError,
  TargetNotAllowedError,
  UpstreamError,
} from '../errors.js';
import type { BaseOptions } from '../types.js';
import type { DnsResolver, DnsResponse } from './dns-types.js';
import { parseIpLiteral } from './ip.js';
import { type CidrSet, classifyAddress, parseCidrList } from './ranges.js';
import { getDefaultResolver } from './resolver.js';

export interface GuardOptions extends BaseOptions {
  /**
   * The netdiag resolver used for the single lookup of a host name (IP literals need none).
   * @default the library's shared resolver (`getDefaultResolver()`: the system's servers)
   */
  resolver?: DnsResolver;
  /**
   * CIDRs exempt from the block (NETDIAG_ALLOWED_TARGETS), for self-hosters probing their own
   * network and for tests. A parsed set is accepted too.
   * @default []
   */
  allowedTargets?: readonly string[] | CidrSet;
}

/** A host that passed the guard, with every address it may be reached at. */
export interface CheckedHost {
  /** The host as normalised: lower-case name, or canonical IP (IPv6 without brackets). */
  host: string;
  /** True when `host` is an IP literal (no DNS lookup happened). */
  literal: boolean;
  /** Every address of the one lookup, IPv4 first; all of them were checked. */
  addresses: string[];
}

/**
 * Names that always mean this machine or its private network (RFC 6761 §6.3 `localhost`,
 * RFC 8375 `home.arpa`, RFC 6762 `.local`), refused before any DNS query.
 */
const INTERNAL_SUFFIXES = ['localhost', 'local', 'home.arpa', 'internal', 'localdomain'];

/** The allowed set from options (parsed once per call; cheap for the short lists expected). */
export function allowedSet(list: GuardOptions['allowedTargets'] = []): CidrSet {
  return 'has' in list ? list : parseCidrList(list);
}

/**
 * Throws `TargetNotAllowedError` unless `address` (any literal form) is public or allowed.
 * `via` names the host that resolved to it, for the message. Returns the canonical address.
 */
export function assertAddressAllowed(address: string, allowed: CidrSet, via?: string): string {
  const ip = parseIpLiteral(address);
  if (!ip) throw new TargetNotAllowedError(`"${address}" is not an IP address`);
  const verdict = classifyAddress(ip.address);
  if (verdict.public || allowed.has(ip.address)) return ip.address;
  const what = verdict.range?.name ?? 'not a public address';
  const shown = verdict.address === ip.address ? ip.address : `${ip.address} (${verdict.address})`;
  throw new TargetNotAllowedError(
    via
      ? `${via} resolves to ${shown}, which is ${article(what)} ${what} address`
      : `${shown} is ${article(what)} ${what} address`,
  );
}

function article(text: string): string {
  return /^[aeiou"]/i.test(text) ? 'an' : 'a';
}

/**
 * Normalises a host given on its own (`/api/ports`): IP literals in every form become canonical,
 * names lower case and punycode (WHATWG parser); `InvalidInputError` for anything else.
 */
export function normaliseHost(input: string, param = 'host'): { host: string; literal: boolean } {
  const text = input.trim();
  const fail = (message: string) => new InvalidInputError(message, param);
  if (text === '') throw fail(`"${param}" is empty: give a host name or an IP address`);
  const literal = parseIpLiteral(text);
  if (literal) return { host: literal.address, literal: true };
  if (/[/?#@\s]/.test(text) || text.includes('://')) {
    throw fail(
      `"${param}" must be a host name or an IP address, not a URL: ${JSON.stringify(input)}`,
    );
  }
  try {
    return hostOfUrl(
      new URL(`http://${text.includes(':') && !text.startsWith('[') ? `[${text}]` : text}/`),
    );
  } catch {
    throw fail(`"${param}" is not a valid host name or IP address: ${JSON.stringify(input)}`);
  }
}

/** The host of a parsed URL, with IP literals (the WHATWG parser canonicalises them) tagged. */
export function hostOfUrl(url: URL): { host: string; literal: boolean } {
  const raw = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literal = parseIpLiteral(raw);
  if (literal) return { host: literal.address, literal: true };
  return { host: raw.toLowerCase().replace(/\.$/, ''), literal: false };
}

export interface ParseProbeUrlOptions {
  /** Scheme assumed when the input has none. @default 'https' */
  defaultScheme?: 'http' | 'https';
  /** Parameter name for messages. @default 'url' */
  param?: string;
}

/**
 * Parses a user-supplied probe URL: scheme optional (`example.com/path` → https), only http
 * and https, userinfo removed (it is never sent and must not disguise the host), fragment
 * dropped. Throws `InvalidInputError` with the reason.
 */
export function parseProbeUrl(input: unknown, options: ParseProbeUrlOptions = {}): URL {
  const param = options.param ?? 'url';
  const fail = (message: string) => new InvalidInputError(message, param);
  if (typeof input !== 'string' || input.trim() === '') {
    throw fail(
      `Missing required parameter "${param}": a URL or host name such as https://example.com`,
    );
  }
  const text = input.trim();
  if (text.length > 2048) throw fail(`"${param}" is too long (at most 2048 characters)`);
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^:/]+:\d+(?:[/?#]|$)/.test(text);
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `${options.defaultScheme ?? 'https'}://${text}`);
  } catch {
    throw fail(`"${param}" is not a valid URL: ${JSON.stringify(input)}`);
  }
  return checkProbeUrl(url, param, input);
}

/**
 * The checks of `parseProbeUrl` on a URL already parsed, without the length limit: that applies
 * to what the user typed, not to the normalised href.
 */
export function checkProbeUrl(url: URL, param = 'url', input: unknown = url.href): URL {
  const fail = (message: string) => new InvalidInputError(message, param);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw fail(`"${param}" must use http or https, not ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.hostname === '') throw fail(`"${param}" has no host: ${JSON.stringify(input)}`);
  // Port 0 cannot be connected to (it asks the OS for any port when binding); the WHATWG parser
  // keeps it, and an HTTP client would silently use the scheme's default instead.
  if (url.port === '0') throw fail(`"${param}" has port 0: a port must be 1 to 65535`);
  url.username = '';
  url.password = '';
  url.hash = '';
  return url;
}

/**
 * The guard proper: checks a host (name or literal) and returns the addresses that may be
 * connected to; a name is resolved exactly once (A and AAAA, concurrently). Errors:
 * `TargetNotAllowedError` (403) when the name is internal or any address is not public;
 * `NotFoundError` (upstream `dns`) when the name does not exist or has no address;
 * `UpstreamError` / `TimeoutError` (upstream `dns`) when the resolver fails.
 */
export async function resolveAndCheck(host: string, options: GuardOptions): Promise<CheckedHost> {
  const allowed = allowedSet(options.allowedTargets);
  const literal = parseIpLiteral(host);
  if (literal) {
    const address = assertAddressAllowed(literal.address, allowed);
    return { host: literal.address, literal: true, addresses: [address] };
  }
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === '') throw new InvalidInputError('The target host is empty', 'host');
  const internal = INTERNAL_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
  if (internal) {
    throw new TargetNotAllowedError(
      `"${name}" is an internal name (.${internal} never reaches the public internet)`,
    );
  }
  if (!name.includes('.')) {
    throw new TargetNotAllowedError(
      `"${name}" is a single-label name, which only a local search domain could resolve`,
    );
  }
  const resolver = options.resolver ?? getDefaultResolver();
  // The resolver keeps its own per-query timeouts; the caller's budget arrives as the signal.
  const queryOptions = options.signal ? { signal: options.signal } : {};
  const answers = await Promise.allSettled([
    resolver.query(name, 'A', queryOptions),
    resolver.query(name, 'AAAA', queryOptions),
  ]);
  const addresses: string[] = [];
  const failures: unknown[] = [];
  let nxdomain = false;
  for (const settled of answers) {
    if (settled.status === 'rejected') {
      failures.push(settled.reason);
      continue;
    }
    const response: DnsResponse = settled.value;
    if (response.rcode === 'NXDOMAIN') nxdomain = true;
    else if (response.rcode !== 'NOERROR') {
      failures.push(
        new UpstreamError(
          'dns',
          `the DNS server answered ${response.rcode} for ${name}`,
          undefined,
          response.server,
        ),
      );
    }
    for (const record of response.answers) {
      if ((record.type === 'A' || record.type === 'AAAA') && typeof record.value === 'string') {
        addresses.push(record.value);
      }
    }
  }
  if (addresses.length === 0) {
    if (nxdomain) throw new NotFoundError(`${name} does not exist (DNS NXDOMAIN)`, 'dns');
    if (failures.length > 0) throw failures[0];
    throw new NotFoundError(`${name} has no A or AAAA record`, 'dns');
  }
  // Check EVERY address before returning any: one private address poisons the name.
  const checked = [
    ...new Set(addresses.map((address) => assertAddressAllowed(address, allowed, name))),
  ];
  checked.sort((x, y) => Number(x.includes(':')) - Number(y.includes(':')));
  return { host: name, literal: false, addresses: checked };
}
