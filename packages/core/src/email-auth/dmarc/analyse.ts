/**
 * DMARC policy discovery: `_dmarc.<domain>`, else the organisational domain's (RFC 7489 §6.6.3,
 * by the Public Suffix List via tldts), and the external report destination check of §7.1.
 * @module
 */
import type { z } from 'zod';
import type { DnsResolver } from '../../net/dns-types.js';
import { registrableDomain } from '../../net/domain.js';
import {
  describeFailure,
  type LookupOptions,
  type SectionRun,
  sectionAnalyser,
  tryLookup,
  txtTexts,
} from '../dns.js';
import type { dmarcReportDestinationSchema, dmarcSchema } from '../schema.js';
import {
  type AddFinding,
  type EmailAuthSectionOptions,
  finding,
  findingList,
  statusOf,
} from '../types.js';
import {
  type DmarcEffectivePolicy,
  type DmarcPolicy,
  type DmarcTags,
  effectivePolicy,
  isDmarcRecord,
  parseDmarcRecord,
  parseDmarcUri,
  startsWithWhitespace,
} from './parse.js';

/** External report domains checked at most (each costs one TXT query). */
export const DMARC_MAX_EXTERNAL_CHECKS = 10;

/** The `dmarc` section: the record that applies (own or inherited), its tags and policy. */
export type DmarcAnalysis = z.output<typeof dmarcSchema>;

/** Finds and analyses the DMARC policy of `domain`. DNS failures become findings. */
export const analyseDmarc = sectionAnalyser(dmarcSection);

