/**
 * Inclusive address ranges → the fewest CIDR blocks that cover them exactly (the ASN data
 * stores ranges; people and routers think in prefixes).
 * @module
 */
import { bigIntToV6, formatV4 } from '../ip/address.js';

/** Largest aligned block starting at `first` that fits in `first..last` (IPv4), as host bits. */
function blockBitsV4(first: number, last: number): number {
  // Alignment: the number of trailing zero bits of `first` (32 for 0.0.0.0).
  let bits = first === 0 ? 32 : 31 - Math.clz32(first & -first);
  while (bits > 0 && 2 ** bits > last - first + 1) bits--;
  return bits;
}

export function v4RangeToCidrs(first: number, last: number): string[] {
  const out: string[] = [];
  let at = first;
  while (at <= last) {
    const bits = blockBitsV4(at, last);
    out.push(`${formatV4(at)}/${32 - bits}`);
    at += 2 ** bits;
  }
  return out;
}

export function v4RangeCidrCount(first: number, last: number): number {
  let count = 0;
  let at = first;
  while (at <= last) {
    at += 2 ** blockBitsV4(at, last);
    count++;
  }
  return count;
}

function blockBitsV6(first: bigint, last: bigint): number {
  let bits = 0;
  while (bits < 128 && ((first >> BigInt(bits)) & 1n) === 0n) bits++;
  while (bits > 0 && 1n << BigInt(bits) > last - first + 1n) bits--;
  return bits;
}

export function v6RangeToCidrs(first: bigint, last: bigint): string[] {
  const out: string[] = [];
  let at = first;
  while (at <= last) {
    const bits = blockBitsV6(at, last);
    out.push(`${bigIntToV6(at)}/${128 - bits}`);
    at += 1n << BigInt(bits);
  }
  return out;
}

export function v6RangeCidrCount(first: bigint, last: bigint): number {
  let count = 0;
  let at = first;
  while (at <= last) {
    at += 1n << BigInt(blockBitsV6(at, last));
    count++;
  }
  return count;
}
