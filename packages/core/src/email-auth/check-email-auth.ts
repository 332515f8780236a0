/**
 * `checkEmailAuth`: every email-authentication record of a domain in one call, the SPF evaluation
 * for a client IP when one is given, and a graded summary; the sections run concurrently.
 * @module
 */
import type { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { normaliseDomain } from '../net/domain.js';
import { requireIp } from '../net/ip.js';
import type { CidrSet } from '../net/ranges.js';
import { withTimeout } from '../net/signal.js';
import { analyseBimi } from './bimi.js';
import { analyseDkim, parseSelectors } from './dkim/analyse.js';
import { analyseDmarc } from './dmarc/analyse.js';
import { resolverOf } from './dns.js';
import { analyseMtaSts } from './mta-sts.js';
import { analyseMx } from './mx.js';
import type { emailAuthDataSchema } from './schema.js';
import { analyseSpf } from './spf/analyse.js';
import { evaluateSpf } from './spf/evaluate-spf.js';
import { EMAIL_AUTH_SECTIONS, type EmailAuthSection, summarise } from './summary.js';
import { analyseTlsRpt } from './tls-rpt.js';
import {
  EMAIL_AUTH_DEFAULT_TIMEOUT_MS,
  type EmailAuthDnsOptions,
  type EmailAuthSectionOptions,
  type SectionStatus,
} from './types.js';

/** Budget of the SPF evaluation within the check (RFC 7208 §4.6.4: 20 s or more standalone). */
export const EMAIL_AUTH_SPF_EVALUATION_TIMEOUT_MS = 15_000;

/** What `checkEmailAuth` checks: a domain and, optionally, one SMTP connection to evaluate. */
export interface CheckEmailAuthInput {
  /** The domain to check (IDNs are converted to punycode). */
  domain: string;
  /** Evaluate SPF for this client IP (RFC 7208 check_host). */
  ip?: string;
  /** MAIL FROM for the evaluation; needs `ip`. @default postmaster@<domain> */
  sender?: string;
  /** HELO/EHLO name for the evaluation; needs `ip`. @default the domain */
  helo?: string;
  /** DKIM selectors to try before the common ones (comma list or array, at most 10). */
  dkimSelectors?: string | readonly string[];
}

export interface CheckEmailAuthOptions extends EmailAuthDnsOptions {
  /** Budget of each DNS query in ms. @default the resolver's own */
  dnsTimeout?: number;
  /** Fetch the MTA-STS policy file (SSRF-safe client) when the TXT record exists. @default true */
  fetchMtaStsPolicy?: boolean;
  /** CIDRs exempt from the SSRF block for that fetch (NETDIAG_ALLOWED_TARGETS). */
  allowedTargets?: readonly string[] | CidrSet;
  /** Extra trusted CA certificates (PEM) for that fetch. */
  ca?: string | Buffer | readonly (string | Buffer)[];
  /** Where the MTA-STS policy is fetched from. @default the RFC 8461 §3.3 well-known URL */
  mtaStsPolicyUrl?: (domain: string) => string;
  /** Clock for `checked_at`. @default Date.now */
  now?: () => number;
  /** @default 20000 */
  timeout?: number | false;
}

/** The `GET /api/email-auth` data: every section, the SPF evaluation and the summary. */
export type EmailAuthReport = z.output<typeof emailAuthDataSchema>;

/**
 * Checks a domain's published email authentication. Throws `InvalidInputError` for bad input,
 * `TimeoutError`/`UpstreamError` when the domain's own MX or TXT lookup fails (nothing useful
 * can be said then); every other DNS failure becomes a finding of its section.
 */
export async function checkEmailAuth(
  input: CheckEmailAuthInput,
  options: CheckEmailAuthOptions = {},
): Promise<EmailAuthReport> {
  const domain = normaliseDomain(input.domain, { param: 'domain' });
  if (input.ip === undefined && (input.sender || input.helo)) {
    throw new InvalidInputError(
      '"sender" and "helo" are used only with "ip" (the SMTP client address)',
      'ip',
    );
  }
  if (input.ip !== undefined) requireIp(input.ip, 'ip');
  const selectors = parseSelectors(input.dkimSelectors);
  const resolver = resolverOf(options.resolver);
  const now = options.now ?? Date.now;

  return withTimeout(
    options,
    'email-auth',
    async (signal) => {
      const dns = { resolver, signal, dnsTimeout: options.dnsTimeout };
      // The sections run within this check's budget, not each within one of their own.
      const section: EmailAuthSectionOptions = { ...dns, timeout: false };
      const mxDone = analyseMx(domain, section);
      const [mx, spf, dmarc, dkim, mta_sts, tls_rpt, evaluation] = await Promise.all([
        mxDone,
        analyseSpf(domain, section),
        analyseDmarc(domain, section),
        analyseDkim(domain, { ...section, selectors }),
        // The policy's mx patterns are checked against the MX hosts, so this waits for MX.
        mxDone.then((mxResult) =>
          analyseMtaSts(domain, {
            ...section,
            mxHosts: mxResult.records.map((r) => r.exchange),
            fetchPolicy: options.fetchMtaStsPolicy,
            allowedTargets: options.allowedTargets,
            ca: options.ca,
            policyUrl: options.mtaStsPolicyUrl,
          }),
        ),
        analyseTlsRpt(domain, section),
        input.ip === undefined
          ? Promise.resolve(null)
          : evaluateSpf(
              {
                ip: input.ip,
                domain,
                sender: input.sender || `postmaster@${domain}`,
                helo: input.helo || domain,
              },
              { ...dns, timeout: EMAIL_AUTH_SPF_EVALUATION_TIMEOUT_MS },
            ),
      ]);
      const bimi = await analyseBimi(domain, { ...section, dmarc });
      const sections = { mx, spf: { ...spf, evaluation }, dmarc, dkim, mta_sts, tls_rpt, bimi };
      const statuses = Object.fromEntries(EMAIL_AUTH_SECTIONS.map((s) => [s, sections[s].status]));
      return {
        domain,
        checked_at: new Date(now()).toISOString(),
        ...sections,
        summary: summarise(statuses as Record<EmailAuthSection, SectionStatus>),
      };
    },
    EMAIL_AUTH_DEFAULT_TIMEOUT_MS,
  );
}
