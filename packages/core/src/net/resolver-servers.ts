/**
 * DNS server addresses as written in `NETDIAG_DNS_SERVERS` and by `dns.getServers()`:
 * `ip`, `ip:port`, `[v6]:port` or a bare IPv6 address; port 53 by default (RFC 1035 §4.2).
 * @module
 */
import { isIP } from 'node:net';
import { ConfigError } from '../errors.js';

export interface DnsServer {
  host: string;
  port: number;
  family: 4 | 6;
  /** `ip:port` or `[v6]:port`, as reported in `DnsResponse.server`. */
  label: string;
}

/** RFC 1035 §4.2: DNS uses port 53 for UDP and TCP. */
export const DNS_PORT = 53;

/** Parses one server address; `undefined` when it is not an IP with an optional port. */
export function parseDnsServer(text: string): DnsServer | undefined {
  const value = text.trim();
  let host: string;
  let portText: string | undefined;
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  if (bracket) {
    host = bracket[1] as string;
    portText = bracket[2];
  } else if ((value.match(/:/g) ?? []).length > 1) {
    host = value;
  } else {
    const match = /^([^:]+)(?::(\d+))?$/.exec(value);
    if (!match) return undefined;
    host = match[1] as string;
    portText = match[2];
  }
  const family = isIP(host);
  if (family === 0) return undefined;
  const port = portText === undefined ? DNS_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  const label = family === 6 ? `[${host}]:${port}` : `${host}:${port}`;
  return { host, port, family: family as 4 | 6, label };
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
