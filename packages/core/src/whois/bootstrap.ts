/**
 * RDAP bootstrap (RFC 9224): which RDAP service answers for a TLD, an IP block or an AS number.
 * IANA publishes one file per registry (`dns.json`, `ipv4.json`, `ipv6.json`, `asn.json`); each
 * is fetched once, kept in the `Cache` for 24 h, then revalidated with a conditional request
 * (If-None-Match / If-Modified-Since, RFC 9110 §13.1) so an unchanged file costs a 304.
 * @module
 */

import type { Dispatcher } from 'undici';
import { InvalidInputError, UpstreamError } from '../errors.js';
import { createAddressParts, parseAddressInto } from '../ip/address.js';
import { type Cache, createSingleFlight } from '../net/cache.js';
import { cidrHas, parseCidr } from '../net/cidr.js';
import type { DnsResolver } from '../net/dns-types.js';
import { parseJsonBody, throwForStatus, upstreamRequest } from '../net/http-client.js';
import { parseIp } from '../net/ip.js';
import { raceAbort } from '../net/signal.js';
import type { BaseOptions } from '../types.js';
import { DEFAULT_RDAP_TIMEOUT_MS } from './rdap-client.js';

/** The four IANA bootstrap registries (RFC 9224 §4–5.3). */
export type BootstrapRegistry = 'dns' | 'ipv4' | 'ipv6' | 'asn';

/** Default location of the DNS registry; the others sit beside it. */
export const DEFAULT_RDAP_BOOTSTRAP_URL = 'https://data.iana.org/rdap/dns.json';

/** Freshness of a bootstrap file: IANA updates them a few times a week at most (RFC 9224 §8). */
export const BOOTSTRAP_FRESH_MS = 24 * 60 * 60 * 1000;
/** How long a stale copy is kept for revalidation and as a fallback when IANA is down. */
export const BOOTSTRAP_KEEP_MS = 7 * BOOTSTRAP_FRESH_MS;

/** One service: the entries it covers and its base URLs, https first. */
export interface BootstrapService {
  entries: string[];
  urls: string[];
}

export interface BootstrapFile {
  publication: string;
  services: BootstrapService[];
}

/** What is kept in the cache: the parsed file plus the validators for a conditional GET. */
export interface CachedBootstrap {
  file: BootstrapFile;
  fetchedAt: number;
  etag?: string;
  lastModified?: string;
}

/**
 * Validates and parses one registry file (RFC 9224 §3: `{version, publication, services:
 * [[entries], [urls]]}`). Throws `InvalidInputError` describing the first problem.
 */
