/**
 * `GET /api/email-auth` (a tool endpoint, CONTRACT §6: the shape is ours): MX, SPF with a
 * per-term analysis and the RFC 7208 evaluation, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI and a graded
 * summary, described field by field.
 * @module
 */
import { z } from 'zod';
import { domainInput, ipAddressInput } from '../schemas/common.js';
import { parameters } from '../schemas/param.js';
import { MAX_REQUESTED_SELECTORS } from './dkim/analyse.js';
import { EMAIL_AUTH_GRADES, EMAIL_AUTH_SECTIONS, GRADE_RULE } from './summary.js';

// --- Parameters ---

/** `parseSelectors`: DNS labels joined by dots (at most 3 labels keeps one within 200 characters). */
const SELECTOR =
  '[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?){0,2}';

/** `<>` or anything with an "@" (RFC 7208 §2.4); the server trims it. */
const senderInput = z
  .string()
  .max(1024)
  .regex(/^(?:<>|\S*@\S*)$/);
const heloInput = z.string().max(1024);

// `sender` and `helo` need `ip` (a 400 otherwise); OpenAPI parameters cannot say so, the
// descriptions and the zod refinement at the end do.
export const checkEmailAuthParamsSchema = parameters({
  domain: domainInput().describe('Domain to check (IDNs accepted, converted to punycode)'),
  ip: ipAddressInput.optional().describe('SMTP client address to evaluate SPF for (IPv4 or IPv6)'),
  sender: senderInput
    .optional()
    .describe(
      'MAIL FROM address for the evaluation (needs ip); "<>" is the null sender; default postmaster@<domain>',
    ),
  helo: heloInput
    .optional()
    .describe('HELO/EHLO name for the evaluation (needs ip); default the domain'),
  dkim_selector: z
    .string()
    .max(1024)
    .regex(new RegExp(`^${SELECTOR}(?:,${SELECTOR}){0,${MAX_REQUESTED_SELECTORS - 1}}$`))
    .optional()
    .describe('DKIM selectors to try first, comma-separated (at most 10)'),
}).refine((p) => p.ip !== undefined || (p.sender === undefined && p.helo === undefined), {
  message: '"sender" and "helo" are used only with "ip"',
  path: ['ip'],
});
export type CheckEmailAuthParams = z.input<typeof checkEmailAuthParamsSchema>;

// --- Data ---

const text = (description: string) => z.string().describe(description);
const nullableText = (description: string) => z.string().nullable().describe(description);
const texts = (description: string) => z.array(z.string()).describe(description);
const flag = (description: string) => z.boolean().describe(description);
const int = (description: string) => z.int().describe(description);
const verdict = (description: string) => z.enum(['pass', 'warn', 'fail']).describe(description);
const list = <T extends z.ZodType>(item: T, description: string) =>
  z.array(item).describe(description);
const SEVERITIES = ['pass', 'info', 'warn', 'fail'] as const;
const severity = (description: string) => z.enum(SEVERITIES).describe(description);
/** Outcome of one section; `none`: an optional mechanism that is not published at all. */
export const sectionStatusSchema = z
  .enum(['pass', 'warn', 'fail', 'none'])
  .describe(
    'pass: as recommended; warn: works but weaker than recommended; fail: broken or missing where required; none: an optional mechanism that is not published',
  );
/** One check of a section: how it came out, a stable code and a sentence naming the rule. */
export const findingSchema = z.strictObject({
  severity: severity('pass, info, warn or fail'),
  code: text('Stable identifier of the check, e.g. spf_lookup_limit'),
  message: text('What was found, naming the term/value and the rule (RFC section)'),
});
const findings = list(findingSchema, 'What the section found, worst first within each check');

/** One MX record, its host's addresses and the verdict on it. */
export const mxHostSchema = z.strictObject({
  preference: int('MX preference (lower is tried first)'),
  exchange: text('Mail host, without the trailing dot; "" for a Null MX'),
  addresses: texts('A and AAAA addresses of the host'),
  cname: nullableText('Canonical name when the host is an alias (not allowed, RFC 2181 §10.3)'),
  status: severity('Verdict on this host'),
  reason: text('Why'),
});

/** The `mx` section of `GET /api/email-auth`. */
export const mxSchema = z
  .strictObject({
    // Never none: without MX records the domain's own address is the implicit MX.
    status: verdict(
      'Verdict on the MX records: pass as recommended, warn works but weaker than recommended, fail broken (never none: without MX records the implicit MX is judged)',
    ),
    records: list(mxHostSchema, 'MX records by preference'),
    null_mx: flag('The domain publishes a Null MX (RFC 7505): it accepts no mail'),
    implicit_mx: flag("No MX: mail goes to the domain's own A/AAAA (RFC 5321 §5.1)"),
    implicit_addresses: texts('The addresses used as the implicit MX'),
    findings,
  })
  .describe('MX records and their hosts');

