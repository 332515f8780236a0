/**
 * `validateDnssec`: netdiag's own DNSSEC validation (RFC 4033–4035, RFC 5155). From the anchored
 * zone the walk asks for the DS of each longer ancestor of the name: a signed DS RRset is a
 * secure zone cut (its DNSKEY RRset authenticated in zone-keys.ts), a proven absence of DS at a
 * delegation makes everything below insecure. The answer is verified with the keys of its zone,
 * with its denial or wildcard proof. The first link that does not verify makes it `bogus`; past
 * a bound of limits.ts the verdict is `indeterminate`, the bound in `reason`.
 * @module
 */
import { DNS_TYPES_V1, parseRecordType } from '../dns/record-types.js';
import { InvalidInputError } from '../errors.js';
import type { DnsResolver, DnsResponse, RecordType } from '../net/dns-types.js';
import { normaliseDomain } from '../net/domain.js';
import { getDefaultResolver } from '../net/resolver.js';
import { withTimeout } from '../net/signal.js';
import type { BaseOptions } from '../types.js';
import {
  ancestor,
  displayName,
  isSubdomain,
  labelsOf,
  plainName,
  wildcardOf,
} from './canonical.js';
import {
  ask,
  assertUsable,
  BogusLink,
  rrset,
  rrsigs,
  signatureRule,
  UnavailableLink,
  type WalkContext,
  zoneLine,
} from './context.js';
import {
  proveNoData,
  proveNxDomain,
  proveWildcard,
  type VerifiedDenial,
  verifiedDenial,
} from './denial.js';
import { DEFAULT_MAX_QUERIES, SIGNATURES_PER_QUESTION } from './limits.js';
import { nsecMatching, nsecNoDsAtDelegation } from './nsec.js';
import { nsec3Matching } from './nsec3.js';
import { verifyRrset, wildcardLabels, type ZoneKey } from './rrsig.js';
import { IANA_ROOT_ANCHORS, parseTrustAnchors, type TrustAnchor } from './trust-anchor.js';
import type { DnssecAnswer, DnssecFailure, DnssecResult, DnssecStatus, ZoneLink } from './types.js';
import { dsValues, establishZone } from './zone-keys.js';

export interface ValidateDnssecOptions extends BaseOptions {
  /** Record type to validate. @default 'A' */
  type?: string | undefined;
  /**
   * The resolver asked for every RRset (with DO and CD): a recursive resolver, or an
   * authoritative server that serves the whole hierarchy. @default the library's shared resolver
   */
  resolver?: DnsResolver;
  /** DS or DNSKEY records in zone-file form, all for one zone. @default `IANA_ROOT_ANCHORS` */
  trustAnchors?: string | readonly string[];
  /** The clock signature validity windows are judged against. @default Date.now */
  now?: () => number;
  /**
   * DNS questions the validation may ask, CNAME hops included (BIND 9.18's max-query-count), and
   * with it the signatures it may check (two per question). When either is spent, the verdict is
   * `indeterminate` and `reason` says which. @default 200
   */
  maxQueries?: number;
}

/** CNAME chains followed at most this far (the same bound as BIND's and Unbound's 8 or more). */
const MAX_CNAME_HOPS = 8;

const RANK: Record<DnssecStatus, number> = { secure: 0, insecure: 1, indeterminate: 2, bogus: 3 };

/** Validates the answer to `name`/`type` from the trust anchor down. */
export async function validateDnssec(
  name: string,
  options: ValidateDnssecOptions = {},
): Promise<DnssecResult> {
  const type = parseRecordType(options.type, DNS_TYPES_V1);
  const domain = name.trim() === '.' ? '' : normaliseDomain(name);
  const anchor = parseTrustAnchors(options.trustAnchors ?? IANA_ROOT_ANCHORS);
  const nowMs = (options.now ?? Date.now)();
  if (!Number.isFinite(nowMs)) throw new InvalidInputError('the clock gave no time', 'now');
  const maxQueries = options.maxQueries ?? DEFAULT_MAX_QUERIES;
  if (!Number.isInteger(maxQueries) || maxQueries < 1) {
    throw new InvalidInputError(
      'maxQueries must be a whole number of questions, 1 or more',
      'maxQueries',
    );
  }
  return withTimeout({ ...options, timeout: options.timeout ?? 30_000 }, 'dns', (signal) =>
    validateName(
      {
        resolver: options.resolver ?? getDefaultResolver(),
        signal,
        now: Math.floor(nowMs / 1000),
        spent: { queries: 0, signatures: 0 },
        maxQueries,
        maxSignatures: SIGNATURES_PER_QUESTION * maxQueries,
      },
      domain,
      type,
      {
        anchor,
        source: options.trustAnchors === undefined ? 'iana-root' : 'configured',
        validatedAt: new Date(nowMs).toISOString(),
      },
      0,
    ),
  );
}

interface Root {
  anchor: TrustAnchor;
  source: DnssecResult['trust_anchor']['source'];
  validatedAt: string;
}

