/**
 * The one `host[:port]` grammar of netdiag: DNS servers, the WHOIS server, referral hosts and
 * scan targets all use it. Forms: `ip`, `ip:port`, `[v6]`, `[v6]:port`, bare IPv6 (no port),
 * and, where allowed, host names (`whois.iana.org:43`).
 * @module
 */
import { isIP, isIPv4 } from 'node:net';

export interface HostPort {
  /** IP literal (IPv6 without brackets) or host name. */
  host: string;
  port: number;
}

export interface ParseHostPortOptions {
  /** Port when the text has none. */
  defaultPort: number;
  /** Accept host names as well as IP literals. @default false */
  names?: boolean;
}

/** LDH labels (RFC 1123 §2.1), underscores tolerated as in service names. */
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

/**
 * `host[:port]` → host and port (1–65535), or `undefined`. Blanks around are ignored; a host
 * name is lower-cased, IP literals kept as written (zone ids included).
 */
export function parseHostPort(value: string, options: ParseHostPortOptions): HostPort | undefined {
  const text = value.trim();
  let host: string;
  let portText: string | undefined;
  const bracket = /^\[([^\]]+)\](?::(\d*))?$/.exec(text);
  if (bracket) {
    host = bracket[1] as string;
    portText = bracket[2];
    if (isIP(host) !== 6) return undefined;
  } else if (text.indexOf(':') !== text.lastIndexOf(':')) {
    host = text; // bare IPv6: a port would be ambiguous, so it has none
    if (isIP(host) !== 6) return undefined;
  } else {
    const colon = text.indexOf(':');
    host = colon === -1 ? text : text.slice(0, colon);
    portText = colon === -1 ? undefined : text.slice(colon + 1);
    // isIPv4, not isIP: a host name would make isIP build its IPv6 pattern (~5 ms of a one-shot run).
    const isV4 = isIPv4(host);
    // A dotted-number string that is not an IPv4 address (`1.2.3`) is neither an address nor a name.
    if (!isV4 && (/^[\d.]+$/.test(host) || !options.names || !HOST_NAME.test(host))) {
      return undefined;
    }
    if (!isV4) host = host.toLowerCase();
  }
  const port = portText === undefined ? options.defaultPort : Number(portText);
  if (!/^\d{1,5}$/.test(portText ?? '1') || !Number.isInteger(port) || port < 1 || port > 65535) {
    return undefined;
  }
  return { host, port };
}

/**
 * `host:port` text, bracketing IPv6 (RFC 3986 §3.2.2); the inverse of {@link parseHostPort}.
 * With `defaultPort`, that port is left out (`whois.iana.org` rather than `whois.iana.org:43`).
 */
export function formatHostPort({ host, port }: HostPort, defaultPort?: number): string {
  const name = host.includes(':') ? `[${host}]` : host;
  return port === defaultPort ? name : `${name}:${port}`;
}
