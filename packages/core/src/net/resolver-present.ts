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
 * A name in uncompressed wire form (RFC 1035 §3.1) at `offset`, in presentation form, and the
 * offset after it: the rdata names RFC 3597 §4 forbids to compress (RRSIG signer, SVCB target…).
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
 * An IPv6 address the way `inet_ntop(3)` prints it (glibc, BIND and libuv agree): with a dotted
 * quad for IPv4-compatible and IPv4-mapped addresses.
 */
export function presentIPv6(address: string): string {
  return new SocketAddress({ address, family: 'ipv6' }).address;
}

/** RFC 3597 §5 generic form, as dig prints types it has no parser for: `\# 4 0A000001`. */
export function presentUnknown(rdata: Uint8Array): string {
  if (rdata.length === 0) return '\\# 0';
  return `\\# ${rdata.length} ${Buffer.from(rdata).toString('hex').toUpperCase()}`;
}

/** Type codes from the IANA "Resource Record (RR) TYPEs" registry (RFC 6895 §3.1). */
export const TYPE_CODES: Readonly<Record<string, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  RP: 17,
  AAAA: 28,
  SRV: 33,
  NAPTR: 35,
  DNAME: 39,
  OPT: 41,
  KX: 36,
  DS: 43,
  SSHFP: 44,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  CDS: 59,
  CDNSKEY: 60,
  SVCB: 64,
  HTTPS: 65,
  SPF: 99,
  ANY: 255,
  CAA: 257,
};

/** The names of the codes above. */
export const TYPE_NAMES: ReadonlyMap<number, string> = new Map(
  Object.entries(TYPE_CODES).map(([name, code]) => [code, name]),
);

/**
 * IANA "Resource Record (RR) TYPEs" names that dig prints in NSEC/NSEC3 type bitmaps: those of
 * `TYPE_CODES` but the meta-types OPT and ANY, and these; others print as `TYPE<N>` (RFC 3597 §5).
 */
const RR_NAMES: Readonly<Record<number, string>> = {
  ...Object.fromEntries([...TYPE_NAMES].filter(([, name]) => name !== 'OPT' && name !== 'ANY')),
  3: 'MD',
  4: 'MF',
  7: 'MB',
  8: 'MG',
  9: 'MR',
  10: 'NULL',
  11: 'WKS',
  14: 'MINFO',
  18: 'AFSDB',
  19: 'X25',
  20: 'ISDN',
  21: 'RT',
  22: 'NSAP',
  23: 'NSAP-PTR',
  24: 'SIG',
  25: 'KEY',
  26: 'PX',
  27: 'GPOS',
  29: 'LOC',
  30: 'NXT',
  31: 'EID',
  32: 'NIMLOC',
  34: 'ATMA',
  37: 'CERT',
  38: 'A6',
  40: 'SINK',
  42: 'APL',
  45: 'IPSECKEY',
  49: 'DHCID',
  53: 'SMIMEA',
  55: 'HIP',
  56: 'NINFO',
  57: 'RKEY',
  58: 'TALINK',
  61: 'OPENPGPKEY',
  62: 'CSYNC',
  63: 'ZONEMD',
  104: 'NID',
  105: 'L32',
  106: 'L64',
  107: 'LP',
  108: 'EUI48',
  109: 'EUI64',
  249: 'TKEY',
  250: 'TSIG',
  256: 'URI',
  258: 'AVC',
  259: 'DOA',
  260: 'AMTRELAY',
  261: 'RESINFO',
  32768: 'TA',
  32769: 'DLV',
};

/** A type code by name, as dig prints it. */
export function rrTypeName(code: number): string {
  return RR_NAMES[code] ?? `TYPE${code}`;
}
