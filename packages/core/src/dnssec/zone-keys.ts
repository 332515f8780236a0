/**
 * One link of the chain (RFC 4035 §5.2): a DS from the parent (or the trust anchor) matches a
 * key of the zone's DNSKEY RRset, which that key signs; then the RRset's keys are trusted.
 * @module
 */
import type { DnsRecord } from '../net/dns-types.js';
import type { DnskeyValue, DsValue } from '../net/resolver-present-modern.js';
import { algorithmName, isSupportedAlgorithm } from './algorithms.js';
import { canonicalRdata, displayName } from './canonical.js';
import {
  ask,
  assertUsable,
  BogusLink,
  LimitReached,
  rrset,
  rrsigs,
  signatureRule,
  type WalkContext,
} from './context.js';
import { digestName, dsDigest, isSupportedDigest } from './digest.js';
import { MAX_KEY_TAG_COLLISIONS } from './limits.js';
import { verifyRrset, type ZoneKey, zoneKey } from './rrsig.js';
import type { AnchorRecord } from './trust-anchor.js';
import type { DsInfo, SignatureCheck, ZoneLink } from './types.js';

/** A DS from the parent or an anchor record. */
export type Authenticator = DsValue | AnchorRecord;

const isDnskeyAnchor = (a: Authenticator): a is Extract<AnchorRecord, { type: 'DNSKEY' }> =>
  'type' in a && a.type === 'DNSKEY';

/**
 * Fetches and authenticates the DNSKEY RRset of `zone` with `authenticators` (the DS RRset,
 * already validated in the parent, or the trust anchor): the link and the trusted keys, none
 * when the link is insecure. Throws `BogusLink` when it fails, `LimitReached` past a limit.
 */
export async function establishZone(
  ctx: WalkContext,
  zone: string,
  authenticators: readonly Authenticator[],
  dsSource: ZoneLink['ds_source'],
  dsSignatures: SignatureCheck[],
): Promise<{ link: ZoneLink; keys: ZoneKey[] | undefined }> {
  const label = displayName(zone);
  const response = await ask(ctx, zone, 'DNSKEY');
  assertUsable(response, zone, 'DNSKEY');
  const keyRecords = rrset(response.answers, zone, 'DNSKEY');
  const keys = keyRecords.map(zoneKey);
  const link = (
    status: ZoneLink['status'],
    ds: DsInfo[],
    checks: SignatureCheck[],
    matched = new Set<ZoneKey>(),
  ): ZoneLink => ({
    zone: label,
    status,
    ds_source: dsSource,
    ds,
    ds_signatures: dsSignatures,
    dnskeys: keys.map((k) => ({
      key_tag: k.value.keyTag,
      algorithm: k.value.algorithm,
      flags: k.value.flags,
      role: k.value.flags & 0x0080 ? 'revoked' : k.value.flags & 0x0001 ? 'KSK' : 'ZSK',
      matches_ds: matched.has(k),
    })),
    dnskey_signatures: checks,
  });
  // RFC 4035 §5.2: with no DS of a supported algorithm and digest, the zone is treated as
  // unsigned (insecure), not as bogus.
  const usable = authenticators.filter(
    (a) =>
      isSupportedAlgorithm(a.algorithm) && (isDnskeyAnchor(a) || isSupportedDigest(a.digestType)),
  );
  if (usable.length === 0) {
    // No digest is computed for an unsupported DS: this costs nothing whatever the keys.
    const ds = authenticators.map((a) => dsInfo(zone, a, keys));
    return { link: link('insecure', ds, []), keys: undefined };
  }
  if (keyRecords.length === 0) {
    throw new BogusLink({
      zone: label,
      rrset: `${label} DNSKEY`,
      rule: `RFC 4035 §5.2: ${dsSource === 'parent' ? 'the parent publishes DS records' : 'a trust anchor exists'} but ${label} serves no DNSKEY RRset (rcode ${response.rcode})`,
    });
  }
  // KeyTrap (CVE-2023-50387): keys sharing a tag are each tried by every DS and every signature
  // that names the tag; past the limit, nothing is tried.
  const crowd = largestTagGroup(keys);
  if (crowd.size > MAX_KEY_TAG_COLLISIONS) {
    throw new LimitReached(
      `${crowd.size} DNSKEYs of ${label} share key tag ${crowd.keyTag} and algorithm ${crowd.algorithm}; netdiag tries at most ${MAX_KEY_TAG_COLLISIONS} keys with one tag (a KeyTrap defence, CVE-2023-50387), so nothing was proven either way`,
    );
  }
  const ds: DsInfo[] = authenticators.map((a) => dsInfo(zone, a, keys));
  const matched = new Set<ZoneKey>();
  ds.forEach((info, i) => {
    if (info.outcome !== 'matched') return;
    const a = authenticators[i] as Authenticator;
    for (const k of keys) if (authenticates(zone, a, k)) matched.add(k);
  });
  if (matched.size === 0) {
    const mismatch = ds.find((d) => d.outcome === 'digest-mismatch');
    const missing = ds[0] as DsInfo;
    throw new BogusLink({
      zone: label,
      rrset: `${label} DNSKEY`,
      rule: mismatch
        ? `RFC 4035 §5.2: the ${digestName(mismatch.digest_type)} digest of DNSKEY ${mismatch.key_tag} (${algorithmName(mismatch.algorithm)}) does not match the DS that names it`
        : `RFC 4035 §5.2: no DNSKEY of ${label} matches the DS (key tag ${missing.key_tag}, ${algorithmName(missing.algorithm)} is not published)`,
      key_tag: (mismatch ?? missing).key_tag,
      algorithm: (mismatch ?? missing).algorithm,
    });
  }
  // §5.2: the DNSKEY RRset must be signed by a key the DS authenticates. Only those keys decide
  // (a key that merely shares a DS's key tag decides nothing), and the signatures listed are the
  // ones tried until one verified.
  const v = await verifyRrset(keyRecords, rrsigs(response.answers), zone, [...matched], ctx);
  if (!v.valid) {
    const first = [...matched][0] as ZoneKey;
    throw new BogusLink({
      zone: label,
      rrset: `${label} DNSKEY`,
      rule: signatureRule(v.checks, `the DNSKEY RRset of ${label} (by a DS-authenticated key)`),
      key_tag: first.value.keyTag,
      algorithm: first.value.algorithm,
      signatures: v.checks,
    });
  }
  // RFC 4034 §2.1.1: only keys with the Zone Key flag sign zone data; RFC 5011 §7: not revoked.
  const trusted = keys.filter((k) => k.value.flags & 0x0100 && !(k.value.flags & 0x0080));
  return { link: link('secure', ds, v.checks, matched), keys: trusted };
}

