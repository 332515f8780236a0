/**
 * IP address parsing and normalisation: strict (`parseIp`) for input that must be an address;
 * loose (`parseIpLiteral`) also takes the legacy IPv4 literals of `inet_aton()` and the WHATWG
 * URL parser (`127.1`, `0x7f000001`), since a probe target written so reaches that address.
 * @module
 */
import { InvalidIpError } from '../errors.js';
import {
  type AddressParts,
  createAddressParts,
  formatV4,
  parseAddressInto,
  wordsToBigInt,
} from '../ip/address.js';

export type IpVersion = 4 | 6;

export interface ParsedIp {
  version: IpVersion;
  /** Canonical text: dotted quad, or RFC 5952 compressed lower-case IPv6. */
  address: string;
}

/**
 * Parses a strict IPv4 or IPv6 address (brackets allowed around IPv6) and normalises it.
 * IPv4-mapped IPv6 (`::ffff:1.2.3.4`) becomes the IPv4 address. Returns `undefined` when
 * the input is not an address; zone identifiers (`fe80::1%eth0`) are not accepted.
 */
export function parseIp(input: string): ParsedIp | undefined {
  const parts = createAddressParts();
  if (!parseAddressInto(input, parts)) return undefined;
  return { version: parts.version, address: parts.text };
}

/** Like {@link parseIp} but throws the SPEC §7 `InvalidIpError` for bad input. */
export function requireIp(input: unknown, param = 'ip'): ParsedIp {
  const parsed = typeof input === 'string' ? parseIp(input) : undefined;
  if (!parsed) throw new InvalidIpError(param);
  return parsed;
}

/** Normalises an address given by a socket (`::ffff:1.2.3.4` → `1.2.3.4`). */
export function normaliseSocketAddress(address: string | undefined): string {
  if (!address) return '';
  return parseIp(address)?.address ?? normaliseForwardedAddress(address) ?? address;
}

/**
 * The address in a node of `X-Forwarded-For` or `Forwarded: for=` as proxies actually write it:
 * quoted (RFC 7239 §6), with a port (`1.2.3.4:5678`, `[2001:db8::1]:443`, as Azure Front Door
 * and some load balancers send), bracketed, with a zone id (`fe80::1%eth0`, RFC 6874) or
 * IPv4-mapped. Returns the canonical address, or `undefined` when no address is there
 * (`unknown`, an obfuscated `_node` identifier).
 */
export function normaliseForwardedAddress(node: string | undefined): string | undefined {
  if (!node) return undefined;
  let text = node.trim();
  if (text.length > 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1);
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end === -1) return undefined;
    text = text.slice(1, end);
  } else {
    const colon = text.indexOf(':');
    // One colon: IPv4 with a port. Two or more: IPv6, which carries a port only in brackets.
    if (colon !== -1 && colon === text.lastIndexOf(':')) text = text.slice(0, colon);
  }
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  return parseIp(text)?.address;
}

/**
 * Parses any literal that denotes an IP address, including the legacy IPv4 forms of
 * inet_aton(3) / the WHATWG URL parser: 1 to 4 parts, the last filling the remaining bytes.
 */
export function parseIpLiteral(input: string): ParsedIp | undefined {
  const strict = parseIp(input);
  if (strict) return strict;
  const value = parseLegacyIPv4(input.trim());
  return value === undefined ? undefined : { version: 4, address: formatV4(value) };
}

function parseLegacyIPv4(text: string): number | undefined {
  const parts = (text.endsWith('.') ? text.slice(0, -1) : text).split('.');
  if (parts.length > 4) return undefined;
  const numbers = parts.map(parseIPv4Number);
  const last = numbers.pop();
  if (last === undefined || numbers.some((n) => n === undefined || n > 255)) return undefined;
  if (last >= 256 ** (4 - numbers.length)) return undefined;
  return numbers.reduce<number>((sum, n, index) => sum + (n as number) * 256 ** (3 - index), last);
}

/** One part: hex (`0x`, digits optional), octal (leading 0) or decimal. */
function parseIPv4Number(part: string): number | undefined {
  const match = /^(?:0x([0-9a-f]*)|0([0-7]+)|([1-9][0-9]*|0))$/i.exec(part);
  if (!match) return undefined;
  const [, hex, octal, decimal] = match;
  const value =
    hex !== undefined
      ? Number.parseInt(hex || '0', 16)
      : octal !== undefined
        ? Number.parseInt(octal, 8)
        : Number(decimal);
  return value <= 0xffffffff ? value : undefined;
}

/** `parseAddressInto` for every literal {@link parseIpLiteral} reads, legacy IPv4 forms too. */
export function parseLiteralInto(input: string, parts: AddressParts): boolean {
  if (parseAddressInto(input, parts)) return true;
  const legacy = parseIpLiteral(input);
  return legacy !== undefined && parseAddressInto(legacy.address, parts);
}

/** Dotted quad → unsigned 32-bit integer. Assumes a valid dotted quad. */
export function ipv4ToUint32(address: string): number {
  let value = 0;
  for (const part of address.split('.')) value = value * 256 + Number(part);
  return value;
}

/** Any valid IPv6 text → 128-bit integer. */
export function ipv6ToBigInt(address: string): bigint {
  const parts = createAddressParts();
  if (!parseAddressInto(address, parts) || !address.includes(':')) {
    throw new InvalidIpError('address');
  }
  // An IPv4-mapped address parses as its IPv4 address; its 128 bits are ::ffff:a.b.c.d.
  return parts.version === 6
    ? wordsToBigInt(parts.w0, parts.w1, parts.w2, parts.w3)
    : (0xffffn << 32n) | BigInt(parts.v4);
}

/** The reverse-lookup name, no trailing dot: in-addr.arpa (RFC 1035 §3.5), ip6.arpa (RFC 3596). */
export function reverseName(ip: ParsedIp): string {
  if (ip.version === 4) return `${ip.address.split('.').reverse().join('.')}.in-addr.arpa`;
  return `${reverseNibbles(ip.address)}.ip6.arpa`;
}

/** The 32 nibbles of an IPv6 address, least significant first, dot-separated. */
export function reverseNibbles(address: string): string {
  const hex = ipv6ToBigInt(address).toString(16).padStart(32, '0');
  return hex.split('').reverse().join('.');
}
