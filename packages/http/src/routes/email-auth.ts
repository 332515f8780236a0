/**
 * `GET /api/email-auth` (SPEC §4 behaviour 8, a tool endpoint): MX, SPF with a per-term analysis
 * and the RFC 7208 evaluation for a client IP, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI and a graded
 * summary. The shape is ours (CONTRACT §6 "tool endpoints"), described field by field here.
 * @module
 */
import { COMMON_DKIM_SELECTORS, GRADE_RULE } from '@netdiag/core';
import { arr, bool, enumOf, int, type JsonSchema, nullable, obj, str } from '../openapi/schema.js';
import { queryParam } from '../params.js';
import { runEmailAuth } from '../services/email-auth.js';
import type { RouteDef } from './types.js';

/** A nullable string enum: the `null` must be listed for the schema to accept it. */
const nullableEnum = (values: readonly string[], description: string): JsonSchema => ({
  type: ['string', 'null'],
  enum: [...values, null],
  description,
});

const SEVERITIES = ['pass', 'info', 'warn', 'fail'] as const;
const severity = (description: string) => enumOf(SEVERITIES, description);
const sectionStatus = enumOf(
  ['pass', 'warn', 'fail', 'none'],
  'pass: as recommended; warn: works but weaker than recommended; fail: broken or missing where required; none: an optional mechanism that is not published',
);
const findings = arr(
  obj({
    severity: severity('pass, info, warn or fail'),
    code: str('Stable identifier of the check, e.g. spf_lookup_limit'),
    message: str('What was found, naming the term/value and the rule (RFC section)'),
  }),
  'What the section found, worst first within each check',
);

const mxSchema = obj(
  {
    status: sectionStatus,
    records: arr(
      obj({
        preference: int('MX preference (lower is tried first)'),
        exchange: str('Mail host, without the trailing dot; "" for a Null MX'),
        addresses: arr(str(), 'A and AAAA addresses of the host'),
        cname: nullable(
          str('Canonical name when the host is an alias (not allowed, RFC 2181 §10.3)'),
        ),
        status: severity('Verdict on this host'),
        reason: str('Why'),
      }),
      'MX records by preference',
    ),
    null_mx: bool('The domain publishes a Null MX (RFC 7505): it accepts no mail'),
    implicit_mx: bool("No MX: mail goes to the domain's own A/AAAA (RFC 5321 §5.1)"),
    implicit_addresses: arr(str(), 'The addresses used as the implicit MX'),
    findings,
  },
  { description: 'MX records and their hosts' },
);

const evaluationSchema = nullable({
  ...obj({
    result: enumOf(
      ['pass', 'fail', 'softfail', 'neutral', 'none', 'permerror', 'temperror'],
      'The RFC 7208 result',
    ),
    reason: str('Why: the deciding term, the limit exceeded or the failed lookup'),
    explanation: nullable(str('The exp= explanation (only for fail, only when published)')),
    ip: str('Client address evaluated (IPv4-mapped IPv6 shown as IPv4)'),
    domain: str('Domain whose policy was evaluated'),
    sender: str('MAIL FROM identity used (postmaster@<helo> for the null sender "<>")'),
    helo: str('HELO/EHLO name used for %{h}'),
    matched_term: nullable(str('The term of the checked domain that decided the result')),
    matched_domain: nullable(str('Whose record holds matched_term')),
    dns_lookups: int('Terms that caused DNS lookups (limit 10)'),
    void_lookups: int('Lookups answered with NXDOMAIN or no records (limit 2)'),
    trace: arr(
      obj({
        depth: int('Include/redirect depth, 0 for the checked domain'),
        domain: str('Whose record'),
        term: str('The term, or the record text for a "record" step'),
        outcome: enumOf(
          ['record', 'match', 'no_match', 'none', 'permerror', 'temperror'],
          'What happened at this step',
        ),
        detail: str('Human detail'),
      }),
      'Every record fetched and term evaluated, in order',
    ),
  }),
  description:
    'RFC 7208 check_host() for ip/sender/helo; null when ip is not given. Limits: 10 lookup terms, 10 MX/PTR names, 2 void lookups, 15 s',
});

