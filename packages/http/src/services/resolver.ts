/**
 * The app's one DNS resolver (CONTRACT §5: NETDIAG_DNS_SERVERS / NETDIAG_DOH_URL), shared by
 * every route and CLI command so that they share its cache and its in-flight table.
 * @module
 */
import { createResolver, type DnsResolver } from '@netdiag/core';
import { type AppContext, service } from '../context.js';

/** The resolver of `ctx`, created on first use from `ctx.config.dnsServers` / `dohUrl`. */
export function getResolver(ctx: AppContext): DnsResolver {
  return service(ctx, 'resolver', (context) =>
    createResolver({
      ...(context.config.dnsServers.length > 0 ? { servers: context.config.dnsServers } : {}),
      ...(context.config.dohUrl ? { dohUrl: context.config.dohUrl } : {}),
    }),
  );
}