async function dmarcSection(
  domain: string,
  options: SectionRun<EmailAuthSectionOptions>,
): Promise<DmarcAnalysis> {
  const { lookup } = options;
  const organizational = registrableDomain(domain) ?? null;
  const empty: DmarcAnalysis = {
    status: 'fail',
    record: null,
    record_name: null,
    source: null,
    organizational_domain: organizational,
    records_found: 0,
    tags: {},
    policy: null,
    applied_policy: null,
    rua: [],
    ruf: [],
    errors: [],
    unknown_tags: [],
    findings: [],
  };

  let found = await fetchDmarc(options.resolver, `_dmarc.${domain}`, lookup);
  let source: DmarcAnalysis['source'] = 'domain';
  // §6.6.3 step 3: no record for the domain itself → the organisational domain's.
  const parent = organizational !== domain ? organizational : null;
  if (found.kind === 'ok' && found.records.length === 0 && parent) {
    const fallback = await fetchDmarc(options.resolver, `_dmarc.${parent}`, lookup);
    if (fallback.kind === 'error' || fallback.records.length > 0 || fallback.others.length > 0) {
      found = fallback;
      source = 'organizational_domain';
    }
  }
  if (found.kind === 'error') {
    return { ...empty, findings: [finding('fail', 'dmarc_dns_error', found.message)] };
  }
  // " v=DMARC1; …": discarded (§6.6.3), but plainly meant as the policy, so named as such.
  const spaced = found.others.find(startsWithWhitespace);
  const spacedMessage = `${found.name} holds "${spaced?.slice(0, 60)}", which starts with whitespace: receivers discard a record that does not begin with "v=DMARC1" (RFC 7489 §6.6.3); remove the leading whitespace`;
  if (found.records.length === 0) {
    if (spaced !== undefined) {
      return {
        ...empty,
        record_name: found.name,
        findings: [
          finding('fail', 'dmarc_leading_whitespace', `${spacedMessage}: no policy applies`),
        ],
      };
    }
    const other = found.others[0];
    const message = other
      ? `${found.name} holds TXT "${other.slice(0, 60)}", which is not a DMARC record: ${parseDmarcRecord(other).errors[0]?.message ?? ''}`
      : `no DMARC record at _dmarc.${domain}${parent ? ` nor at _dmarc.${parent}` : ''}: receivers apply no policy to forged mail (RFC 7489 §6.6.3)`;
    return {
      ...empty,
      record_name: other ? found.name : null,
      findings: [finding('fail', other ? 'dmarc_invalid' : 'dmarc_missing', message)],
    };
  }
  const [findings, add] = findingList();
  if (spaced !== undefined) {
    add('warn', 'dmarc_leading_whitespace', `${spacedMessage}; the other record applies`);
  }
  if (found.records.length > 1) {
    add(
      'fail',
      'dmarc_multiple',
      `${found.name} holds ${found.records.length} DMARC records; with more than one, receivers apply no DMARC at all (RFC 7489 §6.6.3)`,
    );
  }
  const record = found.records[0] as string;
  const parsed = parseDmarcRecord(record);
  const policyDomain = found.name.replace(/^_dmarc\./, '');
  const policy = effectivePolicy(parsed.tags);
  const applied = source === 'domain' ? policy.p : policy.sp;
  const orgOfPolicy = registrableDomain(policyDomain) ?? policyDomain;
  const [rua, ruf] = await Promise.all([
    destinations(options.resolver, parsed.tags.rua, policyDomain, orgOfPolicy, lookup),
    destinations(options.resolver, parsed.tags.ruf, policyDomain, orgOfPolicy, lookup),
  ]);

  policyFindings(add, domain, source, parsed.tags, policy, applied);
  for (const error of parsed.errors) {
    add('warn', 'dmarc_syntax', `${found.name}: ${error.message}; the tag is ignored`);
  }
  for (const tag of parsed.unknown_tags) {
    add(
      'warn',
      'dmarc_unknown_tag',
      `${found.name}: unknown tag "${tag}" is ignored (RFC 7489 §6.3); check for a typo`,
    );
  }
  for (const dest of [...rua, ...ruf]) {
    if (dest.external && dest.authorized === false) {
      add(
        'warn',
        'dmarc_external_unauthorized',
        `report destination ${dest.uri} is outside ${orgOfPolicy} and ${policyDomain}._report._dmarc.${dest.domain} does not authorise it: receivers will not send these reports (RFC 7489 §7.1)`,
      );
    }
  }
  if (!findings.some((f) => f.severity === 'warn' || f.severity === 'fail')) {
    add('pass', 'dmarc_ok', `DMARC policy "${applied}" with aggregate reports`);
  }
  return {
    status: statusOf(findings),
    record,
    record_name: found.name,
    source,
    organizational_domain: organizational,
    records_found: found.records.length,
    tags: parsed.tags,
    policy,
    applied_policy: applied,
    rua,
    ruf,
    errors: parsed.errors,
    unknown_tags: parsed.unknown_tags,
    findings,
  };
}