export function parseBootstrapFile(json: unknown): BootstrapFile {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new InvalidInputError('a bootstrap file is a JSON object');
  }
  const doc = json as { publication?: unknown; services?: unknown };
  if (!Array.isArray(doc.services)) throw new InvalidInputError('"services" must be an array');
  const services: BootstrapService[] = [];
  doc.services.forEach((service, index) => {
    // object-tags.json has three members (RFC 8521); the entries and URLs are the last two.
    if (!Array.isArray(service) || service.length < 2) {
      throw new InvalidInputError(`services[${index}] must be [[entries], [urls]]`);
    }
    const entries: unknown = service[service.length - 2];
    const urls: unknown = service[service.length - 1];
    if (!isStringList(entries) || !isStringList(urls)) {
      throw new InvalidInputError(`services[${index}] must hold two lists of strings`);
    }
    const usable = urls
      .filter((u) => /^https?:\/\//i.test(u))
      .map((u) => (u.endsWith('/') ? u : `${u}/`));
    // RFC 9224 §3: when both are offered, prefer https.
    usable.sort((a, b) => Number(b.startsWith('https:')) - Number(a.startsWith('https:')));
    services.push({ entries: entries.map((e) => e.toLowerCase()), urls: usable });
  });
  return {
    publication: typeof doc.publication === 'string' ? doc.publication : '',
    services,
  };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/**
 * Base URLs for a domain: the entry that matches the most labels from the right
 * (RFC 9224 §4: "the longest match"), e.g. `co.uk` before `uk`.
 */
export function findDomainService(file: BootstrapFile, domain: string): string[] | undefined {
  const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
  const byEntry = new Map<string, string[]>();
  for (const service of file.services) {
    for (const entry of service.entries) byEntry.set(entry, service.urls);
  }
  for (let i = 0; i < labels.length; i++) {
    const urls = byEntry.get(labels.slice(i).join('.'));
    if (urls && urls.length > 0) return urls;
  }
  return undefined;
}

/** Base URLs for an address: the most specific covering prefix (RFC 9224 §5.1–5.2). */
export function findIpService(file: BootstrapFile, address: string): string[] | undefined {
  const parts = createAddressParts();
  const ip = parseIp(address);
  if (!ip || !parseAddressInto(ip.address, parts)) return undefined;
  let best: { length: number; urls: string[] } | undefined;
  for (const service of file.services) {
    for (const entry of service.entries) {
      const block = parseCidr(entry);
      if (!block || !cidrHas(block, parts)) continue;
      if (!best || block.bits > best.length) best = { length: block.bits, urls: service.urls };
    }
  }
  return best && best.urls.length > 0 ? best.urls : undefined;
}

/** Base URLs for an AS number: the range that contains it (RFC 9224 §5.3, `"1-1876"`). */
export function findAsnService(file: BootstrapFile, asn: number): string[] | undefined {
  for (const service of file.services) {
    for (const entry of service.entries) {
      const [low = '', high = low] = entry.split('-');
      if (asn >= Number(low) && asn <= Number(high) && service.urls.length > 0) {
        return service.urls;
      }
    }
  }
  return undefined;
}

/** The URL of a registry file: the configured DNS URL with its file name swapped. */
export function bootstrapUrl(dnsUrl: string, registry: BootstrapRegistry): string {
  if (registry === 'dns') return dnsUrl;
  return new URL(`${registry}.json`, dnsUrl).toString();
}

export interface BootstrapLoaderOptions {
  /** URL of IANA's `dns.json`; the IP and ASN files are its siblings. */
  url?: string;
  /** Where files are kept between calls (and, with Redis, between instances). */
  cache: Cache;
  dispatcher?: Dispatcher;
  /** Resolves the bootstrap server's host name. @default the system resolver */
  resolver?: DnsResolver;
  /** Clock, for tests. @default Date.now */
  now?: () => number;
  /** Per-fetch time budget in ms, as for any RDAP request. @default DEFAULT_RDAP_TIMEOUT_MS */
  timeoutMs?: number;
}

export interface BootstrapLoader {
  load(registry: BootstrapRegistry, options?: BaseOptions): Promise<BootstrapFile>;
}

/** Serves each file from the cache while fresh, then revalidates it; stale beats unreachable. */
export function createBootstrapLoader(options: BootstrapLoaderOptions): BootstrapLoader {
  const dnsUrl = options.url ?? DEFAULT_RDAP_BOOTSTRAP_URL;
  const now = options.now ?? Date.now;
  const singleFlight = createSingleFlight();
  return {
    load(registry, callOptions = {}) {
      const url = bootstrapUrl(dnsUrl, registry);
      const key = `rdap-bootstrap:${url}`;
      // The shared fetch has its own budget; one caller giving up must not fail the others.
      const shared = singleFlight(key, async () => {
        const stored = await options.cache.get<CachedBootstrap>(key);
        if (stored && now() - stored.fetchedAt < BOOTSTRAP_FRESH_MS) return stored.file;
        let fresh: CachedBootstrap;
        try {
          fresh = await fetchBootstrap(url, stored, options, now);
        } catch (error) {
          if (stored) return stored.file; // a stale copy beats no answer (RFC 9111 §4.2.4)
          throw error;
        }
        await options.cache.set(key, fresh, BOOTSTRAP_KEEP_MS);
        return fresh.file;
      });
      return callOptions.signal ? raceAbort(shared, callOptions.signal) : shared;
    },
  };
}

async function fetchBootstrap(
  url: string,
  stored: CachedBootstrap | undefined,
  options: BootstrapLoaderOptions,
  now: () => number,
): Promise<CachedBootstrap> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (stored?.etag) headers['if-none-match'] = stored.etag;
  if (stored?.lastModified) headers['if-modified-since'] = stored.lastModified;
  const response = await upstreamRequest(url, {
    upstream: 'rdap-bootstrap',
    headers,
    // IANA's dns.json is ~100 KB today; 4 MiB leaves room without trusting it blindly.
    maxBytes: 4 * 1024 * 1024,
    timeout: options.timeoutMs ?? DEFAULT_RDAP_TIMEOUT_MS,
    dispatcher: options.dispatcher,
    resolver: options.resolver,
  });
  if (response.status === 304 && stored) {
    return {
      ...stored,
      fetchedAt: now(),
      etag: response.headers['etag'] ?? stored.etag,
      lastModified: response.headers['last-modified'] ?? stored.lastModified,
    };
  }
  throwForStatus(response, 'rdap-bootstrap');
  let file: BootstrapFile;
  try {
    file = parseBootstrapFile(parseJsonBody(response, 'rdap-bootstrap'));
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    throw new UpstreamError(
      'rdap-bootstrap',
      `the answer is not an RDAP bootstrap file: ${(error as Error).message}`,
      error,
      new URL(url).host,
    );
  }
  const result: CachedBootstrap = { file, fetchedAt: now() };
  if (response.headers['etag']) result.etag = response.headers['etag'];
  if (response.headers['last-modified']) result.lastModified = response.headers['last-modified'];
  return result;
}