/** The most keys of the set that share one key tag and algorithm. */
function largestTagGroup(keys: readonly ZoneKey[]) {
  const groups = new Map<string, number>();
  let largest = { size: 0, keyTag: 0, algorithm: 0 };
  for (const k of keys) {
    const id = `${k.value.keyTag}/${k.value.algorithm}`;
    const size = (groups.get(id) ?? 0) + 1;
    groups.set(id, size);
    if (size > largest.size)
      largest = { size, keyTag: k.value.keyTag, algorithm: k.value.algorithm };
  }
  return largest;
}

function authenticates(zone: string, a: Authenticator, key: ZoneKey): boolean {
  if (isDnskeyAnchor(a)) {
    const v: DnskeyValue = key.value;
    return (
      v.flags === a.flags &&
      v.protocol === a.protocol &&
      v.algorithm === a.algorithm &&
      v.publicKey === a.publicKey
    );
  }
  if (key.value.keyTag !== a.keyTag || key.value.algorithm !== a.algorithm) return false;
  return dsDigest(zone, canonicalRdata(key.record), a.digestType) === a.digest.toLowerCase();
}

function dsInfo(zone: string, a: Authenticator, keys: readonly ZoneKey[]): DsInfo {
  if (isDnskeyAnchor(a)) {
    const key = keys.find((k) => authenticates(zone, a, k));
    return {
      key_tag: key?.value.keyTag ?? 0,
      algorithm: a.algorithm,
      digest_type: 0,
      digest: '',
      outcome: key ? 'matched' : 'no-such-key',
    };
  }
  const base = {
    key_tag: a.keyTag,
    algorithm: a.algorithm,
    digest_type: a.digestType,
    digest: a.digest.toLowerCase(),
  };
  if (!isSupportedAlgorithm(a.algorithm) || !isSupportedDigest(a.digestType)) {
    return { ...base, outcome: 'unsupported' };
  }
  const sameTag = keys.filter(
    (k) => k.value.keyTag === a.keyTag && k.value.algorithm === a.algorithm,
  );
  if (sameTag.length === 0) return { ...base, outcome: 'no-such-key' };
  const ok = sameTag.some((k) => authenticates(zone, a, k));
  return { ...base, outcome: ok ? 'matched' : 'digest-mismatch' };
}

/** The DS values of a DS RRset. */
export const dsValues = (records: readonly DnsRecord[]) => records.map((r) => r.value as DsValue);