function policyFindings(
  add: AddFinding,
  domain: string,
  source: DmarcAnalysis['source'],
  tags: DmarcTags,
  policy: DmarcEffectivePolicy,
  applied: DmarcPolicy,
): void {
  if (source === 'organizational_domain') {
    add(
      'info',
      'dmarc_inherited',
      `${domain} has no record of its own; the organisational domain's applies, with its subdomain policy sp=${policy.sp} (RFC 7489 §6.6.3)`,
    );
  }
  if (tags.p === undefined) {
    add(
      'warn',
      'dmarc_no_policy',
      'the record has no valid p= tag: RFC 7489 receivers treat it as p=none only when rua is valid (§6.6.3), DMARCbis as p=none',
    );
  }
  if (applied === 'none') {
    add(
      'warn',
      'dmarc_policy_none',
      'the policy is "none": forged mail is only reported, never quarantined or rejected; move to quarantine, then reject',
    );
  } else {
    add('pass', 'dmarc_enforced', `the policy is "${applied}": receivers act on forged mail`);
  }
  if (source === 'domain' && policy.p !== 'none' && policy.sp === 'none') {
    add(
      'warn',
      'dmarc_subdomain_none',
      'sp=none leaves subdomains unprotected although the domain enforces',
    );
  }
  if (tags.pct !== undefined) {
    if (tags.pct < 100) {
      add(
        'warn',
        'dmarc_pct',
        `pct=${tags.pct}: the policy applies to only ${tags.pct}% of failing mail (RFC 7489 §6.3)`,
      );
    }
    add(
      'info',
      'dmarc_removed_tag',
      'pct is removed in DMARCbis (RFC 9989); use t=y for testing instead',
    );
  }
  for (const tag of ['rf', 'ri'] as const) {
    if (tags[tag] !== undefined) {
      add(
        'info',
        'dmarc_removed_tag',
        `${tag} is removed in DMARCbis (RFC 9989) and ignored by its receivers`,
      );
    }
  }
  if (tags.t === 'y') {
    add(
      'warn',
      'dmarc_testing',
      't=y: testing mode, receivers apply a policy one step weaker (DMARCbis, RFC 9989)',
    );
  }
  if (!tags.rua?.length) {
    add(
      'warn',
      'dmarc_no_rua',
      'no rua= address: the domain receives no aggregate reports and cannot see who sends as it',
    );
  }
  if (tags.ruf?.length) {
    add(
      'info',
      'dmarc_ruf',
      'ruf= is set; few receivers send failure reports, for privacy reasons',
    );
  }
}

type Fetched =
  | { kind: 'ok'; name: string; records: string[]; others: string[] }
  | { kind: 'error'; message: string };

async function fetchDmarc(
  resolver: DnsResolver,
  name: string,
  lookup: LookupOptions,
): Promise<Fetched> {
  const answer = await tryLookup(resolver, name, 'TXT', lookup);
  if (!answer.ok)
    return {
      kind: 'error',
      message: `${describeFailure(name, 'TXT', answer)}: the DMARC policy is unknown`,
    };
  const texts = txtTexts(answer.records);
  return {
    kind: 'ok',
    name,
    // The parser's own version test, so that every record picked here parses as valid.
    records: texts.filter(isDmarcRecord),
    others: texts.filter((t) => !isDmarcRecord(t)),
  };
}

async function destinations(
  resolver: DnsResolver,
  uris: string[] | undefined,
  policyDomain: string,
  orgOfPolicy: string,
  lookup: LookupOptions,
): Promise<z.output<typeof dmarcReportDestinationSchema>[]> {
  const list = (uris ?? []).map((text) => {
    const parsed = parseDmarcUri(text);
    const uri = 'uri' in parsed ? parsed.uri : text;
    const mail = /^mailto:[^@]+@([^?]+)/i.exec(uri);
    const domain = mail ? (mail[1] as string).toLowerCase().replace(/\.$/, '') : null;
    const external = domain !== null && (registrableDomain(domain) ?? domain) !== orgOfPolicy;
    return {
      uri,
      size: 'size' in parsed ? (parsed.size ?? null) : null,
      unit: 'unit' in parsed ? (parsed.unit ?? null) : null,
      domain,
      external,
      authorized: null as boolean | null,
    };
  });
  const externalDomains = [
    ...new Set(list.filter((d) => d.external).map((d) => d.domain as string)),
  ];
  const verdicts = new Map<string, boolean | null>();
  await Promise.all(
    externalDomains.slice(0, DMARC_MAX_EXTERNAL_CHECKS).map(async (dest) => {
      // RFC 7489 §7.1: <policy-domain>._report._dmarc.<destination-domain> TXT "v=DMARC1".
      const name = `${policyDomain}._report._dmarc.${dest}`;
      const answer = await tryLookup(resolver, name, 'TXT', lookup);
      verdicts.set(dest, answer.ok ? txtTexts(answer.records).some(isDmarcRecord) : null);
    }),
  );
  return list.map((d) =>
    d.external ? { ...d, authorized: verdicts.get(d.domain as string) ?? null } : d,
  );
}
