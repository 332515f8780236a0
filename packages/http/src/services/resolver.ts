/**
 * The app's one DNS resolver (CONTRACT §5: NETDIAG_DNS_SERVERS / NETDIAG_DOH_URL), shared by
 * every route and CLI command so that they share its cache and its in-flight table, and the
 * DNS capabilities run through it (`/api/dns`, `/api/v1/dns/:domain`, `/api/rdns`,
 * `/api/blacklist` and the matching CLI commands).
 * @module
 */
import {
  type BlacklistResult,
  checkBlacklist,
  createResolver,
  type DnsLookupResult,
  type DnsLookupV1Result,
  type DnsResolver,
  lookupDns,
  lookupDnsV1,
  type ReverseDnsResult,
  reverseDns,
} from '@netdiag/core';
import { type AppContext, service } from '../context.js';
import { getCache } from './cache.js';

/**
 * The resolver of `ctx`, created on first use from `ctx.config.dnsServers` / `dohUrl`. Its
 * answers live in the app's `dns` cache, so instances sharing Redis share DNS answers too.
 */
export function getResolver(ctx: AppContext): DnsResolver {
  return service(ctx, 'resolver', (context) =>
    createResolver({
      ...(context.config.dnsServers.length > 0 ? { servers: context.config.dnsServers } : {}),
      ...(context.config.dohUrl ? { dohUrl: context.config.dohUrl } : {}),
      cache: getCache(context, 'dns'),
      cachePrefix: '',
    }),
  );
}

export interface RunOptions {
  signal?: AbortSignal;
}

const withSignal = (options: RunOptions) => (options.signal ? { signal: options.signal } : {});

/** `GET /api/dns` data. */
export function runDnsLookup(
  ctx: AppContext,
  domain: string,
  type: string | undefined,
  options: RunOptions = {},
): Promise<DnsLookupResult> {
  return lookupDns({ domain, type, resolver: getResolver(ctx), ...withSignal(options) });
}

/** `GET /api/v1/dns/:domain` data. */
export function runDnsLookupV1(
  ctx: AppContext,
  domain: string,
  type: string | undefined,
  options: RunOptions = {},
): Promise<DnsLookupV1Result> {
  return lookupDnsV1({ domain, type, resolver: getResolver(ctx), ...withSignal(options) });
}

/** `GET /api/rdns` data. */
export function runReverseDns(
  ctx: AppContext,
  ip: string,
  options: RunOptions = {},
): Promise<ReverseDnsResult> {
  return reverseDns({ ip, resolver: getResolver(ctx), ...withSignal(options) });
}

/** `GET /api/blacklist` data, cached per IP for 10 minutes in the app's `dnsbl` cache. */
export function runBlacklist(
  ctx: AppContext,
  ip: string,
  options: RunOptions = {},
): Promise<BlacklistResult> {
  return checkBlacklist({
    ip,
    resolver: getResolver(ctx),
    cache: getCache(ctx, 'dnsbl'),
    ...withSignal(options),
  });
}
