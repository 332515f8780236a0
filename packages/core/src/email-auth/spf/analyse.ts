/**
 * Static analysis of a domain's SPF policy, without a client IP: every term of it and of what it
 * includes or redirects to, with DNS lookups (RFC 7208 §4.6.4: 10), void lookups (2), loops,
 * `ptr`, permissive `all`, record size (§3.4) and syntax errors.
 * One file: the walk's steps share one `Walk` state and recurse into each other (include, redirect).
 * @module
 */
import type { z } from 'zod';
import type { DnsResolver, MxValue, RecordType } from '../../net/dns-types.js';
import { classifyAddress } from '../../net/ranges.js';
import {
  addressesOf,
  describeFailure,
  type LookupOptions,
  mustLookup,
  type SectionRun,
  sectionAnalyser,
  tryLookup,
  txtTexts,
} from '../dns.js';
import type { spfRecordVisitSchema, spfSchema, spfTermSchema } from '../schema.js';
import {
  type AddFinding,
  type EmailAuthSectionOptions,
  type Finding,
  type FindingSeverity,
  findingList,
  passUnlessFlagged,
  statusOf,
} from '../types.js';
import { SPF_LOOKUP_LIMIT, SPF_NAME_LIMIT, SPF_VOID_LOOKUP_LIMIT } from './check-host.js';
import { expandTokens, isQueryableName, parseMacroString, toTargetName } from './macro.js';
import { parseTerm, type SpfMechanism, type SpfTerm, selectSpfRecords } from './record.js';

/**
 * §3.4: "…the sizes for replies to all queries related to SPF have to be evaluated to fit in a
 * single 512-octet UDP packet (i.e., DNS message size limited to 450 octets)."
 */
export const SPF_RECORD_SIZE_LIMIT = 450;
/** Records fetched at most while following includes (a guard against include bombs). */
export const SPF_ANALYSIS_MAX_RECORDS = 40;

/** One term analysed: its lookup cost, the running total and the verdict (RFC 7208 §4.6.4). */
export type SpfTermAnalysis = z.output<typeof spfTermSchema>;

/** The `spf` section as `analyseSpf` finds it; `checkEmailAuth` adds the `evaluation`. */
export type SpfAnalysis = Omit<z.output<typeof spfSchema>, 'evaluation'>;

interface Walk {
  resolver: DnsResolver;
  lookup: LookupOptions;
  lookups: number;
  voids: number;
  fetched: number;
  lookupLimitHit: boolean;
  voidLimitHit: boolean;
  terms: SpfTermAnalysis[];
  records: z.output<typeof spfRecordVisitSchema>[];
  findings: Finding[];
  flag: AddFinding;
  finalAll: string | null;
}

/** Analyses `domain`'s SPF policy. Throws only when the domain's own TXT lookup fails. */
export const analyseSpf = sectionAnalyser(spfSection);

async function spfSection(
  domain: string,
  options: SectionRun<EmailAuthSectionOptions>,
): Promise<SpfAnalysis> {
  const [findings, flag] = findingList();
  const walk: Walk = {
    resolver: options.resolver,
    lookup: options.lookup,
    lookups: 0,
    voids: 0,
    fetched: 1,
    lookupLimitHit: false,
    voidLimitHit: false,
    terms: [],
    records: [],
    findings,
    flag,
    finalAll: null,
  };
  const answer = await mustLookup(options.resolver, domain, 'TXT', options.lookup);
  const spfRecords = selectSpfRecords(txtTexts(answer.records));
  if (spfRecords.length === 0) {
    const why =
      answer.rcode === 'NXDOMAIN'
        ? `${domain} does not exist (NXDOMAIN)`
        : `${domain} publishes no TXT record starting with "v=spf1"`;
    walk.records.push({ domain, depth: 0, record: null, via: null });
    walk.flag(
      'fail',
      'spf_missing',
      `${why}: receivers get SPF "none" and cannot tell forged mail from real (RFC 7208 §4.5)`,
    );
  } else {
    if (spfRecords.length > 1) {
      walk.flag(
        'fail',
        'spf_multiple',
        `${domain} publishes ${spfRecords.length} SPF records; receivers return permerror (RFC 7208 §4.5): merge them into one`,
      );
    }
    await walkRecord(walk, domain, spfRecords[0] as string, 0, null, [domain], true);
  }
  passUnlessFlagged(
    walk.findings,
    'spf_ok',
    `one valid SPF record, ${walk.lookups} of ${SPF_LOOKUP_LIMIT} DNS lookups`,
  );
  return {
    record: spfRecords[0] ?? null,
    records_found: spfRecords.length,
    dns_lookup_limit: SPF_LOOKUP_LIMIT,
    void_lookup_limit: SPF_VOID_LOOKUP_LIMIT,
    status: statusOf(walk.findings),
    all: walk.finalAll,
    dns_lookups: walk.lookups,
    void_lookups: walk.voids,
    records: walk.records,
    terms: walk.terms,
    findings: walk.findings,
  };
}

