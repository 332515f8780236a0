/**
 * @module
 * DNS: the built-in resolver (UDP/TCP/DoH over dns-packet with a TTL cache) that every DNS
 * lookup in netdiag goes through.
 */
export {
  createResolver,
  getDefaultResolver,
  normaliseQueryName,
  type Resolver,
  type ResolverOptions,
} from '../net/resolver.js';
export { type DnsServer, parseDnsServer } from '../net/resolver-servers.js';
