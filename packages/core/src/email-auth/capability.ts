/**
 * `GET /api/email-auth` (SPEC §4 behaviour 8, a tool endpoint; the shape is ours, CONTRACT §6):
 * its OpenAPI description and checked example, and the `evaluate_spf` tool.
 * @module
 */
import { defineCapability } from '../descriptor.js';
import { COMMON_DKIM_SELECTORS } from './dkim/analyse.js';
import { effectivePolicy } from './dmarc/parse.js';
import {
  checkEmailAuthParamsSchema,
  emailAuthDataSchema,
  evaluateSpfParamsSchema,
  spfEvaluationSchema,
} from './schema.js';
import { summarise } from './summary.js';
import { finding } from './types.js';

/** One mechanism of the example's SPF analysis, with the verdict `analyseSpf` gives it. */
const spfTerm = (domain: string, depth: number, term: string, cumulative: number, lookups = 0) => {
  const [name, value] = term.replace(/^[-~]/, '').split(':') as [string, string | undefined];
  const reason =
    name === 'ip4'
      ? `authorises ${value}; costs no DNS lookup`
      : name === 'include'
        ? `includes the policy of ${value}`
        : depth > 0
          ? `ends the ${domain} policy; inside an include only a "pass" counts (RFC 7208 §5.2)`
          : '"~all": unlisted senders soft-fail (accepted but marked); "-all" is stricter';
  return {
    domain,
    depth,
    term,
    kind: 'mechanism',
    qualifier: /^[-~]/.test(term) ? term[0] : '+',
    name,
    value: value?.split('/')[0] ?? null,
    status: name === 'all' && depth > 0 ? 'info' : 'pass',
    reason,
    dns_lookups: lookups,
    cumulative_lookups: cumulative,
    void_lookup: false,
  };
};

/** One MX host of the example, resolvable. */
const mxHost = (preference: number, exchange: string, addresses: string[]) => ({
  preference,
  exchange,
  addresses,
  cname: null,
  status: 'pass',
  reason: `resolves to ${addresses.join(', ')}`,
});

const RUA = ['mailto:dmarc@example.com', 'mailto:reports@dmarc.vendor.example'];
const SPF_RECORD = 'v=spf1 ip4:93.184.215.0/24 include:_spf.example.com ~all';
const SPF_INCLUDED = 'v=spf1 ip4:93.184.216.0/24 include:_spf.mailer.example -all';

/** One step of the example's SPF evaluation trace. */
const step = (depth: number, domain: string, term: string, outcome: string, detail: string) => ({
  depth,
  domain,
  term,
  outcome,
  detail,
});

