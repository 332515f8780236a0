/**
 * The public lookups: `rdapLookup` (`/api/v1/whois/:domain`), `whois` (RDAP, then classic
 * WHOIS: `/api/whois`) and `rdapLookupResource` (IP networks and AS numbers).
 * @module
 */
import { parseAsn } from '../asn/as-number.js';
import { InvalidInputError, isNetdiagError, NotFoundError, UpstreamError } from '../errors.js';
import { createMemoryCache } from '../net/cache.js';
import type { DnsResolver } from '../net/dns-types.js';
import { normaliseDomain, registrableDomain } from '../net/domain.js';
import { parseIp } from '../net/ip.js';
import { withTimeout } from '../net/signal.js';
import {
  type BootstrapLoader,
  createBootstrapLoader,
  DEFAULT_RDAP_BOOTSTRAP_URL,
  findAsnService,
  findDomainService,
  findIpService,
} from './bootstrap.js';
import { fetchRdap, type RdapDocument } from './rdap-client.js';
import {
  fillGaps,
  hasGaps,
  normaliseRdapDomain,
  normaliseRdapResource,
  type RdapResourceResult,
  registrarLink,
} from './rdap-normalise.js';
import type { WhoisClientOptions, WhoisLookupResult, WhoisResult, WhoisSeams } from './types.js';
import { lookupWhoisChain } from './whois-chain.js';

/** Budget of a whole lookup (bootstrap, registry, registrar, WHOIS hops). */
export const DEFAULT_WHOIS_TIMEOUT_MS = 20_000;

/** SPEC §7 / CONTRACT §2: the v1 message when RDAP has no record of the domain. */
export const RDAP_NOT_FOUND_MESSAGE = 'Domain not found in RDAP';

/** Options of `rdapLookup`: the network seams (the domain is the first argument). */
export type RdapLookupOptions = WhoisSeams;

export interface WhoisOptions extends RdapLookupOptions, WhoisClientOptions {
  /** Fall back to classic WHOIS when RDAP has no service or no record. @default true */
  fallback?: boolean;
}

/** Options of `rdapLookupResource`: the network seams (the query is the first argument). */
export type RdapResourceOptions = WhoisSeams;

/** Raised inside core when RDAP cannot answer for a domain (no service, or 404). */
class RdapMissError extends NotFoundError {
  override name = 'RdapMissError';
  constructor() {
    super(RDAP_NOT_FOUND_MESSAGE, 'rdap');
  }
}

const sharedLoaders = new Map<string, BootstrapLoader>();
/** Shared loaders of callers that bring their own resolver (one per resolver and URL). */
const resolverLoaders = new WeakMap<DnsResolver, Map<string, BootstrapLoader>>();
const sharedCache = createMemoryCache({ max: 64 });

function loaderFor(options: WhoisSeams): BootstrapLoader {
  if (options.bootstrap) return options.bootstrap;
  const url = options.bootstrapUrl ?? DEFAULT_RDAP_BOOTSTRAP_URL;
  if (options.cache || options.dispatcher) {
    return createBootstrapLoader({
      url,
      cache: options.cache ?? sharedCache,
      dispatcher: options.dispatcher,
      resolver: options.resolver,
    });
  }
  let byUrl = sharedLoaders;
  if (options.resolver) {
    byUrl = resolverLoaders.get(options.resolver) ?? new Map();
    resolverLoaders.set(options.resolver, byUrl);
  }
  let loader = byUrl.get(url);
  if (!loader) {
    loader = createBootstrapLoader({ url, cache: sharedCache, resolver: options.resolver });
    byUrl.set(url, loader);
  }
  return loader;
}

/**
 * Validates the input and returns the registrable domain to query (CONTRACT §6), throwing
 * `InvalidInputError` for a non-name or a bare public suffix.
 */
export function whoisDomain(input: unknown): string {
  const name = normaliseDomain(input, { allowUnderscore: false });
  const registrable = registrableDomain(name);
  if (!registrable) {
    throw new InvalidInputError(
      `"domain" must be a registrable domain such as example.co.uk; "${name}" is a public suffix`,
      'domain',
    );
  }
  return registrable;
}

/**
 * RDAP lookup of a domain (RFC 9082 §3.1.3): bootstrap → registry record → the registrar's
 * record when the registry leaves fields empty. `domain` is a domain name; its registrable
 * domain is looked up (`www.example.co.uk` → `example.co.uk`). Throws `NotFoundError("Domain
 * not found in RDAP")` when no RDAP service covers the TLD or the registry answers 404.
 */
export async function rdapLookup(
  domain: string,
  options: RdapLookupOptions = {},
): Promise<WhoisResult> {
  const registrable = whoisDomain(domain);
  return withTimeout(
    options,
    'rdap',
    (signal) => rdapDomain(registrable, options, signal),
    DEFAULT_WHOIS_TIMEOUT_MS,
  );
}

