/**
 * One RDAP query (RFC 9082 paths, RFC 7480 HTTP rules) through the trusted-upstream HTTP
 * client: redirects followed (RFC 7480 §5.2), 404 → not found, 429 → throttled with
 * Retry-After (RFC 7480 §5.5), any other failure → an upstream error naming RDAP.
 * @module
 */
import type { Dispatcher } from 'undici';
import { NotFoundError, UpstreamError } from '../errors.js';
import type { DnsResolver } from '../net/dns-types.js';
import {
  parseJsonBody,
  throwForStatus,
  type UpstreamRequestOptions,
  upstreamRequest,
} from '../net/http-client.js';

/** An RDAP object as far as this module reads it (RFC 9083); everything is optional. */
export interface RdapObject {
  objectClassName?: unknown;
  handle?: unknown;
  ldhName?: unknown;
  unicodeName?: unknown;
  name?: unknown;
  status?: unknown;
  events?: unknown;
  entities?: unknown;
  nameservers?: unknown;
  links?: unknown;
  publicIds?: unknown;
  vcardArray?: unknown;
  roles?: unknown;
  startAddress?: unknown;
  endAddress?: unknown;
  startAutnum?: unknown;
  endAutnum?: unknown;
  country?: unknown;
  type?: unknown;
  port43?: unknown;
  errorCode?: unknown;
}

export interface RdapFetchOptions {
  signal?: AbortSignal;
  /** ms; @default 8000 */
  timeout?: number | false;
  dispatcher?: Dispatcher;
  /** Resolves the RDAP server's host name. @default the system resolver */
  resolver?: DnsResolver;
  /** Which hops pass the SSRF guard (`upstreamRequest`'s `guard`). @default redirects off-origin */
  guard?: UpstreamRequestOptions['guard'];
}

export interface RdapDocument {
  doc: RdapObject;
  /** The URL that answered, after redirects. */
  url: string;
}

/** RDAP answers are small; 2 MiB bounds a misbehaving server (the largest seen are ~200 KB). */
const RDAP_MAX_BYTES = 2 * 1024 * 1024;

/** The time budget of one RDAP request, the bootstrap file's too (docs/whois.md cites it). */
export const DEFAULT_RDAP_TIMEOUT_MS = 8_000;

/**
 * GETs an RDAP document. Throws `NotFoundError` for 404 (RFC 7480 §5.3), `ThrottledError` for
 * 429, `UpstreamError` for other statuses or a non-object body, `TimeoutError('rdap', ms)`.
 */
export async function fetchRdap(url: string, options: RdapFetchOptions): Promise<RdapDocument> {
  const response = await upstreamRequest(url, {
    upstream: 'rdap',
    headers: { accept: 'application/rdap+json, application/json;q=0.9' },
    maxBytes: RDAP_MAX_BYTES,
    maxRedirects: 5,
    signal: options.signal,
    timeout: options.timeout ?? DEFAULT_RDAP_TIMEOUT_MS,
    dispatcher: options.dispatcher,
    resolver: options.resolver,
    guard: options.guard,
  });
  if (response.status === 404) {
    throw new NotFoundError(`Not found in RDAP: ${url}`, 'rdap');
  }
  throwForStatus(response, 'rdap');
  const doc = parseJsonBody<unknown>(response, 'rdap');
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new UpstreamError(
      'rdap',
      'the RDAP server answered with a non-object',
      undefined,
      new URL(response.url).host,
    );
  }
  return { doc: doc as RdapObject, url: response.url };
}
