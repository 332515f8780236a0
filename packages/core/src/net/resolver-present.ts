/**
 * Presentation format of record data exactly as `dig +short` prints it (CONTRACT §6), from the
 * objects dns-packet decodes. The escaping rules are BIND's (lib/dns/name.c `dns_name_totext`,
 * lib/dns/rdata.c `txt_totext`), which follow RFC 1035 §5.1.
 * @module
 */
import { SocketAddress } from 'node:net';

/**
 * A domain name in presentation form with its trailing dot (`.` for the root). dns-packet
 * joins labels with `.` and decodes them as UTF-8; the bytes are recovered by re-encoding and
 * escaped like `dns_name_totext`: `"();\@$` get a backslash, bytes ≤ 0x20 or ≥ 0x7f become
 * `\DDD`. An escaped dot (`\.`, produced for the SOA rname mailbox) stays inside its label.
 */
export function presentName(name: string): string {
  const text = name.endsWith('.') && !name.endsWith('\\.') ? name.slice(0, -1) : name;
  if (text === '') return '.';
  const labels = text.split(/(?<!\\)\./);
  return `${labels.map(presentLabel).join('.')}.`;
}

function presentLabel(label: string): string {
  // `\.` from dns-packet's mailbox decoding is a literal dot in the label.
  const parts = label.split('\\.');
  return parts.map((part) => escapeBytes(Buffer.from(part, 'utf8'), NAME_SPECIALS)).join('\\.');
}

/** Characters `dns_name_totext` escapes with a backslash (RFC 1035 §5.1 plus zone-file `@ $`). */
const NAME_SPECIALS = new Set([0x22, 0x28, 0x29, 0x2e, 0x3b, 0x5c, 0x40, 0x24]);
/** Inside a quoted character-string only `"` and `\` need a backslash (`txt_totext`). */
const QUOTED_SPECIALS = new Set([0x22, 0x5c]);

/**
 * A name in uncompressed wire form (RFC 1035 §3.1) at `offset` of `bytes`, in presentation form
 * with its trailing dot, and the offset after it. For rdata fields that RFC 3597 §4 forbids to
 * compress (RRSIG signer, NSEC next name, NAPTR replacement, SVCB target).
 */
export function readWireName(bytes: Uint8Array, offset: number): { text: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  for (;;) {
    const length = bytes[at];
    if (length === undefined || length > 63) throw new RangeError('bad name in rdata');
    at += 1;
    if (length === 0) break;
    if (at + length > bytes.length) throw new RangeError('name runs past the rdata');
    labels.push(escapeBytes(bytes.subarray(at, at + length), NAME_SPECIALS));
    at += length;
  }
  return { text: labels.length === 0 ? '.' : `${labels.join('.')}.`, end: at };
}

function escapeBytes(bytes: Uint8Array, specials: Set<number>): string {
  let out = '';
  for (const byte of bytes) {
    if (byte <= 0x20 || byte >= 0x7f) {
      // A space inside a quoted string is printable; in a name it is escaped as \032.
      if (byte === 0x20 && specials === QUOTED_SPECIALS) out += ' ';
      else out += `\\${String(byte).padStart(3, '0')}`;
    } else if (specials.has(byte)) {
      out += `\\${String.fromCharCode(byte)}`;
    } else {
      out += String.fromCharCode(byte);
    }
  }
  return out;
}

/** One character-string, quoted the way dig prints TXT and CAA values. */
export function quoteString(bytes: Uint8Array): string {
  return `"${escapeBytes(bytes, QUOTED_SPECIALS)}"`;
}

/**
 * An IPv6 address the way `inet_ntop(3)` prints it (glibc, BIND and libuv agree): lower-case
 * hex, the longest run of zero groups as `::`, and a dotted quad for IPv4-compatible and
 * IPv4-mapped addresses.
 */
export function presentIPv6(address: string): string {
  return new SocketAddress({ address, family: 'ipv6' }).address;
}

/** RFC 3597 §5 generic form, as dig prints types it has no parser for: `\# 4 0A000001`. */
export function presentUnknown(rdata: Uint8Array): string {
  if (rdata.length === 0) return '\\# 0';
  return `\\# ${rdata.length} ${Buffer.from(rdata).toString('hex').toUpperCase()}`;
}