/** Where a term sits: the walk, the domain whose record holds it, and that record's depth. */
interface At {
  walk: Walk;
  domain: string;
  depth: number;
}

async function walkRecord(
  walk: Walk,
  domain: string,
  record: string,
  depth: number,
  via: string | null,
  path: string[],
  top: boolean,
): Promise<void> {
  const at: At = { walk, domain, depth };
  walk.records.push({ domain, depth, record, via });
  if (record.length > SPF_RECORD_SIZE_LIMIT) {
    walk.flag(
      'warn',
      'spf_record_size',
      `the SPF record of ${domain} is ${record.length} characters; keep SPF answers under ${SPF_RECORD_SIZE_LIMIT} octets so they fit one UDP packet (RFC 7208 §3.4)`,
    );
  }
  const tokens = record.slice('v=spf1'.length).split(' ').filter(Boolean);
  const parsed = tokens.map((token) => ({ token, term: parseTerm(token) }));
  const hasAll = parsed.some(
    ({ term }) => !('message' in term) && term.kind === 'mechanism' && term.name === 'all',
  );
  let seenAll: string | null = null;
  let redirect: SpfTerm | undefined;
  const seenModifiers = new Set<string>();

  for (const { token, term } of parsed) {
    if ('message' in term) {
      note(at, { kind: 'invalid', text: token }, 'fail', term.message);
      walk.flag(
        'fail',
        'spf_syntax',
        `syntax error in the SPF record of ${domain}: ${term.message}; receivers return permerror (RFC 7208 §4.6)`,
      );
      continue;
    }
    if (term.kind === 'modifier') {
      if ((term.name === 'redirect' || term.name === 'exp') && seenModifiers.has(term.name)) {
        note(at, term, 'fail', `"${term.name}" may appear only once (RFC 7208 §6)`);
        walk.flag(
          'fail',
          'spf_syntax',
          `${domain}: "${term.name}" appears twice; receivers return permerror (RFC 7208 §6)`,
        );
        continue;
      }
      seenModifiers.add(term.name);
      if (term.name === 'redirect') {
        if (hasAll) {
          note(at, term, 'warn', 'ignored: the record has an "all" mechanism (RFC 7208 §5.1)');
          walk.flag(
            'warn',
            'spf_redirect_ignored',
            `${domain}: "${term.text}" is ignored because the record also has "all" (RFC 7208 §5.1)`,
          );
        } else {
          redirect = term;
        }
      } else if (term.name === 'exp') {
        const reason = `explanation text for "fail" results is published at ${term.value} (RFC 7208 §6.2)`;
        note(at, term, 'info', reason);
      } else {
        const reason = `unknown modifier "${term.name}": receivers ignore it (RFC 7208 §6); check for a typo`;
        note(at, term, 'warn', reason);
        walk.flag(
          'warn',
          'spf_unknown_modifier',
          `${domain}: unknown modifier "${term.text}" is ignored (RFC 7208 §6)`,
        );
      }
      continue;
    }
    if (seenAll !== null) {
      // Lookups after "all" are never made, so they do not count.
      note(at, term, 'warn', `never evaluated: it comes after "${seenAll}"`);
      walk.flag(
        'warn',
        'spf_after_all',
        `${domain}: "${term.text}" comes after "${seenAll}" and is never evaluated`,
      );
      continue;
    }
    await walkMechanism(at, term, path, top);
    if (term.name === 'all') seenAll = term.text;
  }

  if (redirect) {
    await walkInclude(at, redirect, path, 'redirect', top);
  } else if (seenAll === null && top) {
    walk.flag(
      'warn',
      'spf_no_all',
      `the SPF record of ${domain} ends without "all" or "redirect": unmatched senders get "neutral" (RFC 7208 §4.7); end it with "-all" or "~all"`,
    );
  }
  // The `all` that decides the final result is the one on the redirect chain from the top.
  if (top && seenAll !== null) walk.finalAll = seenAll.startsWith('+') ? seenAll.slice(1) : seenAll;
}

