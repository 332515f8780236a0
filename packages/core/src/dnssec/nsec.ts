/**
 * Authenticated denial with NSEC (RFC 4035 §5.4, RFC 4034 §4): the NSEC matching or covering a
 * name, and the proofs of NODATA, NXDOMAIN and of a wildcard expansion.
 * @module
 */
import type { DnsRecord } from '../net/dns-types.js';
import type { NsecValue } from '../net/resolver-present-modern.js';
import { ancestor, compareNames, isSubdomain, labelsOf, wildcardOf } from './canonical.js';

export interface NsecProof {
  ok: boolean;
  records: DnsRecord[];
  proves: string;
}

const nextOf = (r: DnsRecord) => (r.value as NsecValue).next;
const typesOf = (r: DnsRecord) => (r.value as NsecValue).types;

export function nsecMatching(nsecs: readonly DnsRecord[], name: string): DnsRecord | undefined {
  return nsecs.find((r) => compareNames(r.name, name) === 0);
}

/**
 * The NSEC whose span holds `name`: owner < name < next, the last NSEC of the zone (next = the
 * apex, which sorts first) covering everything after its owner.
 */
export function nsecCovering(
  nsecs: readonly DnsRecord[],
  name: string,
  zone: string,
): DnsRecord | undefined {
  return nsecs.find((r) => {
    if (!isSubdomain(name, zone)) return false;
    const afterOwner = compareNames(r.name, name) < 0;
    const next = nextOf(r);
    const wraps = compareNames(next, r.name) <= 0;
    return afterOwner && (wraps || compareNames(name, next) < 0);
  });
}

/** The longest common ancestor of two names. */
function commonAncestor(a: string, b: string): string {
  const la = labelsOf(a);
  const lb = labelsOf(b);
  let n = 0;
  while (n < la.length && n < lb.length && la[la.length - 1 - n] === lb[lb.length - 1 - n]) n++;
  return ancestor(a, n);
}

/**
 * NODATA (RFC 4035 §5.4): an NSEC at `name` without `type` and without CNAME, or an empty
 * non-terminal (an NSEC covering `name` whose next name is below it).
 */
export function nsecNoData(
  nsecs: readonly DnsRecord[],
  name: string,
  type: string,
  zone: string,
): NsecProof {
  const match = nsecMatching(nsecs, name);
  if (match) {
    const types = typesOf(match);
    const ok = !types.includes(type) && !types.includes('CNAME');
    return {
      ok,
      records: [match],
      proves: ok
        ? `${name || '.'} exists and has no ${type} record`
        : `the NSEC at ${name || '.'} lists ${type}, so it cannot deny it`,
    };
  }
  const cover = nsecCovering(nsecs, name, zone);
  if (cover && isSubdomain(nextOf(cover), name)) {
    return { ok: true, records: [cover], proves: `${name} is an empty non-terminal` };
  }
  return { ok: false, records: [], proves: `no NSEC matches ${name} or shows it empty` };
}

/**
 * NXDOMAIN (RFC 4035 §5.4): an NSEC covering `name`, and one covering the wildcard at the
 * closest encloser (the longest ancestor the covering NSEC shows to exist).
 */
export function nsecNxDomain(nsecs: readonly DnsRecord[], name: string, zone: string): NsecProof {
  const cover = nsecCovering(nsecs, name, zone);
  if (!cover) return { ok: false, records: [], proves: `no NSEC covers ${name}` };
  const a = commonAncestor(name, cover.name);
  const b = commonAncestor(name, nextOf(cover));
  const encloser = labelsOf(a).length >= labelsOf(b).length ? a : b;
  const wildcard = wildcardOf(encloser);
  const wildcardCover = nsecCovering(nsecs, wildcard, zone);
  if (!wildcardCover) {
    return { ok: false, records: [cover], proves: `no NSEC covers the wildcard ${wildcard}` };
  }
  const records = wildcardCover === cover ? [cover] : [cover, wildcardCover];
  return { ok: true, records, proves: `${name} does not exist and no wildcard ${wildcard} does` };
}

/** A wildcard answer (RFC 4035 §5.3.4): an NSEC proves that `name` itself does not exist. */
export function nsecWildcardAnswer(
  nsecs: readonly DnsRecord[],
  name: string,
  zone: string,
): NsecProof {
  const cover = nsecCovering(nsecs, name, zone);
  return cover
    ? { ok: true, records: [cover], proves: `${name} does not exist: the answer is a wildcard's` }
    : { ok: false, records: [], proves: `no NSEC proves that ${name} does not exist` };
}

/** A delegation point's NSEC (NS without SOA) that proves no DS (RFC 4035 §5.2). */
export function nsecNoDsAtDelegation(record: DnsRecord): 'insecure' | 'no-cut' | 'has-ds' {
  const types = typesOf(record);
  if (types.includes('DS')) return 'has-ds';
  return types.includes('NS') && !types.includes('SOA') ? 'insecure' : 'no-cut';
}
