/**
 * Presentation format of record data exactly as `dig +short` prints it (CONTRACT §6), from the
 * objects dns-packet decodes. The escaping rules are BIND's (lib/dns/name.c `dns_name_totext`,
 * lib/dns/rdata.c `txt_totext`), which follow RFC 1035 §5.1.
 * @module
 */
import { ipv6ToBigInt } from './ip.js';

/**
 * A domain name in presentation form with its trailing dot (`.` for the root). dns-packet
 * joins labels with `.` and decodes them as UTF-8; the bytes are recovered by re-encoding and
 * escaped like `dns_name_totext`: `"();\@$` get a backslash, bytes ≤ 0x20 or ≥ 0x7f become
 * `\DDD`. An escaped dot (`\.`, produced for the SOA rname mailbox) stays inside its label.
 */
export function presentName(name: string): string {
  const text = name.endsWith('.') && !name.endsWith('\\.') ? name.slice(0, -1) : name;
  if (text === '') return '.';
  // Almost every name is printable ASCII without a special: then it is its own presentation
  // form (the label-by-label escaping below would change nothing). One test instead of a
  // split, a buffer and a string built byte by byte per label: ~5 % of a resolver query's CPU.
  if (PLAIN_NAME.test(text)) return `${text}.`;
  return presentLabels(text);
}

/** `presentName` of a name without its trailing dot, label by label (exported for its test). */
export function presentLabels(text: string): string {
  const labels = text.split(/(?<!\\)\./);
  return `${labels.map(presentLabel).join('.')}.`;
}

/** Printable ASCII (0x21-0x7e) except the NAME_SPECIALS other than the dot, and no `\`. */
const PLAIN_NAME = /^[!#%&'*+,\-./0-9:<=>?A-Z[\]^_`a-z{|}~]+$/;

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
 * An IPv6 address the way `inet_ntop(3)` prints it (glibc and BIND agree): lower-case hex, the
 * longest run of two or more zero groups (the first on a tie) as `::`, and an embedded dotted
 * quad for IPv4-compatible (`::a.b.c.d`) and IPv4-mapped (`::ffff:a.b.c.d`) addresses.
 */
export function presentIPv6(address: string): string {
  const hex = ipv6ToBigInt(address).toString(16).padStart(32, '0');
  const words: number[] = [];
  for (let i = 0; i < 8; i++) words.push(Number.parseInt(hex.slice(i * 4, i * 4 + 4), 16));
  let bestBase = -1;
  let bestLen = 0;
  let curBase = -1;
  let curLen = 0;
  for (let i = 0; i < 8; i++) {
    if (words[i] === 0) {
      if (curBase === -1) {
        curBase = i;
        curLen = 1;
      } else curLen++;
      if (curLen > bestLen) {
        bestBase = curBase;
        bestLen = curLen;
      }
    } else curBase = -1;
  }
  if (bestLen < 2) bestBase = -1;
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (bestBase !== -1 && i >= bestBase && i < bestBase + bestLen) {
      if (i === bestBase) out += ':';
      continue;
    }
    if (i !== 0) out += ':';
    if (i === 6 && bestBase === 0 && (bestLen === 6 || (bestLen === 5 && words[5] === 0xffff))) {
      const w6 = words[6] as number;
      const w7 = words[7] as number;
      out += `${w6 >> 8}.${w6 & 255}.${w7 >> 8}.${w7 & 255}`;
      return out;
    }
    out += (words[i] as number).toString(16);
  }
  if (bestBase !== -1 && bestBase + bestLen === 8) out += ':';
  return out;
}

/** RFC 3597 §5 generic form, as dig prints types it has no parser for: `\# 4 0A000001`. */
export function presentUnknown(rdata: Uint8Array): string {
  if (rdata.length === 0) return '\\# 0';
  return `\\# ${rdata.length} ${Buffer.from(rdata).toString('hex').toUpperCase()}`;
}