/** One step of an SPF evaluation: a record fetched or a term evaluated. */
export const spfTraceStepSchema = z.strictObject({
  depth: int('Include/redirect depth, 0 for the checked domain'),
  domain: text('Whose record'),
  term: text('The term, or the record text for a "record" step'),
  outcome: z
    .enum(['record', 'match', 'no_match', 'none', 'permerror', 'temperror'])
    .describe('What happened at this step'),
  detail: text('Human detail'),
});

/** One RFC 7208 check_host() evaluation (`engine.evaluateSpf`, the `evaluate_spf` MCP tool). */
export const spfEvaluationSchema = z
  .strictObject({
    result: z
      .enum(['pass', 'fail', 'softfail', 'neutral', 'none', 'permerror', 'temperror'])
      .describe('The RFC 7208 result'),
    reason: text('Why: the deciding term, the limit exceeded or the failed lookup'),
    explanation: nullableText('The exp= explanation (only for fail, only when published)'),
    ip: text('Client address evaluated (IPv4-mapped IPv6 shown as IPv4)'),
    domain: text('Domain whose policy was evaluated'),
    sender: text('MAIL FROM identity used (postmaster@<helo> for the null sender "<>")'),
    helo: text('HELO/EHLO name used for %{h}'),
    matched_term: nullableText('The term of the checked domain that decided the result'),
    matched_domain: nullableText('Whose record holds matched_term'),
    dns_lookups: int('Terms that caused DNS lookups (limit 10)'),
    void_lookups: int('Lookups answered with NXDOMAIN or no records (limit 2)'),
    trace: list(spfTraceStepSchema, 'Every record fetched and term evaluated, in order'),
  })
  .describe(
    'RFC 7208 check_host() for ip/sender/helo. Limits: 10 lookup terms, 10 MX/PTR names, 2 void lookups, 15 s',
  );
export type SpfEvaluationData = z.infer<typeof spfEvaluationSchema>;

const evaluationSchema = spfEvaluationSchema
  .nullable()
  .describe(
    'RFC 7208 check_host() for ip/sender/helo; null when ip is not given. Limits: 10 lookup terms, 10 MX/PTR names, 2 void lookups, 15 s',
  );

/** Input of one SPF evaluation: the `check_email_auth` parameters that matter, `ip` required. */
export const evaluateSpfParamsSchema = parameters({
  domain: domainInput().describe('Domain whose SPF policy is evaluated (the MAIL FROM domain)'),
  ip: ipAddressInput.describe('SMTP client address (IPv4 or IPv6)'),
  sender: senderInput
    .optional()
    .describe('MAIL FROM address; "<>" is the null sender; default postmaster@<domain>'),
  helo: heloInput.optional().describe('HELO/EHLO name; default the domain'),
});
export type EvaluateSpfParams = z.input<typeof evaluateSpfParamsSchema>;

/** A record visited while following the SPF policy's includes and redirects. */
export const spfRecordVisitSchema = z.strictObject({
  domain: text('Whose record'),
  depth: int('0 for the checked domain, +1 per include/redirect'),
  record: nullableText('The record; null when the domain has none'),
  via: nullableText('include:<domain> or redirect:<domain> that led here'),
});

/** One term of an SPF record, analysed: what it costs in lookups and the verdict on it. */
export const spfTermSchema = z.strictObject({
  domain: text('Whose record holds the term'),
  depth: int('Include/redirect depth'),
  term: text('The term as published (the offending token for a syntax error)'),
  kind: z.enum(['mechanism', 'modifier', 'invalid']).describe('invalid = a syntax error'),
  qualifier: z
    .enum(['+', '-', '~', '?'])
    .nullable()
    .describe('Mechanism qualifier; null otherwise'),
  name: text('Mechanism or modifier name; "" when invalid'),
  value: nullableText('Domain-spec, network or modifier value'),
  status: severity('Verdict on this term'),
  reason: text('Why, with the rule'),
  dns_lookups: int('Lookups this term costs, including its include/redirect target'),
  cumulative_lookups: int('Running total after this term'),
  void_lookup: flag("The term's query found nothing"),
});

