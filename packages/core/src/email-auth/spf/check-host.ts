/**
 * RFC 7208 `check_host()` (§4): record selection, mechanisms (§5), `redirect` and `exp` (§6),
 * macros (§7) and the limits of §4.6.4. Errors that end the whole check unwind as `SpfAbort`,
 * so a nested include's error becomes the result of the topmost check (§5.2, §5).
 * @module
 */

import type { z } from 'zod';
import { isNetdiagError } from '../../errors.js';
import type { DnsRecord, DnsResolver, MxValue, RecordType } from '../../net/dns-types.js';
import { type ParsedIp, reverseName } from '../../net/ip.js';
import { addressesOf, describeFailure, type LookupOptions, tryLookup, txtTexts } from '../dns.js';
import type { spfEvaluationSchema, spfTraceStepSchema } from '../schema.js';
import { answerMatches, inNetwork } from './cidr.js';
import {
  EXPLAIN_MACRO_LETTERS,
  expandTokens,
  isQueryableName,
  type MacroContext,
  parseMacroString,
  toTargetName,
} from './macro.js';
import {
  causesLookup,
  parseSpfRecord,
  type SpfMechanism,
  type SpfQualifier,
  selectSpfRecords,
} from './record.js';

/** The RFC 7208 §2.6 results. */
export type SpfResult = z.output<typeof spfEvaluationSchema>['result'];

/** §4.6.4: at most 10 terms that cause DNS lookups per check. */
export const SPF_LOOKUP_LIMIT = 10;
/** §4.6.4: "SPF implementations SHOULD limit void lookups to two." */
export const SPF_VOID_LOOKUP_LIMIT = 2;
/** §4.6.4: at most 10 MX names (permerror beyond) and 10 PTR names (the rest ignored). */
export const SPF_NAME_LIMIT = 10;

/** One step of the evaluation: a record fetched or a term evaluated. */
export type SpfTraceStep = z.output<typeof spfTraceStepSchema>;

/** Ends the whole check with permerror or temperror. */
export class SpfAbort extends Error {
  constructor(
    readonly result: 'permerror' | 'temperror',
    message: string,
  ) {
    super(message);
  }
}

export interface CheckHostState {
  resolver: DnsResolver;
  lookup: LookupOptions;
  ip: ParsedIp;
  sender: string;
  local: string;
  senderDomain: string;
  helo: string;
  receiver: string;
  now: () => number;
  voidLimit: number;
  lookups: number;
  voids: number;
  trace: SpfTraceStep[];
  /** Memo of the client's validated names (§5.5), for ptr and %{p}. */
  validated?: Promise<string[]>;
}

/** Outcome of one check_host() that did not abort. */
export interface HostOutcome {
  result: 'pass' | 'fail' | 'softfail' | 'neutral' | 'none';
  reason: string;
  matchedTerm?: string;
  matchedDomain?: string;
  /** The `exp=` of the record that produced the result (§6.2: only that record's). */
  exp?: { spec: string; domain: string };
}

const QUALIFIER_RESULT: Record<SpfQualifier, HostOutcome['result']> = {
  '+': 'pass',
  '-': 'fail',
  '~': 'softfail',
  '?': 'neutral',
};

