/**
 * Verifying an RRset with RRSIGs and a set of trusted DNSKEYs (RFC 4035 §5.3): the checks of
 * §5.3.1 in order, the signature over the canonical RRset (§5.3.2) with node:crypto, and the
 * validity window in serial-number arithmetic (RFC 4034 §3.1.5, RFC 1982).
 * @module
 */
import type { KeyObject } from 'node:crypto';
import type { DnsRecord } from '../net/dns-types.js';
import type { DnskeyValue, RrsigValue } from '../net/resolver-present-modern.js';
import { importDnskey, isSupportedAlgorithm, verifySignature } from './algorithms.js';
import { displayName, labelsOf, plainName, rrsigSignedPart, signedData } from './canonical.js';
import type { SignatureCheck } from './types.js';

/** A DNSKEY ready for verification. */
export interface ZoneKey {
  record: DnsRecord;
  value: DnskeyValue;
  /** undefined when the key could not be imported (malformed or unsupported algorithm). */
  key: KeyObject | undefined;
}

export function zoneKey(record: DnsRecord): ZoneKey {
  const value = record.value as DnskeyValue;
  let key: KeyObject | undefined;
  if (isSupportedAlgorithm(value.algorithm)) {
    try {
      key = importDnskey(value.algorithm, Buffer.from(value.publicKey, 'base64'));
    } catch {
      key = undefined;
    }
  }
  return { record, value, key };
}

/** RFC 1982 §3.2: `a` ≤ `b` in 32-bit serial-number arithmetic. */
export function serialLte(a: number, b: number): boolean {
  return a === b || (b - a) >>> 0 < 0x80000000;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export interface RrsetVerification {
  valid: boolean;
  checks: SignatureCheck[];
}

/**
 * Verifies `records` (one RRset: same owner and type) with the RRSIGs among `rrsigs` that cover
 * it. `zone` is the zone the RRset belongs to (the signer must be it), `keys` the zone's
 * trusted keys, `now` seconds since the epoch. Secure when any RRSIG verifies (§5.3.3).
 */
export function verifyRrset(
  records: readonly DnsRecord[],
  rrsigs: readonly DnsRecord[],
  zone: string,
  keys: readonly ZoneKey[],
  now: number,
): RrsetVerification {
  const first = records[0];
  if (!first) return { valid: false, checks: [] };
  const owner = plainName(first.name);
  const rrsetLabel = `${displayName(owner)} ${first.type}`;
  const covering = rrsigs.filter(
    (s) => plainName(s.name) === owner && (s.value as RrsigValue).typeCovered === first.type,
  );
  const checks: SignatureCheck[] = [];
  for (const sig of covering) {
    const v = sig.value as RrsigValue;
    const check = (outcome: SignatureCheck['outcome']): SignatureCheck => ({
      rrset: rrsetLabel,
      key_tag: v.keyTag,
      algorithm: v.algorithm,
      signer: displayName(v.signerName),
      inception: iso(v.inception),
      expiration: iso(v.expiration),
      outcome,
    });
    // §5.3.1: the signer is the zone that holds the RRset.
    if (plainName(v.signerName) !== plainName(zone)) {
      checks.push(check('wrong-signer'));
      continue;
    }
    // §5.3.1: the Labels field is not greater than the owner's label count.
    if (v.labels > labelsOf(owner).length) {
      checks.push(check('bad-labels'));
      continue;
    }
    if (!isSupportedAlgorithm(v.algorithm)) {
      checks.push(check('unsupported-algorithm'));
      continue;
    }
    // §5.3.1: a DNSKEY of the zone with the Zone Key flag, protocol 3, same algorithm and tag.
    const candidates = keys.filter(
      (k) =>
        k.value.keyTag === v.keyTag &&
        k.value.algorithm === v.algorithm &&
        (k.value.flags & 0x0100) !== 0 &&
        k.value.protocol === 3 &&
        k.key !== undefined,
    );
    if (candidates.length === 0) {
      checks.push(check('no-matching-key'));
      continue;
    }
    // §5.3.1: inception ≤ now ≤ expiration, in serial-number arithmetic.
    if (!serialLte(now, v.expiration)) {
      checks.push(check('expired'));
      continue;
    }
    if (!serialLte(v.inception, now)) {
      checks.push(check('not-yet-valid'));
      continue;
    }
    let ok = false;
    try {
      const { head, signature } = rrsigSignedPart(sig);
      const data = signedData(head, owner, first.typeCode, v.originalTtl, v.labels, records);
      ok = candidates.some((k) =>
        verifySignature(v.algorithm, k.key as KeyObject, data, signature),
      );
    } catch {
      // Rdata that cannot be put in canonical form cannot have been signed as it stands.
      ok = false;
    }
    checks.push(check(ok ? 'valid' : 'bad-signature'));
  }
  return { valid: checks.some((c) => c.outcome === 'valid'), checks };
}

/** The RRSIG that validated, when its Labels field shows a wildcard expansion (§5.3.4). */
export function wildcardLabels(
  records: readonly DnsRecord[],
  rrsigs: readonly DnsRecord[],
  checks: readonly SignatureCheck[],
): number | undefined {
  const first = records[0];
  if (!first) return undefined;
  const owner = plainName(first.name);
  const ownerLabels = labelsOf(owner).length;
  for (const sig of rrsigs) {
    const v = sig.value as RrsigValue;
    if (plainName(sig.name) !== owner || v.typeCovered !== first.type) continue;
    const ok = checks.some(
      (c) => c.outcome === 'valid' && c.key_tag === v.keyTag && c.algorithm === v.algorithm,
    );
    if (ok && v.labels < ownerLabels) return v.labels;
  }
  return undefined;
}
