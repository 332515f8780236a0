/**
 * The WHOIS/RDAP service of one app: one bootstrap loader (so IANA's files are fetched once a
 * day per app, or once a day for all instances with Redis) and the WHOIS root from the
 * configuration (NETDIAG_RDAP_BOOTSTRAP_URL, NETDIAG_WHOIS_SERVER). Routes and CLI commands
 * call through here so that they share it.
 * @module
 */
import {
  type BootstrapLoader,
  createBootstrapLoader,
  type RdapResourceResult,
  rdapLookup,
  rdapLookupResource,
  type WhoisLookupResult,
  type WhoisResult,
  whois,
} from '@netdiag/core';
import { type AppContext, service } from '../context.js';
import { getCache } from './cache.js';

export interface WhoisService {
  bootstrap: BootstrapLoader;
  whoisServer: string;
  /** Budget of one RDAP request. @default 8000 */
  rdapTimeoutMs: number;
  /** Budget of one WHOIS hop. @default 8000 */
  whoisHopTimeoutMs: number;
  /** Budget of a whole lookup. @default 20000 */
  timeoutMs: number;
}

export function getWhoisService(ctx: AppContext): WhoisService {
  return service(ctx, 'whois', (c) => ({
    bootstrap: createBootstrapLoader({
      url: c.config.rdapBootstrapUrl,
      cache: getCache(c, 'rdap-bootstrap'),
    }),
    whoisServer: c.config.whoisServer,
    rdapTimeoutMs: 8_000,
    whoisHopTimeoutMs: 8_000,
    timeoutMs: 20_000,
  }));
}

export interface WhoisCallOptions {
  signal?: AbortSignal;
  timeout?: number;
}

/** `GET /api/whois`: RDAP, then classic WHOIS; the result names its `source`. */
export function runWhois(
  ctx: AppContext,
  domain: string,
  options: WhoisCallOptions = {},
): Promise<WhoisLookupResult> {
  const svc = getWhoisService(ctx);
  return whois({
    domain,
    bootstrap: svc.bootstrap,
    whoisServer: svc.whoisServer,
    rdapTimeoutMs: svc.rdapTimeoutMs,
    whoisHopTimeoutMs: svc.whoisHopTimeoutMs,
    timeout: svc.timeoutMs,
    ...options,
  });
}

/** `GET /api/v1/whois/:domain`: RDAP only. */
export function runRdapLookup(
  ctx: AppContext,
  domain: string,
  options: WhoisCallOptions = {},
): Promise<WhoisResult> {
  const svc = getWhoisService(ctx);
  return rdapLookup({
    domain,
    bootstrap: svc.bootstrap,
    rdapTimeoutMs: svc.rdapTimeoutMs,
    timeout: svc.timeoutMs,
    ...options,
  });
}

/** `netdiag whois <ip|ASN>`: RDAP record of an IP network or an AS number. */
export function runRdapResource(
  ctx: AppContext,
  query: string,
  options: WhoisCallOptions = {},
): Promise<RdapResourceResult> {
  const svc = getWhoisService(ctx);
  return rdapLookupResource({
    query,
    bootstrap: svc.bootstrap,
    rdapTimeoutMs: svc.rdapTimeoutMs,
    timeout: svc.timeoutMs,
    ...options,
  });
}
