/**
 * Verifying an RRset with RRSIGs and trusted DNSKEYs (RFC 4035 §5.3): the checks of §5.3.1 in
 * order, the validity window in serial-number arithmetic (RFC 4034 §3.1.5, RFC 1982).
 * @module
 */
import type { KeyObject } from 'node:crypto';
import type { DnsRecord } from '../net/dns-types.js';
import type { DnskeyValue, RrsigValue } from '../net/resolver-present-modern.js';
import { nextTurn } from '../net/signal.js';
import { importDnskey, isSupportedAlgorithm, verifySignature } from './algorithms.js';
import { displayName, labelsOf, plainName, rrsigSignedPart, signedData } from './canonical.js';
import { LimitReached, type WalkContext } from './context.js';
import { MAX_SIGNATURES_PER_RRSET, SIGNATURES_PER_QUESTION } from './limits.js';
import type { SignatureCheck } from './types.js';

/** A DNSKEY ready for verification. */
export interface ZoneKey {
  record: DnsRecord;
  value: DnskeyValue;
  /** undefined when it cannot be imported; imported on first use (a huge RRset costs nothing). */
  readonly key: KeyObject | undefined;
}

export function zoneKey(record: DnsRecord): ZoneKey {
  const value = record.value as DnskeyValue;
  let imported: KeyObject | null | undefined;
  return {
    record,
    value,
    get key() {
      if (imported === undefined) {
        imported = null;
        try {
          if (isSupportedAlgorithm(value.algorithm)) {
            imported = importDnskey(value.algorithm, Buffer.from(value.publicKey, 'base64'));
          }
        } catch {
          // A malformed key stays unusable.
        }
      }
      return imported ?? undefined;
    },
  };
}

/** RFC 1982 §3.2: `a` ≤ `b` in 32-bit serial-number arithmetic. */
function serialLte(a: number, b: number): boolean {
  return a === b || (b - a) >>> 0 < 0x80000000;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * Verifies `records` (one RRset) with the RRSIGs among `rrsigs` that cover it, signed by `zone`
 * with one of `keys`: secure when one verifies (§5.3.3), those naming one of `keys` tried
 * first. Past MAX_SIGNATURES_PER_RRSET or `ctx.maxSignatures`, throws `LimitReached` (KeyTrap).
 */
export async function verifyRrset(
  records: readonly DnsRecord[],
  rrsigs: readonly DnsRecord[],
  zone: string,
  keys: readonly ZoneKey[],
  ctx: WalkContext,
): Promise<{ valid: boolean; checks: SignatureCheck[] }> {
  const first = records[0];
  if (!first) return { valid: false, checks: [] };
  const owner = plainName(first.name);
  const rrsetLabel = `${displayName(owner)} ${first.type}`;
  const named = new Set(keys.map((k) => `${k.value.keyTag}/${k.value.algorithm}`));
  const namesKey = (s: DnsRecord) => {
    const v = s.value as RrsigValue;
    return named.has(`${v.keyTag}/${v.algorithm}`) ? 0 : 1;
  };
  const covering = rrsigs
    .filter(
      (s) => plainName(s.name) === owner && (s.value as RrsigValue).typeCovered === first.type,
    )
    .sort((a, b) => namesKey(a) - namesKey(b));
  const checks: SignatureCheck[] = [];
  let tried = 0;
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
    if (!serialLte(ctx.now, v.expiration)) {
      checks.push(check('expired'));
      continue;
    }
    if (!serialLte(v.inception, ctx.now)) {
      checks.push(check('not-yet-valid'));
      continue;
    }
    let signed: { data: Buffer; signature: Buffer } | undefined;
    try {
      const { head, signature } = rrsigSignedPart(sig);
      const data = signedData(head, owner, first.typeCode, v.originalTtl, v.labels, records);
      signed = { data, signature };
    } catch {
      // Rdata that cannot be put in canonical form cannot have been signed as it stands.
    }
    let ok = false;
    for (const k of signed ? candidates : []) {
      if (tried === MAX_SIGNATURES_PER_RRSET) {
        throw new LimitReached(
          `netdiag checks at most ${MAX_SIGNATURES_PER_RRSET} signatures on one RRset (a KeyTrap defence, CVE-2023-50387) and none of those over ${rrsetLabel} verified, so nothing was proven either way`,
        );
      }
      if (ctx.spent.signatures === ctx.maxSignatures) {
        throw new LimitReached(
          `netdiag checks at most ${ctx.maxSignatures} signatures in one validation (${SIGNATURES_PER_QUESTION} per question of maxQueries, a KeyTrap defence, CVE-2023-50387) and reached that before ${rrsetLabel} verified, so nothing was proven either way`,
        );
      }
      // One verification per turn of the event loop: other requests go on, an abort stops here.
      await nextTurn(ctx.signal);
      tried += 1;
      ctx.spent.signatures += 1;
      const { data, signature } = signed as { data: Buffer; signature: Buffer };
      if (verifySignature(v.algorithm, k.key as KeyObject, data, signature)) {
        ok = true;
        break;
      }
    }
    checks.push(check(ok ? 'valid' : 'bad-signature'));
    if (ok) return { valid: true, checks };
  }
  return { valid: false, checks };
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
