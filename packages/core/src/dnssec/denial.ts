/**
 * Denial of existence: only NSEC and NSEC3 records whose RRSIGs verify with the zone's keys
 * count (RFC 4035 §5.4), then the proof the question needs.
 * @module
 */
import type { DnsRecord } from '../net/dns-types.js';
import { ancestor, isSubdomain, labelsOf, plainName, wildcardOf } from './canonical.js';
import { rrsigs, type WalkContext, wellFormed, zoneLine } from './context.js';
import {
  nsecCovering,
  nsecMatching,
  nsecNoData,
  nsecNxDomain,
  nsecWildcardAnswer,
} from './nsec.js';
import {
  closestEncloserProof,
  MAX_NSEC3_ITERATIONS,
  type Nsec3Entry,
  nsec3Covering,
  nsec3Entries,
  nsec3Matching,
} from './nsec3.js';
import { verifyRrset, type ZoneKey } from './rrsig.js';
import type { DenialProof, SignatureCheck } from './types.js';

export interface VerifiedDenial {
  nsecs: DnsRecord[];
  nsec3s: Nsec3Entry[];
  checks: SignatureCheck[];
}

/** The NSEC and NSEC3 records of `section` (owned in `zone`) whose signatures verify. */
export async function verifiedDenial(
  section: readonly DnsRecord[],
  zone: string,
  keys: readonly ZoneKey[],
  ctx: WalkContext,
): Promise<VerifiedDenial> {
  const sigs = rrsigs(section);
  const checks: SignatureCheck[] = [];
  const keep = async (type: 'NSEC' | 'NSEC3') => {
    const kept: DnsRecord[] = [];
    for (const r of section) {
      if (r.type !== type || !wellFormed(r) || !isSubdomain(r.name, zone)) continue;
      // Each NSEC/NSEC3 owner holds exactly one such record: it is its own RRset.
      const set = section.filter((o) => o.type === type && plainName(o.name) === plainName(r.name));
      const v = await verifyRrset(set, sigs, zone, keys, ctx);
      checks.push(
        ...v.checks.filter(
          (c) => !checks.some((d) => d.rrset === c.rrset && d.key_tag === c.key_tag),
        ),
      );
      if (v.valid) kept.push(r);
    }
    return kept;
  };
  const nsecs = await keep('NSEC');
  const nsec3s = nsec3Entries(await keep('NSEC3'));
  return { nsecs, nsec3s, checks };
}

export interface DenialOutcome {
  /** `secure`: proven; `insecure`: an Opt-Out span or too many iterations; `bogus`: no proof. */
  status: 'secure' | 'insecure' | 'bogus';
  proof: DenialProof;
}

const nsecProof = (ok: boolean, records: DnsRecord[], proves: string): DenialOutcome => ({
  status: ok ? 'secure' : 'bogus',
  proof: { kind: 'nsec', opt_out: false, proves, records: records.map(zoneLine) },
});

const nsec3Proof = (
  status: DenialOutcome['status'],
  records: DnsRecord[],
  proves: string,
  optOut = false,
): DenialOutcome => ({
  status,
  proof: { kind: 'nsec3', opt_out: optOut, proves, records: [...new Set(records)].map(zoneLine) },
});

const tooManyIterations = (d: VerifiedDenial) =>
  d.nsec3s.some((e) => e.value.iterations > MAX_NSEC3_ITERATIONS);

const iterationsInsecure = (d: VerifiedDenial) =>
  nsec3Proof(
    'insecure',
    d.nsec3s.map((e) => e.record),
    `NSEC3 iterations above ${MAX_NSEC3_ITERATIONS} (RFC 9276 §3.2)`,
  );

const noDenial = () =>
  nsecProof(false, [], 'the response carries no verified NSEC or NSEC3 records');