const spfSchema = obj(
  {
    status: enumOf(['pass', 'warn', 'fail'], 'Verdict on the published SPF policy'),
    record: nullable(str("The domain's SPF record (the first when several)")),
    records_found: int('TXT records starting with v=spf1 (exactly one is valid)'),
    all: nullable(str('The final all term that applies (-all, ~all, ?all, all), after redirects')),
    dns_lookups: int('DNS lookups the policy costs through include/redirect (limit 10)'),
    dns_lookup_limit: int('10 (RFC 7208 §4.6.4)'),
    void_lookups: int('Lookups that find nothing (limit 2)'),
    void_lookup_limit: int('2 (RFC 7208 §4.6.4)'),
    records: arr(
      obj({
        domain: str('Whose record'),
        depth: int('0 for the checked domain, +1 per include/redirect'),
        record: nullable(str('The record; null when the domain has none')),
        via: nullable(str('include:<domain> or redirect:<domain> that led here')),
      }),
      'Every record visited, in evaluation order',
    ),
    terms: arr(
      obj({
        domain: str('Whose record holds the term'),
        depth: int('Include/redirect depth'),
        term: str('The term as published (the offending token for a syntax error)'),
        kind: enumOf(['mechanism', 'modifier', 'invalid'], 'invalid = a syntax error'),
        qualifier: nullableEnum(['+', '-', '~', '?'], 'Mechanism qualifier; null otherwise'),
        name: str('Mechanism or modifier name; "" when invalid'),
        value: nullable(str('Domain-spec, network or modifier value')),
        status: severity('Verdict on this term'),
        reason: str('Why, with the rule'),
        dns_lookups: int('Lookups this term costs, including its include/redirect target'),
        cumulative_lookups: int('Running total after this term'),
        void_lookup: bool("The term's query found nothing"),
      }),
      "Every term in evaluation order (redirect after its record's mechanisms)",
    ),
    findings,
    evaluation: evaluationSchema,
  },
  { description: 'SPF (RFC 7208) analysis, and the evaluation when ip is given' },
);

const policyEnum = ['none', 'quarantine', 'reject'] as const;
const destination = obj({
  uri: str('Report URI without the size suffix'),
  size: nullable(str('Size limit as published (!10m → "10")')),
  unit: nullable(str('Size unit k, m, g or t')),
  domain: nullable(str('Domain of a mailto: address')),
  external: bool("Outside the policy's organisational domain"),
  authorized: nullable(
    bool('External only: <policy>._report._dmarc.<destination> authorises it (RFC 7489 §7.1)'),
  ),
});
const dmarcTags = obj(
  {
    v: str('DMARC1'),
    p: enumOf(policyEnum, 'Policy'),
    sp: enumOf(policyEnum, 'Subdomain policy'),
    np: enumOf(policyEnum, 'Non-existent subdomain policy (DMARCbis)'),
    adkim: enumOf(['r', 's'], 'DKIM alignment'),
    aspf: enumOf(['r', 's'], 'SPF alignment'),
    pct: int('Percentage (removed in DMARCbis)'),
    rua: arr(str(), 'Aggregate report URIs'),
    ruf: arr(str(), 'Failure report URIs'),
    fo: arr(str(), 'Failure reporting options'),
    rf: str('Report format (removed in DMARCbis)'),
    ri: int('Report interval in seconds (removed in DMARCbis)'),
    psd: enumOf(['y', 'n', 'u'], 'Public suffix domain flag (DMARCbis)'),
    t: enumOf(['y', 'n'], 'Testing mode (DMARCbis)'),
  },
  {
    optional: [
      'v',
      'p',
      'sp',
      'np',
      'adkim',
      'aspf',
      'pct',
      'rua',
      'ruf',
      'fo',
      'rf',
      'ri',
      'psd',
      't',
    ],
    description: 'The valid tags as published (absent tags are left out)',
  },
);
const dmarcSchema = obj(
  {
    status: enumOf(['pass', 'warn', 'fail'], 'Verdict on the DMARC policy'),
    record: nullable(str('The DMARC record that applies')),
    record_name: nullable(str('Where it was found (_dmarc.<domain>)')),
    source: nullableEnum(
      ['domain', 'organizational_domain'],
      'Published for the domain itself, or inherited from its organisational domain',
    ),
    organizational_domain: nullable(str('Registrable domain by the Public Suffix List')),
    records_found: int('v=DMARC1 records at record_name (exactly one is valid)'),
    tags: dmarcTags,
    policy: nullable({
      ...obj({
        p: enumOf(policyEnum, 'Policy (none when missing)'),
        sp: enumOf(policyEnum, 'Subdomain policy (default p)'),
        np: enumOf(policyEnum, 'Non-existent subdomain policy (default sp)'),
        adkim: enumOf(['r', 's'], 'Default r'),
        aspf: enumOf(['r', 's'], 'Default r'),
        pct: int('Default 100'),
        fo: arr(str(), 'Default ["0"]'),
        rf: str('Default afrf'),
        ri: int('Default 86400'),
        testing: bool('t=y'),
      }),
      description: 'The tags with the RFC 7489 §6.3 defaults applied',
    }),
    applied_policy: nullableEnum(policyEnum, 'What receivers apply: p, or sp when inherited'),
    rua: arr(destination, 'Aggregate report destinations'),
    ruf: arr(destination, 'Failure report destinations'),
    errors: arr(
      obj({
        tag: str('Tag name (or the malformed segment)'),
        value: str('Value as published'),
        message: str('What is wrong'),
      }),
      'Grammar errors; the tag is ignored',
    ),
    unknown_tags: arr(str(), 'Tags not defined by RFC 7489 or DMARCbis (ignored)'),
    findings,
  },
  { description: 'DMARC (RFC 7489, DMARCbis-aware) with organisational-domain fallback' },
);