export async function checkHost(
  state: CheckHostState,
  domain: string,
  depth: number,
): Promise<HostOutcome> {
  // §4.3: a malformed or single-label domain gives "none" at once.
  if (!isQueryableName(domain)) {
    const why = `"${domain}" is not a valid multi-label domain name (RFC 7208 §4.3)`;
    return none(state, depth, domain, why);
  }
  const answer = await tryLookup(state.resolver, domain, 'TXT', state.lookup);
  if (!answer.ok) {
    if (isNetdiagError(answer.error, 'INVALID_INPUT')) {
      return { result: 'none', reason: `"${domain}" cannot be queried (RFC 7208 §4.3)` };
    }
    // §4.4: a DNS error or timeout on the record lookup is a temperror.
    throw abort(state, depth, domain, '', 'temperror', describeFailure(domain, 'TXT', answer));
  }
  if (answer.rcode === 'NXDOMAIN') {
    return none(state, depth, domain, `${domain} does not exist (NXDOMAIN, RFC 7208 §4.3)`);
  }
  const records = selectSpfRecords(txtTexts(answer.records));
  if (records.length === 0) {
    return none(state, depth, domain, `${domain} publishes no SPF record (RFC 7208 §4.5)`);
  }
  if (records.length > 1) {
    const why = `${domain} publishes ${records.length} SPF records; exactly one is allowed (RFC 7208 §4.5)`;
    throw abort(state, depth, domain, '', 'permerror', why);
  }
  const text = records[0] as string;
  const record = parseSpfRecord(text);
  const syntax = record.errors[0];
  if (syntax) {
    // §4.6: any syntax error anywhere in the record is a permerror before evaluation.
    throw abort(state, depth, domain, syntax.term, 'permerror', syntax.message);
  }
  trace(state, depth, domain, text, 'record', 'SPF record found');

  for (const term of record.terms) {
    if (term.kind !== 'mechanism') continue;
    if (causesLookup(term)) countLookup(state, depth, domain, term.text);
    const { matched, detail } = await evaluateMechanism(state, term, domain, depth);
    trace(state, depth, domain, term.text, matched ? 'match' : 'no_match', detail);
    if (matched) {
      return {
        result: QUALIFIER_RESULT[term.qualifier],
        reason: `"${term.text}" in the record of ${domain} matched: ${detail}`,
        matchedTerm: term.text,
        matchedDomain: domain,
        ...(record.exp ? { exp: { spec: record.exp.value, domain } } : {}),
      };
    }
  }

  // §5.1: with an "all" mechanism anywhere, redirect is ignored; §6.1: otherwise it applies
  // after every mechanism failed to match.
  if (record.redirect && !record.hasAll) {
    const redirect = record.redirect;
    countLookup(state, depth, domain, redirect.text);
    const target = await targetName(state, redirect.value, domain);
    if (!isQueryableName(target)) {
      const why = `redirect target "${target}" is not a valid domain name (RFC 7208 §6.1)`;
      throw abort(state, depth, domain, redirect.text, 'permerror', why);
    }
    const detail = `no mechanism matched: the result is that of ${target}`;
    trace(state, depth, domain, redirect.text, 'match', detail);
    const nested = await checkHost(state, target, depth + 1);
    if (nested.result === 'none') {
      const why = `redirect target ${target} has no SPF record (RFC 7208 §6.1)`;
      throw abort(state, depth, domain, redirect.text, 'permerror', why);
    }
    return nested;
  }
  return {
    result: 'neutral',
    reason: `no mechanism in the record of ${domain} matched and there is no redirect: neutral (RFC 7208 §4.7)`,
  };
}