/**
 * WHOIS record of a domain (its registrable domain, as for `rdapLookup`): RDAP first; when
 * RDAP has no service for the TLD or no record, classic WHOIS over port 43 (unless
 * `fallback: false`). The result says which `source` answered. Not registered anywhere →
 * `NotFoundError`.
 */
export async function whois(
  domain: string,
  options: WhoisOptions = {},
): Promise<WhoisLookupResult> {
  const registrable = whoisDomain(domain);
  return withTimeout(
    options,
    'whois',
    async (signal) => {
      try {
        const record = await rdapDomain(registrable, options, signal);
        return { ...record, source: 'rdap' as const };
      } catch (error) {
        if (!(error instanceof RdapMissError) || options.fallback === false) throw error;
      }
      try {
        const { record } = await lookupWhoisChain(registrable, { ...options, signal });
        return { ...record, source: 'whois' as const };
      } catch (error) {
        if (isNetdiagError(error, 'NOT_FOUND')) {
          throw new NotFoundError(
            `Domain not found: ${registrable} has no record in RDAP or WHOIS`,
            'whois',
          );
        }
        throw error;
      }
    },
    DEFAULT_WHOIS_TIMEOUT_MS,
  );
}

async function rdapDomain(
  domain: string,
  options: WhoisSeams,
  signal: AbortSignal,
): Promise<WhoisResult> {
  const file = await loaderFor(options).load('dns', { signal });
  const bases = findDomainService(file, domain);
  if (!bases) throw new RdapMissError();
  const registry = await fetchFirst(
    bases,
    `domain/${domain}`,
    options,
    signal,
    () => new RdapMissError(),
  );
  let record = normaliseRdapDomain(registry.doc, domain, registry.url);
  const related = registrarLink(registry.doc, registry.url);
  if ((options.followRegistrar ?? true) && related && hasGaps(record)) {
    try {
      const registrar = await guardedFetch(related, options, signal);
      // The registry record stays authoritative; the registrar only fills what it left out.
      record = fillGaps(record, normaliseRdapDomain(registrar.doc, domain, registry.url));
    } catch (error) {
      if (!isNetdiagError(error) || signal.aborted) throw error;
    }
  }
  return record;
}

/** Fetches an RDAP URL taken from a remote answer, so guarded like any other target. */
function guardedFetch(url: string, options: WhoisSeams, signal: AbortSignal) {
  return fetchRdap(url, {
    signal,
    timeout: options.rdapTimeoutMs,
    dispatcher: options.dispatcher,
    resolver: options.resolver,
    guard: { scope: 'all', allowedTargets: options.allowedTargets },
  });
}

/**
 * Queries the service's base URLs in order (RFC 9224 §3 lists alternatives); only a
 * connection failure moves on to the next one. A 404 throws `notFound()`.
 */
async function fetchFirst(
  bases: string[],
  path: string,
  options: WhoisSeams,
  signal: AbortSignal,
  notFound: () => Error,
): Promise<RdapDocument> {
  let lastError: unknown;
  for (const base of bases) {
    try {
      return await guardedFetch(new URL(path, base).toString(), options, signal);
    } catch (error) {
      if (isNetdiagError(error, 'NOT_FOUND')) throw notFound();
      if (!(error instanceof UpstreamError) || signal.aborted) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

/**
 * RDAP lookup of an IP network (RFC 9082 §3.1.1) or an AS number (§3.1.2) via the IANA
 * IPv4/IPv6/ASN bootstrap files: `query` is an IPv4/IPv6 address or an AS number (`AS13335`
 * or `13335`). An addition beyond SPEC, used by `netdiag whois <ip|ASN>`.
 */
export async function rdapLookupResource(
  query: string,
  options: RdapResourceOptions = {},
): Promise<RdapResourceResult> {
  const input = typeof query === 'string' ? query.trim() : '';
  const ip = parseIp(input);
  const asn = ip ? undefined : parseAsn(input);
  if (!ip && asn === undefined) {
    throw new InvalidInputError(
      `"query" must be an IPv4/IPv6 address or an AS number such as AS13335, got "${input}"`,
      'query',
    );
  }
  const canonical = ip ? ip.address : `AS${asn}`;
  return withTimeout(
    options,
    'rdap',
    async (signal) => {
      const loader = loaderFor(options);
      const bases = ip
        ? findIpService(
            await loader.load(ip.version === 4 ? 'ipv4' : 'ipv6', { signal }),
            ip.address,
          )
        : findAsnService(await loader.load('asn', { signal }), asn as number);
      if (!bases) {
        throw new NotFoundError(`No RDAP service covers ${canonical} (IANA bootstrap)`, 'rdap');
      }
      const path = ip ? `ip/${ip.address}` : `autnum/${asn}`;
      const doc = await fetchFirst(
        bases,
        path,
        options,
        signal,
        () => new NotFoundError(`Not found in RDAP: ${canonical}`, 'rdap'),
      );
      return normaliseRdapResource(doc.doc, canonical, doc.url);
    },
    DEFAULT_WHOIS_TIMEOUT_MS,
  );
}