const dkimSchema = obj(
  {
    status: sectionStatus,
    selectors_checked: arr(str(), 'Every selector tried: dkim_selector first, then common ones'),
    selectors: arr(
      obj({
        selector: str('Selector'),
        name: str('<selector>._domainkey.<domain>'),
        source: enumOf(['requested', 'common'], 'From dkim_selector or the built-in list'),
        found: bool('A key record was found'),
        record: nullable(str('The key record')),
        key_type: nullable(str('k= (rsa, ed25519)')),
        key_bits: nullable(int('Key size in bits')),
        revoked: bool('Empty p=: the key is revoked'),
        testing: bool('t=y'),
        status: severity('Verdict (RSA < 1024 fail, < 2048 warn; RFC 8301)'),
        reason: str('Why'),
      }),
      'Requested selectors (found or not) and common ones that were found',
    ),
    domainkey_exists: nullable(
      bool(
        'Asked only when no key is found: _domainkey.<domain> exists (NOERROR) or not (NXDOMAIN)',
      ),
    ),
    findings,
  },
  { description: 'DKIM public keys (RFC 6376) at known or common selectors' },
);

const mtaStsSchema = obj(
  {
    status: sectionStatus,
    record_name: str('_mta-sts.<domain>'),
    record: nullable(str('The v=STSv1 record')),
    id: nullable(str('Policy id (1–32 letters and digits)')),
    policy_url: str('Where senders fetch the policy (RFC 8461 §3.3)'),
    policy_fetched: bool('The policy file was fetched (SSRF-safe client) and parsed'),
    policy: nullable({
      ...obj({
        version: nullable(str('STSv1')),
        mode: nullableEnum(['enforce', 'testing', 'none'], 'Policy mode'),
        mx: arr(str(), 'Allowed MX patterns (host or *.domain)'),
        max_age: nullable(int('Seconds senders cache the policy')),
      }),
      description: 'The parsed policy file; null when not fetched',
    }),
    policy_error: nullable(str('Why the policy could not be fetched or used')),
    mx_not_covered: arr(str(), 'MX hosts that no mx pattern of the policy covers'),
    findings,
  },
  { description: 'MTA-STS (RFC 8461): the TXT record and the policy file' },
);

const tlsRptSchema = obj(
  {
    status: sectionStatus,
    record_name: str('_smtp._tls.<domain>'),
    record: nullable(str('The v=TLSRPTv1 record')),
    rua: arr(str(), 'Report destinations (mailto: or https:)'),
    findings,
  },
  { description: 'SMTP TLS Reporting (RFC 8460)' },
);

