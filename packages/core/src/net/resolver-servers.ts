/**
 * DNS server addresses as written in `NETDIAG_DNS_SERVERS` and by `dns.getServers()`:
 * `ip`, `ip:port`, `[v6]:port` or a bare IPv6 address; port 53 by default (RFC 1035 §4.2).
 * @module
 */
import { isIP } from 'node:net';
import { ConfigError } from '../errors.js';
import { formatHostPort, parseHostPort } from './host-port.js';

/** A DNS server address, parsed. */
export interface DnsServer {
  /** The IP literal (IPv6 without brackets). */
  host: string;
  /** UDP and TCP port. @default 53 */
  port: number;
  family: 4 | 6;
  /** `ip:port` or `[v6]:port`, as reported in `DnsResponse.server`. */
  label: string;
}

/** RFC 1035 §4.2: DNS uses port 53 for UDP and TCP. */
export const DNS_PORT = 53;

/** Parses one server address; `undefined` when it is not an IP with an optional port. */
export function parseDnsServer(text: string): DnsServer | undefined {
  const parsed = parseHostPort(text, { defaultPort: DNS_PORT });
  if (!parsed) return undefined;
  return { ...parsed, family: isIP(parsed.host) as 4 | 6, label: formatHostPort(parsed) };
}

/** Parses a list, throwing `ConfigError` that names the bad entry. */
export function parseDnsServers(list: readonly string[]): DnsServer[] {
  return list.map((entry) => {
    const server = parseDnsServer(entry);
    if (!server) {
      throw new ConfigError(
        `DNS servers must be written ip, ip:port or [ipv6]:port, got "${entry}"`,
      );
    }
    return server;
  });
}