async function walkMechanism(
  at: At,
  term: SpfMechanism,
  path: string[],
  top: boolean,
): Promise<void> {
  switch (term.name) {
    case 'all':
      return walkAll(at, term, top);
    case 'ip4':
    case 'ip6':
      return walkNetwork(at, term);
    case 'include':
      return walkInclude(at, term, path, 'include', false);
    case 'ptr':
      at.walk.lookups += 1;
      note(
        at,
        term,
        'warn',
        '"ptr" is slow and unreliable and SHOULD NOT be used (RFC 7208 §5.5); list the addresses with ip4/ip6 instead',
        1,
      );
      at.walk.flag(
        'warn',
        'spf_ptr',
        `${at.domain}: "${term.text}" uses the deprecated ptr mechanism (RFC 7208 §5.5)`,
      );
      return flagLimits(at, term.text);
    case 'a':
    case 'mx':
    case 'exists':
      return walkHostLookup(at, term);
  }
}

function walkAll(at: At, term: SpfMechanism, top: boolean) {
  const { walk, domain } = at;
  if (term.qualifier === '+') {
    note(at, term, 'fail', '"+all" authorises every host on the internet to send as this domain');
    walk.flag(
      'fail',
      'spf_all_pass',
      `${domain}: "${term.text}" lets anyone send mail as this domain; use "-all" or "~all"`,
    );
  } else if (!top) {
    const reason = `ends the ${domain} policy; inside an include only a "pass" counts (RFC 7208 §5.2)`;
    note(at, term, 'info', reason);
  } else if (term.qualifier === '?') {
    note(at, term, 'warn', '"?all" (neutral) tells receivers nothing about other senders');
    walk.flag(
      'warn',
      'spf_all_neutral',
      `${domain}: "?all" gives unlisted senders "neutral", which protects nothing; use "-all" or "~all"`,
    );
  } else if (term.qualifier === '~') {
    const reason = '"~all": unlisted senders soft-fail (accepted but marked); "-all" is stricter';
    note(at, term, 'pass', reason);
    walk.flag(
      'info',
      'spf_all_softfail',
      `${domain}: "~all" soft-fails unlisted senders; "-all" rejects them outright once every sender is listed`,
    );
  } else {
    note(at, term, 'pass', '"-all": every unlisted sender fails');
  }
}

function walkNetwork(at: At, term: SpfMechanism) {
  const v4 = term.name === 'ip4';
  const prefix = (v4 ? term.cidr4 : term.cidr6) ?? (v4 ? 32 : 128);
  const network = term.network as string;
  const kind = classifyAddress(network);
  // Wider than an IPv4 /8 or an IPv6 /16: never a real sending fleet.
  const wide = v4 ? prefix < 8 : prefix < 16;
  if (wide && term.qualifier === '+') {
    note(at, term, 'fail', `/${prefix} authorises a huge share of the address space`);
    at.walk.flag(
      'fail',
      'spf_wide_network',
      `${at.domain}: "${term.text}" authorises far more addresses than any sender uses`,
    );
  } else if (!kind.public) {
    const range = kind.range?.name ?? 'a special-purpose range';
    note(at, term, 'warn', `${network} is not a public address (${range})`);
    at.walk.flag(
      'warn',
      'spf_private_network',
      `${at.domain}: "${term.text}" is not a public address (${range}); it never sends on the internet`,
    );
  } else {
    note(at, term, 'pass', `authorises ${network}/${prefix}; costs no DNS lookup`);
  }
}

