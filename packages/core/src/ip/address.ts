/**
 * Allocation-free IP parsing for the lookup hot path. Accepts exactly what `parseIp` in
 * `net/ip.ts` accepts (strict dotted quads, RFC 4291 §2.2 IPv6 text, brackets, surrounding
 * blanks; no zone ids) and yields the same canonical text, but fills a reusable struct with
 * integers. A property test keeps the two parsers in agreement.
 * @module
 */

/** The parsed form of one address. Reused between calls: copy what you keep. */
export interface AddressParts {
  version: 4 | 6;
  /** The IPv4 address as an unsigned 32-bit integer (version 4). */
  v4: number;
  /** The IPv6 address as four big-endian 32-bit words (version 6). */
  w0: number;
  w1: number;
  w2: number;
  w3: number;
  /** Canonical text: dotted quad, or RFC 5952 compressed lower-case IPv6. */
  text: string;
}

export function createAddressParts(): AddressParts {
  return { version: 4, v4: 0, w0: 0, w1: 0, w2: 0, w3: 0, text: '' };
}

const groups = new Uint16Array(8);

/** Facts about the last `parseV6` input: whether it is already canonical (RFC 5952). */
let gapStart = -1;
let gapLength = 0;
/** A group was written with a leading zero or in upper case, or as a dotted quad. */
let nonCanonical = false;

/**
 * Parses `input` into `out`. Returns false (and leaves `out` in an unspecified state) when
 * the input is not an IP address. IPv4-mapped IPv6 (`::ffff:a.b.c.d`, RFC 4291 §2.5.5.2)
 * becomes the IPv4 address, as in `parseIp`.
 */
export function parseAddressInto(input: string, out: AddressParts): boolean {
  let start = 0;
  let end = input.length;
  while (start < end && isBlank(input.charCodeAt(start))) start++;
  while (end > start && isBlank(input.charCodeAt(end - 1))) end--;
  if (end - start >= 2 && input.charCodeAt(start) === 91 && input.charCodeAt(end - 1) === 93) {
    start++;
    end--;
  }
  if (end - start < 2 || end - start > 45) return false;
  const v4 = parseV4(input, start, end);
  if (v4 >= 0) {
    out.version = 4;
    out.v4 = v4;
    out.text = start === 0 && end === input.length ? input : input.slice(start, end);
    return true;
  }
  if (!parseV6(input, start, end)) return false;
  const g = groups;
  out.w0 = (((g[0] as number) << 16) | (g[1] as number)) >>> 0;
  out.w1 = (((g[2] as number) << 16) | (g[3] as number)) >>> 0;
  out.w2 = (((g[4] as number) << 16) | (g[5] as number)) >>> 0;
  out.w3 = (((g[6] as number) << 16) | (g[7] as number)) >>> 0;
  if (out.w0 === 0 && out.w1 === 0 && out.w2 === 0xffff) {
    out.version = 4;
    out.v4 = out.w3;
    out.text = formatV4(out.w3);
    return true;
  }
  out.version = 6;
  // Canonical input (the usual case) is its own canonical text: lower case, no leading
  // zeros, and "::" exactly where RFC 5952 §4.2 puts it (the first longest run of two or
  // more zero groups, or nowhere).
  const run = longestZeroRun(g);
  const canonical =
    !nonCanonical && (run < 0 ? gapStart < 0 : gapStart === run >>> 4 && gapLength === (run & 15));
  out.text = !canonical
    ? formatV6Groups(g)
    : start === 0 && end === input.length
      ? input
      : input.slice(start, end);
  return true;
}

/** Exactly what String.prototype.trim() removes (ECMA-262 WhiteSpace and LineTerminator). */
const BLANK = /^\s$/;

function isBlank(c: number): boolean {
  // Printable ASCII is never blank: the common case answers in one comparison.
  return !(c > 32 && c < 127) && BLANK.test(String.fromCharCode(c));
}

/** Strict dotted quad (no leading zeros, as node:net requires) → uint32, or -1. */
function parseV4(s: string, start: number, end: number): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let parts = 0;
  let leadingZero = false;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits === 0) leadingZero = c === 48;
      else if (leadingZero) return -1;
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return -1;
    } else if (c === 46) {
      if (digits === 0 || parts === 3) return -1;
      value = value * 256 + part;
      parts++;
      part = 0;
      digits = 0;
    } else {
      return -1;
    }
  }
  if (digits === 0 || parts !== 3) return -1;
  return value * 256 + part;
}

/** Hex digit values by character code (-1: not a hex digit); upper case marked with 16. */
const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) {
  HEX[97 + c] = 10 + c;
  HEX[65 + c] = 16 + 10 + c;
}
const hexOf = (c: number): number => (c < 128 ? (HEX[c] as number) : -1);

