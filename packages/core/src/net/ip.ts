/**
 * IP address parsing and normalisation.
 * Strict parsing (`parseIp`) is for user input that must be an IP address; loose parsing
 * (`parseIpLiteral`) also accepts every legacy IPv4 literal that `inet_aton()` and the WHATWG
 * URL parser accept (`127.1`, `0x7f000001`, `2130706433`, `0177.0.0.1`), because a probe
 * target written that way still reaches the address it denotes.
 * @module
 */
import { InvalidIpError } from '../errors.js';
import { createAddressParts, parseAddressInto, wordsToBigInt } from '../ip/address.js';

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
 * inet_aton(3) / the WHATWG URL IPv4 parser: 1 to 4 parts, each decimal, octal (leading 0)
 * or hex (0x), the last part filling the remaining bytes. Returns `undefined` for a hostname.
 */
export function parseIpLiteral(input: string): ParsedIp | undefined {
  const strict = parseIp(input);
  if (strict) return strict;
  const value = parseLegacyIPv4(input.trim());
  return value === undefined ? undefined : { version: 4, address: uint32ToIPv4(value) };
}

function parseLegacyIPv4(text: string): number | undefined {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  const parts = trimmed.split('.');
  if (parts.length === 0 || parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = parseIPv4Number(part);
    if (n === undefined) return undefined;
    numbers.push(n);
  }
  const last = numbers.pop() as number;
  if (numbers.some((n) => n > 255)) return undefined;
  if (last >= 256 ** (4 - numbers.length)) return undefined;
  let value = last;
  numbers.forEach((n, index) => {
    value += n * 256 ** (3 - index);
  });
  return value;
}

function parseIPv4Number(part: string): number | undefined {
  if (part === '') return undefined;
  let digits = part;
  let radix = 10;
  if (/^0[xX]/.test(part)) {
    digits = part.slice(2);
    radix = 16;
    if (digits === '') return 0;
  } else if (part.length > 1 && part.startsWith('0')) {
    digits = part.slice(1);
    radix = 8;
  }
  const pattern = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!pattern.test(digits)) return undefined;
  const value = Number.parseInt(digits, radix);
  return value <= 0xffffffff ? value : undefined;
}

/** Dotted quad → unsigned 32-bit integer. Assumes a valid dotted quad. */
export function ipv4ToUint32(address: string): number {
  let value = 0;
  for (const part of address.split('.')) value = value * 256 + Number(part);
  return value;
}

export function uint32ToIPv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
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

/**
 * The reverse-lookup name: `4.3.2.1.in-addr.arpa` (RFC 1035 §3.5) or the 32 nibbles under
 * `ip6.arpa` (RFC 3596 §2.5), without a trailing dot.
 */
export function reverseName(ip: ParsedIp): string {
  if (ip.version === 4) return `${ip.address.split('.').reverse().join('.')}.in-addr.arpa`;
  return `${reverseNibbles(ip.address)}.ip6.arpa`;
}

/** The 32 nibbles of an IPv6 address, least significant first, dot-separated. */
export function reverseNibbles(address: string): string {
  const hex = ipv6ToBigInt(address).toString(16).padStart(32, '0');
  return hex.split('').reverse().join('.');
}