/** The `spf` section of `GET /api/email-auth`. */
export const spfSchema = z
  .strictObject({
    status: verdict('Verdict on the published SPF policy'),
    record: nullableText("The domain's SPF record (the first when several)"),
    records_found: int('TXT records starting with v=spf1 (exactly one is valid)'),
    all: nullableText('The final all term that applies (-all, ~all, ?all, all), after redirects'),
    dns_lookups: int('DNS lookups the policy costs through include/redirect (limit 10)'),
    dns_lookup_limit: int('10 (RFC 7208 §4.6.4)'),
    void_lookups: int('Lookups that find nothing (limit 2)'),
    void_lookup_limit: int('2 (RFC 7208 §4.6.4)'),
    records: list(spfRecordVisitSchema, 'Every record visited, in evaluation order'),
    terms: list(
      spfTermSchema,
      "Every term in evaluation order (redirect after its record's mechanisms)",
    ),
    findings,
    evaluation: evaluationSchema,
  })
  .describe('SPF (RFC 7208) analysis, and the evaluation when ip is given');

const policy = z.enum(['none', 'quarantine', 'reject']);
const alignment = z.enum(['r', 's']);
/** A DMARC report destination, with the RFC 7489 §7.1 authorisation of an external one. */
export const dmarcReportDestinationSchema = z.strictObject({
  uri: text('Report URI without the size suffix'),
  size: nullableText('Size limit as published (!10m → "10")'),
  unit: nullableText('Size unit k, m, g or t'),
  domain: nullableText('Domain of a mailto: address'),
  external: flag("Outside the policy's organisational domain"),
  authorized: z
    .boolean()
    .nullable()
    .describe('External only: <policy>._report._dmarc.<destination> authorises it (RFC 7489 §7.1)'),
});
/** The valid DMARC tags as published. */
export const dmarcTagsSchema = z
  .strictObject({
    v: text('DMARC1').optional(),
    p: policy.describe('Policy').optional(),
    sp: policy.describe('Subdomain policy').optional(),
    np: policy.describe('Non-existent subdomain policy (DMARCbis)').optional(),
    adkim: alignment.describe('DKIM alignment').optional(),
    aspf: alignment.describe('SPF alignment').optional(),
    pct: int('Percentage (removed in DMARCbis)').optional(),
    rua: texts('Aggregate report URIs').optional(),
    ruf: texts('Failure report URIs').optional(),
    fo: texts('Failure reporting options').optional(),
    rf: text('Report format (removed in DMARCbis)').optional(),
    ri: int('Report interval in seconds (removed in DMARCbis)').optional(),
    psd: z.enum(['y', 'n', 'u']).describe('Public suffix domain flag (DMARCbis)').optional(),
    t: z.enum(['y', 'n']).describe('Testing mode (DMARCbis)').optional(),
  })
  .describe('The valid tags as published (absent tags are left out)');
/** The DMARC tags with the RFC 7489 §6.3 defaults applied (DMARCbis: missing p means none). */
export const dmarcEffectivePolicySchema = z.strictObject({
  p: policy.describe('Policy (none when missing)'),
  sp: policy.describe('Subdomain policy (default p)'),
  np: policy.describe('Non-existent subdomain policy (default sp)'),
  adkim: alignment.describe('Default r'),
  aspf: alignment.describe('Default r'),
  pct: int('Default 100'),
  fo: texts('Default ["0"]'),
  rf: text('Default afrf'),
  ri: int('Default 86400'),
  testing: flag('t=y'),
});

/** A DMARC tag that breaks the grammar (the tag is ignored). */
export const dmarcTagErrorSchema = z.strictObject({
  tag: text('Tag name (or the malformed segment)'),
  value: text('Value as published'),
  message: text('What is wrong'),
});

/** The `dmarc` section of `GET /api/email-auth`. */
export const dmarcSchema = z
  .strictObject({
    status: verdict('Verdict on the DMARC policy'),
    record: nullableText('The DMARC record that applies'),
    record_name: nullableText('Where it was found (_dmarc.<domain>)'),
    source: z
      .enum(['domain', 'organizational_domain'])
      .nullable()
      .describe('Published for the domain itself, or inherited from its organisational domain'),
    organizational_domain: nullableText('Registrable domain by the Public Suffix List'),
    records_found: int('v=DMARC1 records at record_name (exactly one is valid)'),
    tags: dmarcTagsSchema,
    policy: dmarcEffectivePolicySchema
      .nullable()
      .describe('The tags with the RFC 7489 §6.3 defaults applied'),
    applied_policy: policy.nullable().describe('What receivers apply: p, or sp when inherited'),
    rua: list(dmarcReportDestinationSchema, 'Aggregate report destinations'),
    ruf: list(dmarcReportDestinationSchema, 'Failure report destinations'),
    errors: list(dmarcTagErrorSchema, 'Grammar errors; the tag is ignored'),
    unknown_tags: texts('Tags not defined by RFC 7489 or DMARCbis (ignored)'),
    findings,
  })
  .describe('DMARC (RFC 7489, DMARCbis-aware) with organisational-domain fallback');