/** RFC 4291 §2.2 text → `groups` (and the canonical-form facts above). False otherwise. */
function parseV6(s: string, start: number, end: number): boolean {
  let count = 0;
  let gap = -1;
  let i = start;
  nonCanonical = false;
  if (s.charCodeAt(i) === 58) {
    if (s.charCodeAt(i + 1) !== 58) return false;
    gap = 0;
    i += 2;
    if (i === end) {
      groups.fill(0);
      gapStart = 0;
      gapLength = 8;
      return true;
    }
  }
  while (i < end) {
    if (count === 8) return false;
    // A group: 1-4 hex digits, or a trailing dotted quad in the last 32 bits.
    const groupStart = i;
    let c = s.charCodeAt(i);
    let h = hexOf(c);
    let value = 0;
    let flags = 0;
    let digits = 0;
    while (h >= 0) {
      flags |= h;
      value = (value << 4) | (h & 15);
      if (++digits > 4) return false;
      c = ++i < end ? s.charCodeAt(i) : 58;
      h = hexOf(c);
    }
    if (digits === 0) return false;
    if (c === 46) {
      if (count > 6) return false;
      const v4 = parseV4(s, groupStart, end);
      if (v4 < 0) return false;
      groups[count++] = v4 >>> 16;
      groups[count++] = v4 & 0xffff;
      nonCanonical = true;
      i = end;
      break;
    }
    // Upper-case digits carry bit 16; a leading zero is a first digit of value 0.
    if (flags > 15 || (digits > 1 && s.charCodeAt(groupStart) === 48)) nonCanonical = true;
    groups[count++] = value;
    if (i === end) break;
    if (c !== 58) return false;
    i++;
    if (s.charCodeAt(i) === 58) {
      if (gap >= 0) return false;
      gap = count;
      i++;
      if (i === end) break;
    } else if (i === end) {
      return false;
    }
  }
  if (gap < 0) {
    gapStart = -1;
    gapLength = 0;
    return count === 8;
  }
  if (count > 7) return false;
  // Shift the groups after the gap to the end and zero-fill the gap.
  const tail = count - gap;
  for (let k = 0; k < tail; k++) groups[7 - k] = groups[count - 1 - k] as number;
  for (let k = gap; k < 8 - tail; k++) groups[k] = 0;
  gapStart = gap;
  gapLength = 8 - count;
  return true;
}

/**
 * The first longest run of two or more zero groups (RFC 5952 §4.2.3) as `start << 4 | length`,
 * or -1 when there is none.
 */
function longestZeroRun(g: Uint16Array): number {
  let bestStart = -1;
  let bestLen = 1;
  for (let k = 0; k < 8; ) {
    if (g[k] !== 0) {
      k++;
      continue;
    }
    let j = k;
    while (j < 8 && g[j] === 0) j++;
    if (j - k > bestLen) {
      bestStart = k;
      bestLen = j - k;
    }
    k = j;
  }
  return bestStart < 0 ? -1 : (bestStart << 4) | bestLen;
}

export function formatV4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/** RFC 5952 §4: lower case, no leading zeros, the longest run (≥ 2) of zero groups as `::`. */
function formatV6Groups(g: Uint16Array): string {
  const run = longestZeroRun(g);
  const bestStart = run < 0 ? -1 : run >>> 4;
  const bestLen = run & 15;
  let text = '';
  for (let k = 0; k < 8; k++) {
    if (k === bestStart) {
      text += k === 0 ? '::' : ':';
      k += bestLen - 1;
      continue;
    }
    text += (g[k] as number).toString(16);
    if (k < 7) text += ':';
  }
  return text;
}

/** Four big-endian words → canonical IPv6 text. */
export function formatV6(w0: number, w1: number, w2: number, w3: number): string {
  return formatV6Groups(Uint16Array.from([w0, w1, w2, w3].flatMap((w) => [w >>> 16, w & 0xffff])));
}

/** Words → BigInt (for range arithmetic off the hot path). */
export function wordsToBigInt(w0: number, w1: number, w2: number, w3: number): bigint {
  return (
    (BigInt(w0 >>> 0) << 96n) |
    (BigInt(w1 >>> 0) << 64n) |
    (BigInt(w2 >>> 0) << 32n) |
    BigInt(w3 >>> 0)
  );
}

export function bigIntToV6(value: bigint): string {
  return formatV6(
    Number((value >> 96n) & 0xffffffffn),
    Number((value >> 64n) & 0xffffffffn),
    Number((value >> 32n) & 0xffffffffn),
    Number(value & 0xffffffffn),
  );
}
