/**
 * Authenticated denial with NSEC3 (RFC 5155): the hash of a name (§5), matching and covering
 * hashed owners and the closest encloser proof (§8.3).
 * @module
 */
import { createHash } from 'node:crypto';
import type { DnsRecord } from '../net/dns-types.js';
import { base32hex, type Nsec3Value } from '../net/resolver-present-modern.js';
import { ancestor, labelsOf, nameWire } from './canonical.js';

/** Iterations past which the answer is insecure (RFC 9276 §3.2), Unbound 1.17's limit. */
export const MAX_NSEC3_ITERATIONS = 150;

/** RFC 5155 §5: IH(salt, x, 0) = H(x | salt), IH(salt, x, k) = H(IH(salt, x, k-1) | salt). */
export function nsec3Hash(name: string, saltHex: string, iterations: number): string {
  const salt = Buffer.from(saltHex, 'hex');
  let digest = createHash('sha1').update(nameWire(name)).update(salt).digest();
  for (let i = 0; i < iterations; i++) {
    digest = createHash('sha1').update(digest).update(salt).digest();
  }
  return base32hex(digest);
}

export interface Nsec3Entry {
  record: DnsRecord;
  value: Nsec3Value;
  /** The hashed owner label, upper case. */
  hash: string;
}

export function nsec3Entries(records: readonly DnsRecord[]): Nsec3Entry[] {
  return records.map((record) => ({
    record,
    value: record.value as Nsec3Value,
    hash: (labelsOf(record.name)[0] ?? '').toUpperCase(),
  }));
}

const hashFor = (entry: Nsec3Entry, name: string) =>
  nsec3Hash(name, entry.value.salt, entry.value.iterations);

export function nsec3Matching(entries: readonly Nsec3Entry[], name: string) {
  return entries.find((e) => e.value.hashAlgorithm === 1 && e.hash === hashFor(e, name));
}

/** Base32hex keeps the order of the hashes, so the strings compare like the hashes. */
export function nsec3Covering(entries: readonly Nsec3Entry[], name: string) {
  return entries.find((e) => {
    if (e.value.hashAlgorithm !== 1) return false;
    const h = hashFor(e, name);
    const next = e.value.next;
    if (e.hash < next) return e.hash < h && h < next;
    // The last NSEC3 of the chain wraps around to the first hash.
    return h > e.hash || h < next;
  });
}

/**
 * §8.3: the longest ancestor of `name` (within `zone`) with a matching NSEC3, and an NSEC3
 * covering the next closer name (one label longer, towards `name`): those two `records`.
 */
export function closestEncloserProof(
  entries: readonly Nsec3Entry[],
  name: string,
  zone: string,
): { closestEncloser: string; records: DnsRecord[]; optOut: boolean } | undefined {
  for (let n = labelsOf(name).length - 1; n >= labelsOf(zone).length; n--) {
    const candidate = ancestor(name, n);
    const match = nsec3Matching(entries, candidate);
    if (!match) continue;
    const cover = nsec3Covering(entries, ancestor(name, n + 1));
    if (!cover) return undefined;
    return {
      closestEncloser: candidate,
      records: [match.record, cover.record],
      optOut: (cover.value.flags & 1) === 1,
    };
  }
  return undefined;
}