/** One DKIM selector tried and the key found there, if any. */
export const dkimSelectorSchema = z.strictObject({
  selector: text('Selector'),
  name: text('<selector>._domainkey.<domain>'),
  source: z.enum(['requested', 'common']).describe('From dkim_selector or the built-in list'),
  found: flag('A key record was found'),
  record: nullableText('The key record'),
  key_type: nullableText('k= (rsa, ed25519)'),
  key_bits: z.int().nullable().describe('Key size in bits'),
  revoked: flag('Empty p=: the key is revoked'),
  testing: flag('t=y'),
  status: severity('Verdict (RSA < 1024 fail, < 2048 warn; RFC 8301)'),
  reason: text('Why'),
});

/** The `dkim` section of `GET /api/email-auth`. */
export const dkimSchema = z
  .strictObject({
    status: sectionStatusSchema,
    selectors_checked: texts('Every selector tried: dkim_selector first, then common ones'),
    selectors: list(
      dkimSelectorSchema,
      'Requested selectors (found or not) and common ones that were found',
    ),
    domainkey_exists: z
      .boolean()
      .nullable()
      .describe(
        'Asked only when no key is found: _domainkey.<domain> exists (NOERROR) or not (NXDOMAIN)',
      ),
    findings,
  })
  .describe('DKIM public keys (RFC 6376) at known or common selectors');

/** An MTA-STS policy file, parsed (RFC 8461 §3.2). */
export const mtaStsPolicySchema = z.strictObject({
  version: nullableText('STSv1'),
  mode: z.enum(['enforce', 'testing', 'none']).nullable().describe('Policy mode'),
  mx: texts('Allowed MX patterns (host or *.domain)'),
  max_age: z.int().nullable().describe('Seconds senders cache the policy'),
});

/** The `mta_sts` section of `GET /api/email-auth`. */
export const mtaStsSchema = z
  .strictObject({
    status: sectionStatusSchema,
    record_name: text('_mta-sts.<domain>'),
    record: nullableText('The v=STSv1 record'),
    id: nullableText('Policy id (1–32 letters and digits)'),
    policy_url: text('Where senders fetch the policy (RFC 8461 §3.3)'),
    policy_fetched: flag('The policy file was fetched (SSRF-safe client) and parsed'),
    policy: mtaStsPolicySchema.nullable().describe('The parsed policy file; null when not fetched'),
    policy_error: nullableText('Why the policy could not be fetched or used'),
    mx_not_covered: texts('MX hosts that no mx pattern of the policy covers'),
    findings,
  })
  .describe('MTA-STS (RFC 8461): the TXT record and the policy file');

/** The `tls_rpt` section of `GET /api/email-auth`. */
export const tlsRptSchema = z
  .strictObject({
    status: sectionStatusSchema,
    record_name: text('_smtp._tls.<domain>'),
    record: nullableText('The v=TLSRPTv1 record'),
    rua: texts('Report destinations (mailto: or https:)'),
    findings,
  })
  .describe('SMTP TLS Reporting (RFC 8460)');

/** The `bimi` section of `GET /api/email-auth`. */
export const bimiSchema = z
  .strictObject({
    status: sectionStatusSchema,
    record_name: text('default._bimi.<domain>'),
    record: nullableText('The v=BIMI1 record'),
    logo_url: nullableText('l=: the SVG logo URL'),
    authority_url: nullableText('a=: the Verified Mark Certificate URL'),
    findings,
  })
  .describe('BIMI record (draft-brand-indicators-for-message-identification)');

/** One section's status and the points it earned. */
export const sectionScoreSchema = z.strictObject({
  section: z.enum(EMAIL_AUTH_SECTIONS).describe('Section'),
  status: sectionStatusSchema,
  points: int('Points earned'),
  max_points: int('Points for a pass'),
});

/** The `summary` section of `GET /api/email-auth`. */
export const summarySchema = z
  .strictObject({
    score: z.int().min(0).max(100).describe('0–100, the sum of the section points'),
    grade: z.enum(EMAIL_AUTH_GRADES).describe('Letter grade'),
    sections: list(sectionScoreSchema, 'Per-section status and points'),
    rule: text('The grading rule in words'),
  })
  .describe(`Overall grade. ${GRADE_RULE}`);

/** `GET /api/email-auth` data. */
export const emailAuthDataSchema = z.strictObject({
  domain: text('The checked domain, normalised (lower case, punycode)'),
  checked_at: z.iso.datetime().describe('Time of the check, ISO 8601 UTC'),
  mx: mxSchema,
  spf: spfSchema,
  dmarc: dmarcSchema,
  dkim: dkimSchema,
  mta_sts: mtaStsSchema,
  tls_rpt: tlsRptSchema,
  bimi: bimiSchema,
  summary: summarySchema,
});
export type EmailAuthData = z.infer<typeof emailAuthDataSchema>;