/** include and redirect: one lookup plus everything the target's record costs. */
async function walkInclude(
  at: At,
  term: SpfTerm,
  path: string[],
  kind: 'include' | 'redirect',
  top: boolean,
): Promise<void> {
  const { walk, domain } = at;
  const spec = term.kind === 'modifier' ? term.value : (term.domainSpec as string);
  const lookupIndex = walk.terms.length;
  walk.lookups += 1;
  const before = walk.lookups;
  const target = await staticTarget(spec, domain);
  const rule = kind === 'include' ? 'RFC 7208 §5.2' : 'RFC 7208 §6.1';
  if (target === undefined) {
    note(at, term, 'info', perMessage(spec), 1);
    return flagLimits(at, term.text);
  }
  if (path.includes(target)) {
    const chain = [...path, target].join(' → ');
    note(at, term, 'fail', `loop: ${target} is already being evaluated (${chain})`, 1);
    walk.flag(
      'fail',
      'spf_loop',
      `${domain}: "${term.text}" loops back to ${target}; evaluation ends in permerror at the lookup limit`,
    );
    return flagLimits(at, term.text);
  }
  if (walk.fetched >= SPF_ANALYSIS_MAX_RECORDS) {
    const reason = `not followed: the analysis stops after ${SPF_ANALYSIS_MAX_RECORDS} records`;
    note(at, term, 'warn', reason, 1);
    return flagLimits(at, term.text);
  }
  walk.fetched += 1;
  const answer = await tryLookup(walk.resolver, target, 'TXT', walk.lookup);
  if (!answer.ok) {
    dnsError(at, term, describeFailure(target, 'TXT', answer));
    return flagLimits(at, term.text);
  }
  const records = selectSpfRecords(txtTexts(answer.records));
  const isVoid = answer.records.length === 0;
  if (isVoid) walk.voids += 1;
  if (records.length !== 1) {
    const why =
      records.length === 0
        ? `${target} ${answer.rcode === 'NXDOMAIN' ? 'does not exist' : 'has no SPF record'}`
        : `${target} has ${records.length} SPF records`;
    note(at, term, 'fail', `${why}: receivers return permerror (${rule})`, 1, isVoid);
    walk.flag('fail', 'spf_include_invalid', `${domain}: "${term.text}": ${why} (${rule})`);
    return flagLimits(at, term.text);
  }
  // Reserve the term's place before its target's terms, then fill in the totals.
  const verb = kind === 'include' ? 'includes' : 'hands over to';
  note(at, term, 'pass', `${verb} the policy of ${target}`, 1);
  const entry = walk.terms[lookupIndex] as SpfTermAnalysis;
  flagLimits(at, term.text, entry);
  await walkRecord(
    walk,
    target,
    records[0] as string,
    at.depth + 1,
    `${kind}:${target}`,
    [...path, target],
    kind === 'redirect' && top,
  );
  entry.dns_lookups = 1 + (walk.lookups - before);
}

/** a, mx, exists: one lookup, checked for void answers (and MX host count/addresses). */
async function walkHostLookup(at: At, term: SpfMechanism) {
  const { walk, domain } = at;
  walk.lookups += 1;
  const spec = term.domainSpec;
  const target = spec === undefined ? domain : await staticTarget(spec, domain);
  if (target === undefined) {
    note(at, term, 'info', perMessage(spec as string), 1);
  } else if (!isQueryableName(target)) {
    note(at, term, 'warn', `"${target}" is not a valid domain name: it never matches`, 1);
  } else if (term.name === 'mx') {
    await walkMx(at, term, target);
  } else {
    const found = await hasAddress(walk, target, term.name === 'a' ? ['A', 'AAAA'] : ['A']);
    const what = term.name === 'a' ? 'A/AAAA' : 'A';
    if (found === undefined) {
      const reason = `the address lookup of ${target} failed: receivers would return temperror`;
      note(at, term, 'fail', reason, 1);
      walk.flag(
        'fail',
        'spf_dns_error',
        `${domain}: "${term.text}": the lookup of ${target} failed`,
      );
    } else if (!found) {
      voidLookup(at, term, `has no ${what} record`, `finds no ${what} record at ${target}`, target);
    } else {
      const reason =
        term.name === 'a' ? `authorises the addresses of ${target}` : `${target} exists`;
      note(at, term, 'pass', reason, 1);
    }
  }
  flagLimits(at, term.text);
}

async function walkMx(at: At, term: SpfMechanism, target: string) {
  const { walk, domain } = at;
  const mx = await tryLookup(walk.resolver, target, 'MX', walk.lookup);
  if (!mx.ok) return dnsError(at, term, describeFailure(target, 'MX', mx));
  const hosts = mx.records
    .map((r) => (r.value as MxValue).exchange)
    .filter((e) => e !== '' && e !== '.');
  if (hosts.length === 0) {
    return voidLookup(at, term, 'has no MX hosts', `finds no MX hosts at ${target}`, target);
  }
  if (hosts.length > SPF_NAME_LIMIT) {
    note(
      at,
      term,
      'fail',
      `${target} has ${hosts.length} MX hosts; "mx" may look up at most ${SPF_NAME_LIMIT}: receivers return permerror (RFC 7208 §4.6.4)`,
      1,
    );
    walk.flag(
      'fail',
      'spf_mx_limit',
      `${domain}: "${term.text}": ${hosts.length} MX hosts, over the limit of ${SPF_NAME_LIMIT} (RFC 7208 §4.6.4)`,
    );
    return;
  }
  const found = await Promise.all(hosts.map((host) => hasAddress(walk, host)));
  const missing = hosts.filter((_, i) => !found[i]);
  if (missing.length > 0) {
    const list = missing.join(', ');
    note(at, term, 'warn', `MX host(s) without an address: ${list}`, 1);
    walk.flag(
      'warn',
      'spf_host_without_address',
      `${domain}: "${term.text}": MX host(s) ${list} have no A/AAAA record`,
    );
  } else {
    note(at, term, 'pass', `authorises the ${hosts.length} MX host(s) of ${target}`, 1);
  }
}

