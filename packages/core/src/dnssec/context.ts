/**
 * What the validation steps share: the resolver asked with DO and CD (RFC 4035 §3.2.1, §3.2.2:
 * the data even when an upstream validator thinks it bogus), the clock, the budget, the errors.
 * @module
 */
import type { DnsRecord, DnsResolver, DnsResponse, RecordType } from '../net/dns-types.js';
import { displayName, plainName } from './canonical.js';
import type { DnssecFailure, SignatureCheck, SignatureOutcome } from './types.js';

export interface WalkContext {
  resolver: DnsResolver;
  /** The caller's signal and the time budget: checked between signature verifications too. */
  signal: AbortSignal;
  /** Validation time, seconds since the epoch. */
  now: number;
  /** What the validation has spent so far, shared by every step and CNAME hop. */
  spent: { queries: number; signatures: number };
  /** The question budget (`maxQueries`) and the signature budget that goes with it. */
  maxQueries: number;
  maxSignatures: number;
}

export async function ask(ctx: WalkContext, name: string, type: RecordType): Promise<DnsResponse> {
  if (ctx.spent.queries >= ctx.maxQueries) {
    throw new LimitReached(
      `the validation asked the ${ctx.maxQueries} DNS questions its budget allows (maxQueries) before it could ask for ${displayName(name)} ${type}, so nothing was proven either way`,
    );
  }
  ctx.spent.queries += 1;
  return ctx.resolver.query(name === '' ? '.' : name, type, {
    signal: ctx.signal,
    timeout: false,
    dnssecOk: true,
    checkingDisabled: true,
  });
}

/** Throws `UnavailableLink` unless the resolver answered NOERROR or NXDOMAIN. */
export function assertUsable(response: DnsResponse, name: string, type: string): void {
  if (response.rcode === 'NOERROR' || response.rcode === 'NXDOMAIN') return;
  throw new UnavailableLink(
    `the resolver answered ${response.rcode} for ${displayName(name)} ${type}, so the chain cannot be checked`,
  );
}

/**
 * The data for a link could not be had (the resolver answered SERVFAIL, REFUSED, …): the walk
 * stops with an `indeterminate` verdict — nothing was proven either way.
 */
export class UnavailableLink extends Error {}

/**
 * A limit of limits.ts stopped the validation (a KeyTrap-shaped zone, a chain too long for the
 * question budget): `indeterminate` too, the limit named in the message.
 */
export class LimitReached extends UnavailableLink {}

/** A link of the chain does not verify: the walk stops with a `bogus` verdict. */
export class BogusLink extends Error {
  constructor(readonly failure: DnssecFailure) {
    super(failure.rule);
  }
}

/**
 * Whether a record's rdata could be read for its type: a malformed DNSSEC record arrives as a
 * hex string (the RFC 3597 fallback of resolver-records.ts) and is ignored, as if absent.
 */
export const wellFormed = (record: DnsRecord) =>
  typeof record.value === 'object' && record.value !== null && record.rdata !== undefined;

/** The records of one RRset in a section. */
export function rrset(records: readonly DnsRecord[], owner: string, type: string): DnsRecord[] {
  const name = plainName(owner);
  return records.filter(
    (r) =>
      r.type === type && plainName(r.name) === name && (!VALUE_TYPES.has(type) || wellFormed(r)),
  );
}

/** Types whose value the validator reads (the others it only needs as rdata). */
const VALUE_TYPES = new Set(['DS', 'DNSKEY', 'RRSIG', 'NSEC', 'NSEC3']);

export const rrsigs = (records: readonly DnsRecord[]) =>
  records.filter((r) => r.type === 'RRSIG' && wellFormed(r));

/** A record in zone-file form, for people. */
export function zoneLine(record: DnsRecord): string {
  return `${displayName(record.name)} ${record.ttl} IN ${record.type} ${record.data}`;
}

/** The rule broken when no RRSIG validated an RRset, from how the signatures failed. */
export function signatureRule(checks: readonly SignatureCheck[], what: string): string {
  if (checks.length === 0) return `RFC 4035 §5.3: ${what} has no RRSIG`;
  const rule = RULES.find(([outcome]) => checks.some((c) => c.outcome === outcome))?.[1];
  const text = rule ?? '§5.3.1: the RRSIGs over # have a wrong Labels field';
  return `RFC 4035 ${text.replace('#', () => what)}`;
}

/** Most telling first; `#` stands for the RRset, each rule is of RFC 4035. */
const RULES: [SignatureOutcome, string][] = [
  ['bad-signature', '§5.3.3: the RRSIG over # does not verify with the key it names'],
  ['expired', '§5.3.1: every RRSIG over # has expired'],
  ['not-yet-valid', '§5.3.1: no RRSIG over # is valid yet (inception in the future)'],
  [
    'no-matching-key',
    '§5.3.1: no authenticated DNSKEY matches the key tag and algorithm of the RRSIGs over #',
  ],
  ['wrong-signer', '§5.3.1: the RRSIGs over # name another zone as signer'],
  ['unsupported-algorithm', '§5.2: the RRSIGs over # use only unsupported algorithms'],
];
