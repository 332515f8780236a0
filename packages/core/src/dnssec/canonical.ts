/**
 * Canonical forms of RFC 4034 §6: names, their order (§6.1), rdata (§6.2, as amended by RFC 6840
 * §5.1), and the data an RRSIG signs (§3.1.8.1) with the RRset in canonical order (§6.3).
 * @module
 */
import type { DnsRecord } from '../net/dns-types.js';

/** Labels of a name (`` or `.` is the root: no labels), lower case. */
export function labelsOf(name: string): string[] {
  const text = name.toLowerCase().replace(/\.$/, '');
  return text === '' ? [] : text.split('.');
}

/** A name in uncompressed wire form, lower case (RFC 4034 §6.2 items 1–2). */
export function nameWire(name: string): Buffer {
  const parts: Buffer[] = [];
  for (const label of labelsOf(name)) {
    const bytes = Buffer.from(label, 'utf8');
    parts.push(Buffer.from([bytes.length]), bytes);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

/** `name` as written in answers: `` for the root, else without trailing dot, lower case. */
export function plainName(name: string): string {
  return labelsOf(name).join('.');
}

/** The name for people: `example.` and `.` for the root. */
export function displayName(name: string): string {
  const plain = plainName(name);
  return plain === '' ? '.' : `${plain}.`;
}

/**
 * RFC 4034 §6.1 canonical order: compare the labels from the rightmost, each as a lower-case
 * octet string, a missing label sorting first. Negative when `a` sorts before `b`.
 */
export function compareNames(a: string, b: string): number {
  const la = labelsOf(a).reverse();
  const lb = labelsOf(b).reverse();
  for (let i = 0; i < Math.min(la.length, lb.length); i++) {
    const c = Buffer.compare(
      Buffer.from(la[i] as string, 'utf8'),
      Buffer.from(lb[i] as string, 'utf8'),
    );
    if (c !== 0) return c;
  }
  return la.length - lb.length;
}

/** True when `name` is `zone` or below it. */
export function isSubdomain(name: string, zone: string): boolean {
  const n = labelsOf(name);
  const z = labelsOf(zone);
  if (z.length > n.length) return false;
  return z.every((label, i) => n[n.length - z.length + i] === label);
}

/** The rightmost `count` labels of `name`. */
export function ancestor(name: string, count: number): string {
  const labels = labelsOf(name);
  return labels.slice(labels.length - count).join('.');
}

/** The wildcard name directly below `encloser` (`*` below the root). */
export const wildcardOf = (encloser: string) => (encloser === '' ? '*' : `*.${encloser}`);

/** Lower-cases the ASCII letters of the wire name at `offset`; returns the offset after it. */
function lowerNameAt(rdata: Buffer, offset: number): number {
  let at = offset;
  for (;;) {
    const length = rdata[at];
    if (length === undefined) throw new RangeError('name runs past the rdata');
    at += 1;
    if (length === 0) return at;
    for (let i = at; i < at + length; i++) {
      const byte = rdata[i] as number;
      if (byte >= 0x41 && byte <= 0x5a) rdata[i] = byte + 0x20;
    }
    at += length;
  }
}

/** Skips a character-string (RFC 1035 §3.3). */
const skipString = (rdata: Buffer, at: number) => at + 1 + (rdata[at] as number);

/**
 * Where embedded domain names sit in the rdata of the types RFC 4034 §6.2 item 3 lists (RFC 6840
 * §5.1 removed NSEC from that list; HINFO holds no name). Each entry lower-cases the names it
 * finds; the rdata is uncompressed (dns-packet never compresses what it re-encodes).
 */
const NAME_LAYOUTS: Record<number, (rdata: Buffer) => void> = {};
for (const code of [2, 3, 4, 5, 7, 8, 9, 12, 39])
  NAME_LAYOUTS[code] = (r) => void lowerNameAt(r, 0);
// SOA, MINFO, RP: two names (SOA then has five 32-bit numbers).
for (const code of [6, 14, 17]) NAME_LAYOUTS[code] = (r) => void lowerNameAt(r, lowerNameAt(r, 0));
// MX, AFSDB, RT, KX: a 16-bit preference then a name.
for (const code of [15, 18, 21, 36]) NAME_LAYOUTS[code] = (r) => void lowerNameAt(r, 2);
// PX: preference, MAP822, MAPX400.
NAME_LAYOUTS[26] = (r) => void lowerNameAt(r, lowerNameAt(r, 2));
// SRV: priority, weight, port, target.
NAME_LAYOUTS[33] = (r) => void lowerNameAt(r, 6);
// NAPTR: order, preference, flags, services, regexp, replacement.
NAME_LAYOUTS[35] = (r) => void lowerNameAt(r, skipString(r, skipString(r, skipString(r, 4))));
// SIG, RRSIG: the signer's name after 18 octets of fixed fields.
for (const code of [24, 46]) NAME_LAYOUTS[code] = (r) => void lowerNameAt(r, 18);

/** The canonical rdata of a record (RFC 4034 §6.2). Needs `record.rdata` (a DO query). */
export function canonicalRdata(record: DnsRecord): Buffer {
  if (record.rdata === undefined) {
    throw new Error(`record ${record.name} ${record.type} carries no rdata (query without DO)`);
  }
  const rdata = Buffer.from(record.rdata, 'hex');
  NAME_LAYOUTS[record.typeCode]?.(rdata);
  return rdata;
}

/** RFC 4034 §6.3: ascending canonical rdata, octet by octet, shorter first; duplicates removed. */
export function canonicalRrset(records: readonly DnsRecord[]): Buffer[] {
  const sorted = records.map(canonicalRdata).sort(Buffer.compare);
  return sorted.filter((r, i) => i === 0 || !r.equals(sorted[i - 1] as Buffer));
}

/** The RRSIG rdata without its Signature field, signer name in canonical form (§3.1.8.1). */
export function rrsigSignedPart(rrsig: DnsRecord): { head: Buffer; signature: Buffer } {
  const rdata = canonicalRdata(rrsig);
  let at = 18;
  for (;;) {
    const length = rdata[at];
    if (length === undefined || length > 63) throw new RangeError('bad signer name in RRSIG');
    at += 1;
    if (length === 0) break;
    at += length;
  }
  return { head: rdata.subarray(0, at), signature: rdata.subarray(at) };
}

/**
 * The data an RRSIG signs (RFC 4034 §3.1.8.1): its rdata up to the signature, then each RR of
 * the set in canonical order with the owner name (rebuilt as `*.<closest labels>` for a
 * wildcard expansion, RFC 4035 §5.3.2), type, class IN, the RRSIG's Original TTL and the rdata.
 */
export function signedData(
  rrsigHead: Buffer,
  owner: string,
  typeCode: number,
  originalTtl: number,
  signatureLabels: number,
  records: readonly DnsRecord[],
): Buffer {
  const signedOwner =
    signatureLabels < labelsOf(owner).length ? wildcardOf(ancestor(owner, signatureLabels)) : owner;
  const ownerWire = nameWire(signedOwner);
  const parts: Buffer[] = [rrsigHead];
  for (const rdata of canonicalRrset(records)) {
    const fixed = Buffer.alloc(10);
    fixed.writeUInt16BE(typeCode, 0);
    fixed.writeUInt16BE(1, 2); // class IN
    fixed.writeUInt32BE(originalTtl, 4);
    fixed.writeUInt16BE(rdata.length, 8);
    parts.push(ownerWire, fixed, rdata);
  }
  return Buffer.concat(parts);
}