/** A lookup that failed: receivers would return temperror. */
function dnsError(at: At, term: SpfTerm, failure: string) {
  note(at, term, 'fail', `${failure}: receivers would return temperror`, 1);
  at.walk.flag('fail', 'spf_dns_error', `${at.domain}: "${term.text}": ${failure}`);
}

/** An answer with nothing in it: counted against the void limit (RFC 7208 §4.6.4). */
function voidLookup(at: At, term: SpfTerm, what: string, finds: string, target: string) {
  at.walk.voids += 1;
  const reason = `${target} ${what}: a void lookup that never matches (RFC 7208 §4.6.4)`;
  note(at, term, 'warn', reason, 1, true);
  at.walk.flag('warn', 'spf_void_lookup', `${at.domain}: "${term.text}" ${finds} (void lookup)`);
}

function perMessage(spec: string) {
  return `the target "${spec}" depends on the sender or client and is evaluated per message`;
}

/** true / false, or undefined when the lookups failed. */
async function hasAddress(walk: Walk, host: string, types?: RecordType[]) {
  if (!isQueryableName(host)) return false;
  const found = await addressesOf(walk.resolver, host, walk.lookup, types);
  return found.ok ? found.addresses.length > 0 : undefined;
}

/** The target of a domain-spec without macros or with only `%{d}`/`%{o}`; else `undefined`. */
async function staticTarget(spec: string, domain: string): Promise<string | undefined> {
  const parsed = parseMacroString(spec);
  if (!parsed.ok) return undefined;
  if (parsed.tokens.some((t) => t.kind === 'macro' && t.letter !== 'd' && t.letter !== 'o')) {
    return undefined;
  }
  const expanded = await expandTokens(parsed.tokens, {
    sender: `postmaster@${domain}`,
    local: 'postmaster',
    senderDomain: domain,
    domain,
    ipDotted: '',
    ipText: '',
    ipVersionLabel: 'in-addr',
    helo: domain,
    receiver: 'unknown',
    timestamp: 0,
    validatedName: async () => 'unknown',
  });
  return toTargetName(expanded).toLowerCase();
}

/** Marks the term at which a §4.6.4 limit is first exceeded: receivers stop there, permerror. */
function flagLimits(at: At, text: string, entry = at.walk.terms.at(-1)) {
  const { walk, domain } = at;
  if (!entry) return;
  entry.cumulative_lookups = walk.lookups;
  if (!walk.lookupLimitHit && walk.lookups > SPF_LOOKUP_LIMIT) {
    walk.lookupLimitHit = true;
    entry.status = 'fail';
    entry.reason = `DNS lookup number ${walk.lookups}: over the limit of ${SPF_LOOKUP_LIMIT}, receivers stop here with permerror (RFC 7208 §4.6.4)`;
    walk.flag(
      'fail',
      'spf_lookup_limit',
      `"${text}" in the record of ${domain} makes DNS lookup number ${walk.lookups}; the limit is ${SPF_LOOKUP_LIMIT} (RFC 7208 §4.6.4): receivers return permerror`,
    );
  }
  if (!walk.voidLimitHit && walk.voids > SPF_VOID_LOOKUP_LIMIT) {
    walk.voidLimitHit = true;
    entry.status = 'fail';
    entry.reason = `void lookup number ${walk.voids}: over the limit of ${SPF_VOID_LOOKUP_LIMIT}, receivers return permerror (RFC 7208 §4.6.4)`;
    walk.flag(
      'fail',
      'spf_void_limit',
      `"${text}" in the record of ${domain} is void lookup number ${walk.voids}; the limit is ${SPF_VOID_LOOKUP_LIMIT} (RFC 7208 §4.6.4)`,
    );
  }
}

/** Records one term's verdict in `walk.terms`. */
function note(
  { walk, domain, depth }: At,
  term: SpfTerm | { kind: 'invalid'; text: string },
  status: FindingSeverity,
  reason: string,
  lookups = 0,
  isVoid = false,
) {
  const value =
    term.kind === 'modifier'
      ? term.value
      : term.kind === 'mechanism'
        ? (term.domainSpec ?? term.network ?? null)
        : null;
  walk.terms.push({
    domain,
    depth,
    term: term.text,
    kind: term.kind,
    qualifier: term.kind === 'mechanism' ? term.qualifier : null,
    name: term.kind === 'invalid' ? '' : term.name,
    value,
    status,
    reason,
    dns_lookups: lookups,
    cumulative_lookups: walk.lookups,
    void_lookup: isVoid,
  });
}