async function validateName(
  ctx: WalkContext,
  name: string,
  type: RecordType,
  root: Root,
  hops: number,
): Promise<DnssecResult> {
  const { anchor, source, validatedAt } = root;
  const base = {
    name: displayName(name),
    type,
    trust_anchor: { zone: displayName(anchor.zone), source, records: anchor.text },
    validated_at: validatedAt,
  };
  if (!isSubdomain(name, anchor.zone)) {
    return {
      ...base,
      status: 'indeterminate',
      reason: `no trust anchor covers ${displayName(name)} (the anchor is for ${displayName(anchor.zone)})`,
      chain: [],
    };
  }
  const chain: ZoneLink[] = [];
  try {
    const walked = await walkToZone(ctx, name, type, anchor, chain);
    if (walked.kind === 'insecure') {
      // Below an insecure delegation: the answer, shown but not validated.
      const response = await ask(ctx, name, type);
      const answer = { rcode: response.rcode, records: answerLines(response), signatures: [] };
      return { ...base, status: 'insecure', reason: walked.reason, chain, answer };
    }
    const verdict = await validateAnswer(ctx, name, type, walked.zone, walked.keys);
    if (verdict.cname && hops < MAX_CNAME_HOPS && type !== 'CNAME') {
      const next = await validateName(ctx, verdict.cname, type, root, hops + 1);
      const status = RANK[next.status] > RANK[verdict.status] ? next.status : verdict.status;
      const answer: DnssecAnswer = {
        ...verdict.answer,
        records: [...verdict.answer.records, ...(next.answer?.records ?? [])],
        signatures: [...verdict.answer.signatures, ...(next.answer?.signatures ?? [])],
      };
      return {
        ...base,
        status,
        reason: `${displayName(name)} is a CNAME to ${displayName(verdict.cname)}: ${next.reason}`,
        ...(next.failure ? { failure: next.failure } : {}),
        chain: [...chain, ...next.chain.filter((l) => !chain.some((c) => c.zone === l.zone))],
        answer,
      };
    }
    const { status, reason, answer } = verdict;
    return { ...base, status, reason, chain, answer };
  } catch (error) {
    if (error instanceof UnavailableLink) {
      return { ...base, status: 'indeterminate', reason: error.message, chain };
    }
    if (!(error instanceof BogusLink)) throw error;
    return { ...base, status: 'bogus', reason: error.failure.rule, failure: error.failure, chain };
  }
}

const bogus = (
  zone: string,
  rrset: string,
  rule: string,
  signatures: DnssecFailure['signatures'],
) => new BogusLink({ zone: displayName(zone), rrset, rule, signatures });

type Walked =
  | { kind: 'secure'; zone: string; keys: ZoneKey[] }
  | { kind: 'insecure'; reason: string };

/** From the anchor down to the zone that holds `name` (for a DS question: its parent's). */
async function walkToZone(
  ctx: WalkContext,
  name: string,
  type: RecordType,
  anchor: TrustAnchor,
  chain: ZoneLink[],
): Promise<Walked> {
  let zone = anchor.zone;
  const top = await establishZone(ctx, zone, anchor.records, 'trust-anchor', []);
  chain.push(top.link);
  if (!top.keys) {
    return {
      kind: 'insecure',
      reason: `the trust anchor for ${displayName(zone)} uses no supported algorithm`,
    };
  }
  let keys = top.keys;
  const last = labelsOf(name).length - (type === 'DS' ? 1 : 0);
  for (let depth = labelsOf(zone).length + 1; depth <= last; depth++) {
    const candidate = ancestor(name, depth);
    const response = await ask(ctx, candidate, 'DS');
    assertUsable(response, candidate, 'DS');
    const ds = rrset(response.answers, candidate, 'DS');
    if (ds.length > 0) {
      // RFC 4035 §5.2: the DS RRset is signed by the parent zone.
      const v = await verifyRrset(ds, rrsigs(response.answers), zone, keys, ctx);
      if (!v.valid) {
        const rule = `the DS RRset of ${displayName(candidate)} in ${displayName(zone)}`;
        throw bogus(zone, `${displayName(candidate)} DS`, signatureRule(v.checks, rule), v.checks);
      }
      const child = await establishZone(ctx, candidate, dsValues(ds), 'parent', v.checks);
      chain.push(child.link);
      if (!child.keys) {
        return {
          kind: 'insecure',
          reason: `the DS records of ${displayName(candidate)} use no supported algorithm or digest (RFC 4035 §5.2)`,
        };
      }
      zone = candidate;
      keys = child.keys;
      continue;
    }
    if (response.rcode === 'NXDOMAIN') {
      // The name does not exist from here down: the answer's NXDOMAIN is proven in this zone.
      break;
    }
    if (rrset(response.answers, candidate, 'CNAME').length > 0) {
      // A CNAME owner is no zone cut (RFC 2181 §10.1: nothing else at that name); the CNAME
      // itself is verified with the answer.
      continue;
    }
    // NODATA for DS: either no zone cut here, or an unsigned delegation (RFC 4035 §5.2).
    const denial = await verifiedDenial(response.authority, zone, keys, ctx);
    const proof = proveNoData(denial, candidate, 'DS', zone);
    if (proof.status === 'bogus') {
      throw bogus(
        zone,
        `${displayName(candidate)} DS`,
        `RFC 4035 §5.2: ${displayName(zone)} neither signs a DS for ${displayName(candidate)} nor proves its absence (${proof.proof.proves})`,
        denial.checks,
      );
    }
    const atCut = delegationState(denial, candidate);
    if (proof.status === 'insecure' || atCut === 'insecure') {
      chain.push({
        zone: displayName(candidate),
        status: 'insecure',
        ds_source: 'parent',
        ds: [],
        ds_signatures: denial.checks,
        dnskeys: [],
        dnskey_signatures: [],
        no_ds_proof: proof.proof,
      });
      return {
        kind: 'insecure',
        reason: `${displayName(candidate)} is an unsigned delegation: ${displayName(zone)} proves it has no DS (${proof.proof.proves})`,
      };
    }
  }
  return { kind: 'secure', zone, keys };
}