/** NODATA for `name`/`type` (RFC 4035 §5.4; RFC 5155 §8.5–8.7). */
export function proveNoData(
  d: VerifiedDenial,
  name: string,
  type: string,
  zone: string,
): DenialOutcome {
  if (d.nsecs.length > 0) {
    const direct = nsecNoData(d.nsecs, name, type, zone);
    if (direct.ok) return nsecProof(true, direct.records, direct.proves);
    // Wildcard NODATA (RFC 4035 §3.1.3.4): the name is covered and the wildcard lacks the type.
    const cover = nsecCovering(d.nsecs, name, zone);
    if (cover) {
      for (let n = labelsOf(name).length - 1; n >= labelsOf(zone).length; n--) {
        const wildcard = wildcardOf(ancestor(name, n));
        const match = nsecMatching(d.nsecs, wildcard);
        if (match && nsecNoData([match], wildcard, type, zone).ok) {
          return nsecProof(
            true,
            [cover, match],
            `${name} does not exist and the wildcard ${wildcard} has no ${type}`,
          );
        }
      }
    }
    return nsecProof(false, direct.records, direct.proves);
  }
  if (d.nsec3s.length > 0) {
    if (tooManyIterations(d)) return iterationsInsecure(d);
    const match = nsec3Matching(d.nsec3s, name);
    if (match) {
      const ok = !match.value.types.includes(type) && !match.value.types.includes('CNAME');
      return nsec3Proof(
        ok ? 'secure' : 'bogus',
        [match.record],
        ok ? `${name} exists and has no ${type} record` : `the NSEC3 of ${name} lists ${type}`,
      );
    }
    const ce = closestEncloserProof(d.nsec3s, name, zone);
    if (ce && type === 'DS' && ce.optOut) {
      // RFC 5155 §8.6: no matching NSEC3 for a DS question, the next closer name in an Opt-Out
      // span: an unsigned delegation may exist there, the answer is insecure.
      return nsec3Proof(
        'insecure',
        ce.records,
        `${name} lies in an Opt-Out span: no DS is proven, the delegation is unsigned`,
        true,
      );
    }
    if (ce) {
      // RFC 5155 §8.7: wildcard NODATA.
      const wildcard = wildcardOf(ce.closestEncloser);
      const w = nsec3Matching(d.nsec3s, wildcard);
      if (w && !w.value.types.includes(type) && !w.value.types.includes('CNAME')) {
        return nsec3Proof(
          'secure',
          [...ce.records, w.record],
          `${name} does not exist and the wildcard ${wildcard} has no ${type}`,
        );
      }
    }
    return nsec3Proof('bogus', [], `no NSEC3 matches ${name}`);
  }
  return noDenial();
}

/** NXDOMAIN for `name` (RFC 4035 §5.4; RFC 5155 §8.4). */
export function proveNxDomain(d: VerifiedDenial, name: string, zone: string): DenialOutcome {
  if (d.nsecs.length > 0) {
    const p = nsecNxDomain(d.nsecs, name, zone);
    return nsecProof(p.ok, p.records, p.proves);
  }
  if (d.nsec3s.length > 0) {
    if (tooManyIterations(d)) return iterationsInsecure(d);
    const ce = closestEncloserProof(d.nsec3s, name, zone);
    if (!ce) return nsec3Proof('bogus', [], `no closest encloser proof for ${name}`);
    const wildcard = wildcardOf(ce.closestEncloser);
    const cover = nsec3Covering(d.nsec3s, wildcard);
    if (!cover) return nsec3Proof('bogus', ce.records, `no NSEC3 covers the wildcard ${wildcard}`);
    const records = [...ce.records, cover.record];
    // RFC 5155 §9.2: under Opt-Out the name may be an unsigned delegation: not secure.
    if (ce.optOut) {
      return nsec3Proof('insecure', records, `${name} lies in an Opt-Out span`, true);
    }
    return nsec3Proof(
      'secure',
      records,
      `${name} does not exist (closest encloser ${ce.closestEncloser || '.'}) and no wildcard ${wildcard} does`,
    );
  }
  return noDenial();
}

/**
 * A wildcard expansion (RFC 4035 §5.3.4, RFC 5155 §8.8): the name one label longer than the
 * RRSIG's `labels` (the next closer) must be proven not to exist.
 */
export function proveWildcard(
  d: VerifiedDenial,
  name: string,
  labels: number,
  zone: string,
): DenialOutcome {
  if (d.nsecs.length > 0) {
    const p = nsecWildcardAnswer(d.nsecs, name, zone);
    return nsecProof(p.ok, p.records, p.proves);
  }
  const nextCloser = ancestor(name, labels + 1);
  const cover = nsec3Covering(d.nsec3s, nextCloser);
  if (!cover)
    return nsec3Proof(
      'bogus',
      [],
      `no NSEC3 covers ${nextCloser}, so the wildcard answer is unproven`,
    );
  return nsec3Proof(
    'secure',
    [cover.record],
    `${nextCloser} does not exist: the answer is the wildcard's`,
    (cover.value.flags & 1) === 1,
  );
}