async function evaluateMechanism(
  state: CheckHostState,
  term: SpfMechanism,
  domain: string,
  depth: number,
): Promise<{ matched: boolean; detail: string }> {
  const ip = state.ip;
  const spec = term.domainSpec;
  const target = spec === undefined ? domain : await targetName(state, spec, domain);
  switch (term.name) {
    case 'all':
      return { matched: true, detail: '"all" always matches' };
    case 'ip4':
    case 'ip6': {
      const wanted = term.name === 'ip4' ? 4 : 6;
      if (ip.version !== wanted) {
        return { matched: false, detail: `the client is IPv${ip.version}` };
      }
      const prefix = (term.name === 'ip4' ? term.cidr4 : term.cidr6) ?? (wanted === 4 ? 32 : 128);
      const matched = inNetwork(ip, term.network as string, prefix);
      return {
        matched,
        detail: `${ip.address} is ${matched ? '' : 'not '}in ${term.network}/${prefix}`,
      };
    }
    case 'ptr': {
      state.validated ??= validatedNames(state);
      const names = await state.validated;
      const lower = target.toLowerCase();
      const hit = names.find((n) => n === lower || n.endsWith(`.${lower}`));
      return hit
        ? { matched: true, detail: `${ip.address} has the validated name ${hit}, within ${lower}` }
        : { matched: false, detail: `no validated name of ${ip.address} is within ${lower}` };
    }
    case 'include': {
      if (!isQueryableName(target)) {
        const why = `include target "${target}" is not a valid domain name (RFC 7208 §5.2)`;
        throw abort(state, depth, domain, term.text, 'permerror', why);
      }
      const nested = await checkHost(state, target, depth + 1);
      if (nested.result === 'none') {
        const why = `include target ${target} has no SPF record: permerror (RFC 7208 §5.2)`;
        throw abort(state, depth, domain, term.text, 'permerror', why);
      }
      // §5.2: only "pass" from the included check is a match.
      return nested.result === 'pass'
        ? { matched: true, detail: `${target} returned pass` }
        : { matched: false, detail: `${target} returned ${nested.result}` };
    }
  }
  // a, mx and exists.
  if (!isQueryableName(target)) {
    return { matched: false, detail: `"${target}" is not a valid domain name` };
  }
  if (term.name === 'exists') {
    // §5.7: the lookup type is A even for IPv6 clients.
    const records = await query(state, depth, domain, term.text, target, 'A', true);
    return records.length > 0
      ? { matched: true, detail: `${target} has an A record` }
      : { matched: false, detail: `${target} has no A record` };
  }
  const prefix = ip.version === 4 ? (term.cidr4 ?? 32) : (term.cidr6 ?? 128);
  const type: RecordType = ip.version === 4 ? 'A' : 'AAAA';
  if (term.name === 'a') {
    const records = await query(state, depth, domain, term.text, target, type, true);
    const addresses = records.map((r) => String(r.value));
    const hit = addresses.find((a) => answerMatches(ip, a, prefix));
    return hit
      ? { matched: true, detail: `${target} ${type} ${hit} covers ${ip.address}/${prefix}` }
      : {
          matched: false,
          detail: `${target} has ${addresses.length} ${type} record(s), none covering ${ip.address}`,
        };
  }
  const mx = await query(state, depth, domain, term.text, target, 'MX', true);
  // RFC 7505: a Null MX ("." exchange) names no host.
  const exchanges = mx
    .map((r) => (r.value as MxValue).exchange)
    .filter((e) => e !== '' && e !== '.');
  if (exchanges.length > SPF_NAME_LIMIT) {
    const why = `${target} has ${exchanges.length} MX hosts; "mx" may look up at most ${SPF_NAME_LIMIT} (RFC 7208 §4.6.4)`;
    throw abort(state, depth, domain, term.text, 'permerror', why);
  }
  for (const exchange of exchanges) {
    if (!isQueryableName(exchange)) continue;
    const records = await query(state, depth, domain, term.text, exchange, type, false);
    const hit = records.map((r) => String(r.value)).find((a) => answerMatches(ip, a, prefix));
    if (hit) {
      return {
        matched: true,
        detail: `MX host ${exchange} of ${target} has ${type} ${hit} covering ${ip.address}/${prefix}`,
      };
    }
  }
  return {
    matched: false,
    detail: `none of the ${exchanges.length} MX host(s) of ${target} covers ${ip.address}`,
  };
}

/** One query for a term; failures are temperror (§5), NXDOMAIN is an empty answer. */
async function query(
  state: CheckHostState,
  depth: number,
  domain: string,
  termText: string,
  name: string,
  type: RecordType,
  countVoid: boolean,
): Promise<DnsRecord[]> {
  const answer = await tryLookup(state.resolver, name, type, state.lookup);
  if (!answer.ok) {
    // A name the resolver refuses to send cannot exist (§4.3 by analogy; RFC 7208 §4.8).
    if (isNetdiagError(answer.error, 'INVALID_INPUT')) return [];
    throw abort(state, depth, domain, termText, 'temperror', describeFailure(name, type, answer));
  }
  if (countVoid && answer.records.length === 0) {
    state.voids += 1;
    if (state.voids > state.voidLimit) {
      const why = `"${termText}" is void lookup number ${state.voids} (${name} ${type}: ${answer.rcode === 'NXDOMAIN' ? 'NXDOMAIN' : 'no records'}); the limit is ${state.voidLimit} (RFC 7208 §4.6.4)`;
      throw abort(state, depth, domain, termText, 'permerror', why);
    }
  }
  return answer.records;
}

function countLookup(state: CheckHostState, depth: number, domain: string, termText: string) {
  state.lookups += 1;
  if (state.lookups > SPF_LOOKUP_LIMIT) {
    const why = `"${termText}" is DNS-lookup term number ${state.lookups}; the limit is ${SPF_LOOKUP_LIMIT} (RFC 7208 §4.6.4)`;
    throw abort(state, depth, domain, termText, 'permerror', why);
  }
}

/** A check that ends with "none": the record is missing or the domain cannot have one. */
function none(state: CheckHostState, depth: number, domain: string, reason: string): HostOutcome {
  trace(state, depth, domain, '', 'none', reason);
  return { result: 'none', reason };
}