/** Whether the verified NSEC/NSEC3 at `name` shows a delegation (NS, no SOA) without DS. */
function delegationState(denial: VerifiedDenial, name: string) {
  const nsec = nsecMatching(denial.nsecs, name);
  if (nsec) return nsecNoDsAtDelegation(nsec);
  const nsec3 = nsec3Matching(denial.nsec3s, name);
  if (nsec3) {
    const types = nsec3.value.types;
    return types.includes('NS') && !types.includes('SOA') ? 'insecure' : 'no-cut';
  }
  return 'no-cut';
}

type AnswerVerdict = { status: DnssecStatus; reason: string; answer: DnssecAnswer; cname?: string };

/** The answer for `name`/`type`, verified with the keys of `zone`. */
async function validateAnswer(
  ctx: WalkContext,
  name: string,
  type: RecordType,
  zone: string,
  keys: ZoneKey[],
): Promise<AnswerVerdict> {
  const response = await ask(ctx, name, type);
  assertUsable(response, name, type);
  const records = answerLines(response);
  const sigs = rrsigs(response.answers);
  const direct = rrset(response.answers, name, type);
  const cname = type === 'CNAME' ? [] : rrset(response.answers, name, 'CNAME');
  const found = direct.length > 0 ? direct : cname;
  const label = `${displayName(name)} ${type}`;
  if (response.rcode === 'NOERROR' && found.length > 0) {
    const v = await verifyRrset(found, sigs, zone, keys, ctx);
    const answer: DnssecAnswer = { rcode: response.rcode, records, signatures: v.checks };
    if (!v.valid) {
      const signed = `${displayName(name)} ${found[0]?.type}`;
      throw bogus(zone, signed, signatureRule(v.checks, signed), v.checks);
    }
    const labels = wildcardLabels(found, sigs, v.checks);
    if (labels !== undefined) {
      const denial = await verifiedDenial(response.authority, zone, keys, ctx);
      const proof = proveWildcard(denial, name, labels, zone);
      const wildcard = displayName(wildcardOf(ancestor(name, labels)));
      if (proof.status === 'bogus') {
        throw bogus(
          zone,
          label,
          `RFC 4035 §5.3.4: the answer comes from the wildcard ${wildcard} but ${proof.proof.proves}`,
          denial.checks,
        );
      }
      answer.wildcard = wildcard;
      answer.denial = proof.proof;
      return {
        status: proof.status === 'insecure' ? 'insecure' : 'secure',
        reason: `the answer is signed by ${displayName(zone)} through the wildcard ${wildcard}, and ${proof.proof.proves}`,
        answer,
      };
    }
    const target =
      direct.length === 0 ? plainName((found[0]?.value as string | undefined) ?? '') : undefined;
    return {
      status: 'secure',
      reason: `every link from the trust anchor to ${label} verifies`,
      answer,
      ...(target !== undefined ? { cname: target } : {}),
    };
  }
  const denial = await verifiedDenial(response.authority, zone, keys, ctx);
  const nx = response.rcode === 'NXDOMAIN';
  const outcome = nx ? proveNxDomain(denial, name, zone) : proveNoData(denial, name, type, zone);
  const answer: DnssecAnswer = {
    rcode: response.rcode,
    records,
    signatures: denial.checks,
    denial: outcome.proof,
  };
  if (outcome.status === 'bogus') {
    throw bogus(
      zone,
      label,
      `RFC 4035 §5.4: the ${nx ? 'NXDOMAIN' : 'NODATA'} answer for ${label} is not proven: ${outcome.proof.proves}`,
      denial.checks,
    );
  }
  return {
    status: outcome.status,
    reason:
      outcome.status === 'secure'
        ? `the ${nx ? 'non-existence of the name' : 'absence of the type'} is proven: ${outcome.proof.proves}`
        : `the denial is not secure: ${outcome.proof.proves}`,
    answer,
  };
}

/** The answer's records in zone-file form, RRSIGs apart. */
const answerLines = (response: DnsResponse) =>
  response.answers.filter((r) => r.type !== 'RRSIG').map(zoneLine);
