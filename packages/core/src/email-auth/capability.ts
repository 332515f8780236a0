/**
 * `GET /api/email-auth` (SPEC §4 behaviour 8, a tool endpoint): MX, SPF with a per-term analysis
 * and the RFC 7208 evaluation for a client IP, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI and a graded
 * summary. The shape is ours (CONTRACT §6 "tool endpoints"), described field by field here.
 * One piece: most of it is the one answer's OpenAPI description and checked example.
 * @module
 */
import { defineCapability } from '../descriptor.js';
import { COMMON_DKIM_SELECTORS } from './dkim/analyse.js';
import {
  checkEmailAuthParamsSchema,
  emailAuthDataSchema,
  evaluateSpfParamsSchema,
  spfEvaluationSchema,
} from './schema.js';
import { summarise } from './summary.js';
import { finding } from './types.js';

/** One mechanism of the example's SPF analysis; qualifier, name and value read from `term`. */
const spfTerm = (
  domain: string,
  depth: number,
  term: string,
  status: string,
  reason: string,
  dnsLookups: number,
  cumulativeLookups: number,
) => {
  const [name, value] = term.replace(/^[-~]/, '').split(':') as [string, string | undefined];
  return {
    domain,
    depth,
    term,
    kind: 'mechanism',
    qualifier: /^[-~]/.test(term) ? term[0] : '+',
    name,
    value: value?.split('/')[0] ?? null,
    status,
    reason,
    dns_lookups: dnsLookups,
    cumulative_lookups: cumulativeLookups,
    void_lookup: false,
  };
};

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
        findings: [finding('pass', 'mx_ok', '2 MX host(s), all resolvable')],
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
          spfTerm(
            'example.com',
            0,
            'ip4:93.184.215.0/24',
            'pass',
            'authorises 93.184.215.0/24; costs no DNS lookup',
            0,
            0,
          ),
          spfTerm(
            'example.com',
            0,
            'include:_spf.example.com',
            'pass',
            'includes the policy of _spf.example.com',
            2,
            1,
          ),
          spfTerm(
            '_spf.example.com',
            1,
            'ip4:93.184.216.0/24',
            'pass',
            'authorises 93.184.216.0/24; costs no DNS lookup',
            0,
            1,
          ),
          spfTerm(
            '_spf.example.com',
            1,
            'include:_spf.mailer.example',
            'pass',
            'includes the policy of _spf.mailer.example',
            1,
            2,
          ),
          spfTerm(
            '_spf.mailer.example',
            2,
            'ip4:93.184.217.0/24',
            'pass',
            'authorises 93.184.217.0/24; costs no DNS lookup',
            0,
            2,
          ),
          spfTerm(
            '_spf.mailer.example',
            2,
            '-all',
            'info',
            'ends the _spf.mailer.example policy; inside an include only a "pass" counts (RFC 7208 §5.2)',
            0,
            2,
          ),
          spfTerm(
            '_spf.example.com',
            1,
            '-all',
            'info',
            'ends the _spf.example.com policy; inside an include only a "pass" counts (RFC 7208 §5.2)',
            0,
            2,
          ),
          spfTerm(
            'example.com',
            0,
            '~all',
            'pass',
            '"~all": unlisted senders soft-fail (accepted but marked); "-all" is stricter',
            0,
            2,
          ),
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