const bimiSchema = obj(
  {
    status: sectionStatus,
    record_name: str('default._bimi.<domain>'),
    record: nullable(str('The v=BIMI1 record')),
    logo_url: nullable(str('l=: the SVG logo URL')),
    authority_url: nullable(str('a=: the Verified Mark Certificate URL')),
    findings,
  },
  { description: 'BIMI record (draft-brand-indicators-for-message-identification)' },
);

const SECTIONS = ['spf', 'dmarc', 'dkim', 'mx', 'mta_sts', 'tls_rpt', 'bimi'] as const;
const summarySchema = obj(
  {
    score: int('0–100, the sum of the section points', { minimum: 0, maximum: 100 }),
    grade: enumOf(['A', 'B', 'C', 'D', 'F'], 'Letter grade'),
    sections: arr(
      obj({
        section: enumOf(SECTIONS, 'Section'),
        status: sectionStatus,
        points: int('Points earned'),
        max_points: int('Points for a pass'),
      }),
      'Per-section status and points',
    ),
    rule: str('The grading rule in words'),
  },
  { description: `Overall grade. ${GRADE_RULE}` },
);

export const emailAuthRoutes: RouteDef[] = [
  {
    method: 'get',
    path: '/api/email-auth',
    operationId: 'checkEmailAuth',
    tag: 'Email',
    summary: 'Email authentication of a domain: MX, SPF, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI',
    description:
      "Reads the domain's published records through the netdiag resolver and grades them. SPF: " +
      'exactly one v=spf1 record, every term with a pass/info/warn/fail verdict and its DNS-lookup ' +
      'cost through include/redirect (limit 10), void lookups (limit 2), loops, ptr, permissive all, ' +
      'record size, syntax errors with the offending token. With `ip` (and optionally `sender`, ' +
      '`helo`) the full RFC 7208 check_host() runs and `spf.evaluation` holds the result. DMARC ' +
      'falls back to the organisational domain; external report destinations are checked for their ' +
      'authorisation record. DKIM tries `dkim_selector` first, then common selectors. The MTA-STS ' +
      'policy file is fetched only through the SSRF-safe client (certificate verified, no redirects, ' +
      'private addresses refused unless NETDIAG_ALLOWED_TARGETS) and its mx patterns are checked ' +
      "against the MX hosts. Only a failure of the domain's own MX or TXT lookup is an error " +
      '(502/504); every other DNS or fetch failure becomes a finding.',
    params: [
      {
        name: 'domain',
        in: 'query',
        required: true,
        description: 'Domain to check (IDNs accepted, converted to punycode)',
        schema: str(undefined, { minLength: 1, maxLength: 253 }),
        example: 'example.com',
      },
      {
        name: 'ip',
        in: 'query',
        description: 'SMTP client address to evaluate SPF for (IPv4 or IPv6)',
        schema: str(),
        example: '93.184.216.7',
      },
      {
        name: 'sender',
        in: 'query',
        description:
          'MAIL FROM address for the evaluation (needs ip); "<>" is the null sender; default postmaster@<domain>',
        schema: str(undefined, { maxLength: 1024 }),
        example: 'alice@example.com',
      },
      {
        name: 'helo',
        in: 'query',
        description: 'HELO/EHLO name for the evaluation (needs ip); default the domain',
        schema: str(undefined, { maxLength: 1024 }),
        example: 'mail.example.com',
      },
      {
        name: 'dkim_selector',
        in: 'query',
        description: 'DKIM selectors to try first, comma-separated (at most 10)',
        schema: str(undefined, { maxLength: 1024 }),
        example: 'selector1,s2048',
      },
    ],
    data: obj({
      domain: str('The checked domain, normalised (lower case, punycode)'),
      checked_at: str('Time of the check, ISO 8601 UTC', { format: 'date-time' }),
      mx: mxSchema,
      spf: spfSchema,
      dmarc: dmarcSchema,
      dkim: dkimSchema,
      mta_sts: mtaStsSchema,
      tls_rpt: tlsRptSchema,
      bimi: bimiSchema,
      summary: summarySchema,
    }),
    example: {
      domain: 'example.com',
      checked_at: '2026-11-21T10:00:00.000Z',
      mx: {
        status: 'pass',
        records: [
          {
            preference: 10,
            exchange: 'mx1.example.com',
            addresses: ['93.184.215.25', '2606:2800:21f:cb07::25'],
            cname: null,
            status: 'pass',
            reason: 'resolves to 93.184.215.25, 2606:2800:21f:cb07::25',
          },
          {
            preference: 20,
            exchange: 'mx2.example.com',
            addresses: ['93.184.215.26'],
            cname: null,
            status: 'pass',
            reason: 'resolves to 93.184.215.26',
          },
        ],
        null_mx: false,
        implicit_mx: false,
        implicit_addresses: [],
        findings: [
          {
            severity: 'pass',
            code: 'mx_ok',
            message: '2 MX host(s), all resolvable',
          },
        ],
      },
      spf: {
        record: 'v=spf1 ip4:93.184.215.0/24 include:_spf.example.com ~all',
        records_found: 1,
        dns_lookup_limit: 10,
        void_lookup_limit: 2,
        status: 'pass',
        all: '~all',
        dns_lookups: 2,
        void_lookups: 0,
        records: [
          {
            domain: 'example.com',
            depth: 0,
            record: 'v=spf1 ip4:93.184.215.0/24 include:_spf.example.com ~all',
            via: null,
          },
          {
            domain: '_spf.example.com',
            depth: 1,
            record: 'v=spf1 ip4:93.184.216.0/24 include:_spf.mailer.example -all',
            via: 'include:_spf.example.com',
          },
          {
            domain: '_spf.mailer.example',
            depth: 2,
            record: 'v=spf1 ip4:93.184.217.0/24 -all',
            via: 'include:_spf.mailer.example',
          },
        ],
        terms: [
          {
            domain: 'example.com',
            depth: 0,
            term: 'ip4:93.184.215.0/24',
            kind: 'mechanism',
            qualifier: '+',
            name: 'ip4',
            value: '93.184.215.0',
            status: 'pass',
            reason: 'authorises 93.184.215.0/24; costs no DNS lookup',
            dns_lookups: 0,
            cumulative_lookups: 0,
            void_lookup: false,
          },
          {
            domain: 'example.com',
            depth: 0,
            term: 'include:_spf.example.com',
            kind: 'mechanism',
            qualifier: '+',
            name: 'include',
            value: '_spf.example.com',
            status: 'pass',
            reason: 'includes the policy of _spf.example.com',
            dns_lookups: 2,
            cumulative_lookups: 1,
            void_lookup: false,
          },
          {
            domain: '_spf.example.com',
            depth: 1,
            term: 'ip4:93.184.216.0/24',
            kind: 'mechanism',
            qualifier: '+',
            name: 'ip4',
            value: '93.184.216.0',
            status: 'pass',
            reason: 'authorises 93.184.216.0/24; costs no DNS lookup',
            dns_lookups: 0,
            cumulative_lookups: 1,
            void_lookup: false,
          },
          {
            domain: '_spf.example.com',
            depth: 1,
            term: 'include:_spf.mailer.example',
            kind: 'mechanism',
            qualifier: '+',
            name: 'include',
            value: '_spf.mailer.example',
            status: 'pass',
            reason: 'includes the policy of _spf.mailer.example',
            dns_lookups: 1,
            cumulative_lookups: 2,
            void_lookup: false,
          },
          {
            domain: '_spf.mailer.example',
            depth: 2,
            term: 'ip4:93.184.217.0/24',
            kind: 'mechanism',
            qualifier: '+',
            name: 'ip4',
            value: '93.184.217.0',
            status: 'pass',
            reason: 'authorises 93.184.217.0/24; costs no DNS lookup',
            dns_lookups: 0,
            cumulative_lookups: 2,
            void_lookup: false,
          },
          {
            domain: '_spf.mailer.example',
            depth: 2,
            term: '-all',
            kind: 'mechanism',
            qualifier: '-',
            name: 'all',
            value: null,
            status: 'info',
            reason:
              'ends the _spf.mailer.example policy; inside an include only a "pass" counts (RFC 7208 §5.2)',
            dns_lookups: 0,
            cumulative_lookups: 2,
            void_lookup: false,
          },
          {
            domain: '_spf.example.com',
            depth: 1,
            term: '-all',
            kind: 'mechanism',
            qualifier: '-',
            name: 'all',
            value: null,
            status: 'info',
            reason:
              'ends the _spf.example.com policy; inside an include only a "pass" counts (RFC 7208 §5.2)',
            dns_lookups: 0,
            cumulative_lookups: 2,
            void_lookup: false,
          },
          {
            domain: 'example.com',
            depth: 0,
            term: '~all',
            kind: 'mechanism',
            qualifier: '~',
            name: 'all',
            value: null,
            status: 'pass',
            reason: '"~all": unlisted senders soft-fail (accepted but marked); "-all" is stricter',
            dns_lookups: 0,
            cumulative_lookups: 2,
            void_lookup: false,
          },
        ],
        findings: [
          {
            severity: 'info',
            code: 'spf_all_softfail',
            message:
              'example.com: "~all" soft-fails unlisted senders; "-all" rejects them outright once every sender is listed',
          },
        ],
        evaluation: {
          result: 'pass',
          reason:
            '"include:_spf.example.com" in the record of example.com matched: _spf.example.com returned pass',
          explanation: null,
          ip: '93.184.216.7',
          domain: 'example.com',
          sender: 'alice@example.com',
          helo: 'mail.example.com',
          matched_term: 'include:_spf.example.com',
          matched_domain: 'example.com',
          dns_lookups: 1,
          void_lookups: 0,
          trace: [
            {
              depth: 0,
              domain: 'example.com',
              term: 'v=spf1 ip4:93.184.215.0/24 include:_spf.example.com ~all',
              outcome: 'record',
              detail: 'SPF record found',
            },
            {
              depth: 0,
              domain: 'example.com',
              term: 'ip4:93.184.215.0/24',
              outcome: 'no_match',
              detail: '93.184.216.7 is not in 93.184.215.0/24',
            },
            {
              depth: 1,
              domain: '_spf.example.com',
              term: 'v=spf1 ip4:93.184.216.0/24 include:_spf.mailer.example -all',
              outcome: 'record',
              detail: 'SPF record found',
            },
            {
              depth: 1,
              domain: '_spf.example.com',
              term: 'ip4:93.184.216.0/24',
              outcome: 'match',
              detail: '93.184.216.7 is in 93.184.216.0/24',
            },
            {
              depth: 0,
              domain: 'example.com',
              term: 'include:_spf.example.com',
              outcome: 'match',
              detail: '_spf.example.com returned pass',
            },
          ],
        },
      },
      dmarc: {
        status: 'pass',
        record:
          'v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com,mailto:reports@dmarc.vendor.example',
        record_name: '_dmarc.example.com',
        source: 'domain',
        organizational_domain: 'example.com',
        records_found: 1,
        tags: {
          v: 'DMARC1',
          p: 'quarantine',
          rua: ['mailto:dmarc@example.com', 'mailto:reports@dmarc.vendor.example'],
        },
        policy: {
          p: 'quarantine',
          sp: 'quarantine',
          np: 'quarantine',
          adkim: 'r',
          aspf: 'r',
          pct: 100,
          fo: ['0'],
          rf: 'afrf',
          ri: 86400,
          testing: false,
        },
        applied_policy: 'quarantine',
        rua: [
          {
            uri: 'mailto:dmarc@example.com',
            size: null,
            unit: null,
            domain: 'example.com',
            external: false,
            authorized: null,
          },
          {
            uri: 'mailto:reports@dmarc.vendor.example',
            size: null,
            unit: null,
            domain: 'dmarc.vendor.example',
            external: true,
            authorized: true,
          },
        ],
        ruf: [],
        errors: [],
        unknown_tags: [],
        findings: [
          {
            severity: 'pass',
            code: 'dmarc_enforced',
            message: 'the policy is "quarantine": receivers act on forged mail',
          },
          {
            severity: 'pass',
            code: 'dmarc_ok',
            message: 'DMARC policy "quarantine" with aggregate reports',
          },
        ],
      },
      dkim: {
        status: 'pass',
        selectors_checked: [...COMMON_DKIM_SELECTORS],
        selectors: [
          {
            selector: 'selector1',
            name: 'selector1._domainkey.example.com',
            source: 'common',
            found: true,
            record: 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQ…IDAQAB',
            key_type: 'rsa',
            key_bits: 2048,
            revoked: false,
            testing: false,
            status: 'pass',
            reason: 'RSA 2048-bit key',
          },
        ],
        domainkey_exists: null,
        findings: [
          {
            severity: 'pass',
            code: 'dkim_ok',
            message: 'DKIM key(s) found at selector1',
          },
        ],
      },
      mta_sts: {
        status: 'pass',
        record_name: '_mta-sts.example.com',
        record: 'v=STSv1; id=20260115T120000',
        id: '20260115T120000',
        policy_url: 'https://mta-sts.example.com/.well-known/mta-sts.txt',
        policy_fetched: true,
        policy: {
          version: 'STSv1',
          mode: 'enforce',
          mx: ['mx1.example.com', 'mx2.example.com'],
          max_age: 604800,
        },
        policy_error: null,
        mx_not_covered: [],
        findings: [
          {
            severity: 'pass',
            code: 'mta_sts_ok',
            message:
              'MTA-STS is announced with id 20260115T120000 and enforced for mx1.example.com, mx2.example.com',
          },
        ],
      },
      tls_rpt: {
        status: 'pass',
        record_name: '_smtp._tls.example.com',
        record: 'v=TLSRPTv1; rua=mailto:tls-reports@example.com',
        rua: ['mailto:tls-reports@example.com'],
        findings: [
          {
            severity: 'pass',
            code: 'tls_rpt_ok',
            message: 'TLS reports go to mailto:tls-reports@example.com',
          },
        ],
      },
      bimi: {
        status: 'none',
        record_name: 'default._bimi.example.com',
        record: null,
        logo_url: null,
        authority_url: null,
        findings: [
          {
            severity: 'info',
            code: 'bimi_missing',
            message: 'no BIMI record at default._bimi.example.com',
          },
        ],
      },
      summary: {
        score: 97,
        grade: 'A',
        sections: [
          {
            section: 'spf',
            status: 'pass',
            points: 30,
            max_points: 30,
          },
          {
            section: 'dmarc',
            status: 'pass',
            points: 30,
            max_points: 30,
          },
          {
            section: 'dkim',
            status: 'pass',
            points: 20,
            max_points: 20,
          },
          {
            section: 'mx',
            status: 'pass',
            points: 10,
            max_points: 10,
          },
          {
            section: 'mta_sts',
            status: 'pass',
            points: 4,
            max_points: 4,
          },
          {
            section: 'tls_rpt',
            status: 'pass',
            points: 3,
            max_points: 3,
          },
          {
            section: 'bimi',
            status: 'none',
            points: 0,
            max_points: 3,
          },
        ],
        rule: 'Points per section by status (pass/warn/fail/none): SPF 30/20/0/0, DMARC 30/15/0/0, DKIM 20/10/0/0, MX 10/5/0/0, MTA-STS 4/2/0/0, TLS-RPT 3/1/0/0, BIMI 3/1/0/0; grade A ≥ 90, B ≥ 75, C ≥ 60, D ≥ 40, F below; a failing SPF or DMARC caps the grade at D.',
      },
    },
    errors: [400, 502, 504],
    handle({ req, ctx, signal }) {
      const domain = queryParam(req, 'domain', 'a domain name such as example.com', true);
      return runEmailAuth(
        ctx,
        {
          domain,
          ip: queryParam(req, 'ip', 'an IPv4 or IPv6 address'),
          sender: queryParam(req, 'sender', 'an email address such as alice@example.com, or <>'),
          helo: queryParam(req, 'helo', 'a host name such as mail.example.com'),
          dkimSelector: queryParam(req, 'dkim_selector', 'comma-separated DKIM selectors'),
        },
        { signal },
      );
    },
  },
];