function abort(
  state: CheckHostState,
  depth: number,
  domain: string,
  term: string,
  result: 'permerror' | 'temperror',
  message: string,
): SpfAbort {
  trace(state, depth, domain, term, result, message);
  return new SpfAbort(result, message);
}

function trace(
  state: CheckHostState,
  depth: number,
  domain: string,
  term: string,
  outcome: SpfTraceStep['outcome'],
  detail: string,
) {
  state.trace.push({ depth, domain, term, outcome, detail });
}

/** Expands a domain-spec for `domain` into a query name (§4.8, §7.3). */
async function targetName(state: CheckHostState, spec: string, domain: string): Promise<string> {
  const parsed = parseMacroString(spec);
  // The record parser already checked the syntax; this is unreachable for parsed records.
  if (!parsed.ok) throw new SpfAbort('permerror', parsed.error);
  return toTargetName(await expandTokens(parsed.tokens, macroContext(state, domain)));
}

function macroContext(state: CheckHostState, domain: string): MacroContext {
  const ip = state.ip;
  return {
    sender: state.sender,
    local: state.local,
    senderDomain: state.senderDomain,
    domain,
    ipDotted: ip.version === 4 ? ip.address : forwardNibbles(ip),
    ipText: ip.address,
    ipVersionLabel: ip.version === 4 ? 'in-addr' : 'ip6',
    helo: state.helo,
    receiver: state.receiver,
    timestamp: Math.floor(state.now() / 1000),
    validatedName: () => validatedNameFor(state, domain),
  };
}

/** The 32 nibbles of an IPv6 address, most significant first (§7.3 "dot-format"). */
function forwardNibbles(ip: ParsedIp): string {
  return reverseName(ip)
    .replace(/\.ip6\.arpa$/, '')
    .split('.')
    .reverse()
    .join('.');
}

/**
 * The validated names of the client (§5.5): PTR names (the first 10, §4.6.4) whose A/AAAA
 * records include its address; a failed lookup gives no name.
 */
async function validatedNames(state: CheckHostState): Promise<string[]> {
  const ptr = await tryLookup(state.resolver, reverseName(state.ip), 'PTR', state.lookup);
  if (!ptr.ok) return [];
  const names = ptr.records
    .map((r) => String(r.value).toLowerCase().replace(/\.$/, ''))
    .slice(0, SPF_NAME_LIMIT);
  const type: RecordType = state.ip.version === 4 ? 'A' : 'AAAA';
  const full = state.ip.version === 4 ? 32 : 128;
  const valid = await Promise.all(
    names.map(async (name) => {
      if (!isQueryableName(name)) return false;
      const found = await addressesOf(state.resolver, name, state.lookup, [type]);
      return found.ok && found.addresses.some((a) => answerMatches(state.ip, a, full));
    }),
  );
  return names.filter((_, i) => valid[i]);
}

/** %{p}: the domain itself, else a subdomain of it, else any validated name (§7.3). */
async function validatedNameFor(state: CheckHostState, domain: string): Promise<string> {
  state.validated ??= validatedNames(state);
  const names = await state.validated;
  const lower = domain.toLowerCase();
  return (
    names.find((n) => n === lower) ??
    names.find((n) => n.endsWith(`.${lower}`)) ??
    names[0] ??
    'unknown'
  );
}

/**
 * The explanation for a "fail" (§6.2): the `exp=` target's single TXT record, expanded with
 * `c`, `r` and `t` allowed. Any problem means "no explanation", never a different result.
 */
export async function explain(
  state: CheckHostState,
  exp: { spec: string; domain: string },
): Promise<string | null> {
  try {
    const target = await targetName(state, exp.spec, exp.domain);
    if (!isQueryableName(target)) return null;
    const answer = await tryLookup(state.resolver, target, 'TXT', state.lookup);
    if (!answer.ok || answer.records.length !== 1) return null;
    const text = txtTexts(answer.records)[0] as string;
    const parsed = parseMacroString(text, { letters: EXPLAIN_MACRO_LETTERS, allowSpace: true });
    if (!parsed.ok) return null;
    return await expandTokens(parsed.tokens, macroContext(state, exp.domain));
  } catch (error) {
    if (isNetdiagError(error, 'ABORTED')) throw error;
    return null;
  }
}