export const checkEmailAuth = defineCapability({
  id: 'checkEmailAuth',
  params: checkEmailAuthParamsSchema,
  data: emailAuthDataSchema,
  limit: 'general',
  run: (engine, { dkim_selector, ...params }, context) =>
    engine.emailAuth({ ...params, dkimSelector: dkim_selector }, context),
  http: {
    method: 'get',
    path: '/api/email-auth',
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
    paramExamples: {
      domain: 'example.com',
      ip: '93.184.216.7',
      sender: 'alice@example.com',
      helo: 'mail.example.com',
      dkim_selector: 'selector1,s2048',
    },
    example: {
      domain: 'example.com',
      checked_at: '2026-11-21T10:00:00.000Z',
      mx: {
        status: 'pass',
        records: [
          mxHost(10, 'mx1.example.com', ['93.184.215.25', '2606:2800:21f:cb07::25']),
          mxHost(20, 'mx2.example.com', ['93.184.215.26']),
        ],
        null_mx: false,
        implicit_mx: false,
        implicit_addresses: [],
        findings: [finding('pass', 'mx_ok', '2 MX host(s), all resolvable')],
      },
      spf: {
        record: SPF_RECORD,
        records_found: 1,
        dns_lookup_limit: 10,
        void_lookup_limit: 2,
        status: 'pass',
        all: '~all',
        dns_lookups: 2,
        void_lookups: 0,
        records: [
          { domain: 'example.com', depth: 0, record: SPF_RECORD, via: null },
          {
            domain: '_spf.example.com',
            depth: 1,
            record: SPF_INCLUDED,
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
          spfTerm('example.com', 0, 'ip4:93.184.215.0/24', 0),
          spfTerm('example.com', 0, 'include:_spf.example.com', 1, 2),
          spfTerm('_spf.example.com', 1, 'ip4:93.184.216.0/24', 1),
          spfTerm('_spf.example.com', 1, 'include:_spf.mailer.example', 2, 1),
          spfTerm('_spf.mailer.example', 2, 'ip4:93.184.217.0/24', 2),
          spfTerm('_spf.mailer.example', 2, '-all', 2),
          spfTerm('_spf.example.com', 1, '-all', 2),
          spfTerm('example.com', 0, '~all', 2),
        ],
        findings: [
          finding(
            'info',
            'spf_all_softfail',
            'example.com: "~all" soft-fails unlisted senders; "-all" rejects them outright once every sender is listed',
          ),
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
            step(0, 'example.com', SPF_RECORD, 'record', 'SPF record found'),
            step(
              0,
              'example.com',
              'ip4:93.184.215.0/24',
              'no_match',
              '93.184.216.7 is not in 93.184.215.0/24',
            ),
            step(1, '_spf.example.com', SPF_INCLUDED, 'record', 'SPF record found'),
            step(
              1,
              '_spf.example.com',
              'ip4:93.184.216.0/24',
              'match',
              '93.184.216.7 is in 93.184.216.0/24',
            ),
            step(
              0,
              'example.com',
              'include:_spf.example.com',
              'match',
              '_spf.example.com returned pass',
            ),
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
          rua: RUA,
        },
        policy: effectivePolicy({ p: 'quarantine' }),
        applied_policy: 'quarantine',
        rua: RUA.map((uri) => {
          const domain = uri.split('@')[1] as string;
          const external = domain !== 'example.com';
          return { uri, size: null, unit: null, domain, external, authorized: external || null };
        }),
        ruf: [],
        errors: [],
        unknown_tags: [],
        findings: [
          finding(
            'pass',
            'dmarc_enforced',
            'the policy is "quarantine": receivers act on forged mail',
          ),
          finding('pass', 'dmarc_ok', 'DMARC policy "quarantine" with aggregate reports'),
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
        findings: [finding('pass', 'dkim_ok', 'DKIM key(s) found at selector1')],
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
          finding(
            'pass',
            'mta_sts_ok',
            'MTA-STS is announced with id 20260115T120000 and enforced for mx1.example.com, mx2.example.com',
          ),
        ],
      },
      tls_rpt: {
        status: 'pass',
        record_name: '_smtp._tls.example.com',
        record: 'v=TLSRPTv1; rua=mailto:tls-reports@example.com',
        rua: ['mailto:tls-reports@example.com'],
        findings: [
          finding('pass', 'tls_rpt_ok', 'TLS reports go to mailto:tls-reports@example.com'),
        ],
      },
      bimi: {
        status: 'none',
        record_name: 'default._bimi.example.com',
        record: null,
        logo_url: null,
        authority_url: null,
        findings: [finding('info', 'bimi_missing', 'no BIMI record at default._bimi.example.com')],
      },
      summary: summarise({
        spf: 'pass',
        dmarc: 'pass',
        dkim: 'pass',
        mx: 'pass',
        mta_sts: 'pass',
        tls_rpt: 'pass',
        bimi: 'none',
      }),
    },
    errors: [400, 502, 504],
  },
  tool: {
    name: 'check_email_auth',
    title: 'Check email authentication',
    description:
      "A domain's mail setup: MX, SPF (analysis and, with ip, an RFC 7208 evaluation), DMARC, " +
      'DKIM, MTA-STS, TLS-RPT and BIMI, each with findings, and an overall grade. Same answer as ' +
      'GET /api/email-auth.',
    probe: false,
    openWorld: true,
  },
  cli: { command: 'email-auth', operand: 'domain' },
});

/** A tool only: the `spf.evaluation` part of `checkEmailAuth`, asked on its own. */
export const evaluateSpf = defineCapability({
  id: 'evaluateSpf',
  params: evaluateSpfParamsSchema,
  data: spfEvaluationSchema,
  limit: 'general',
  run: (engine, params, context) => engine.evaluateSpf(params, context),
  tool: {
    name: 'evaluate_spf',
    title: 'Evaluate SPF for a sender',
    description:
      'Would mail from this IP address pass SPF for this domain? One RFC 7208 check_host() ' +
      'evaluation with the deciding term and every step; the same object as ' +
      'check_email_auth → spf.evaluation for the same input.',
    probe: false,
    openWorld: true,
  },
  cli: { command: 'spf', operand: 'domain' },
});
