/**
 * MTA-STS (RFC 8461): the `_mta-sts.<domain>` TXT record (§3.1) and its policy file, fetched
 * through the SSRF-safe client only (CONTRACT §4), its mx patterns checked against the MX hosts.
 * @module
 */
import type { z } from 'zod';
import { type SectionRun, sectionAnalyser } from './dns.js';
import {
  type FetchMtaStsPolicyOptions,
  fetchMtaStsPolicy,
  type MtaStsPolicy,
  mxMatchesPattern,
} from './mta-sts-policy.js';
import type { mtaStsSchema } from './schema.js';
import { lookupTxtPolicy } from './txt-policy.js';
import {
  type AddFinding,
  type EmailAuthSectionOptions,
  finding,
  findingList,
  passUnlessFlagged,
  statusOf,
} from './types.js';

/** Under a day, senders forget the policy fast and a downgrade need only wait (RFC 8461 §3.3). */
export const MTA_STS_SHORT_MAX_AGE_S = 86_400;

/** The `mta_sts` section: the TXT record, the policy file and the MX hosts it leaves out. */
export type MtaStsAnalysis = z.output<typeof mtaStsSchema>;

/** `allowedTargets` and `ca` are those of the policy fetch. */
export interface AnalyseMtaStsOptions
  extends EmailAuthSectionOptions,
    Pick<FetchMtaStsPolicyOptions, 'allowedTargets' | 'ca'> {
  /** Fetch the policy file when the TXT record is published. @default true */
  fetchPolicy?: boolean;
  /** The domain's MX host names, checked against the policy's `mx` patterns. */
  mxHosts?: readonly string[];
  /** Where the policy is fetched from. @default the RFC 8461 §3.3 URL (tests: a loopback port) */
  policyUrl?: (domain: string) => string;
}

/** Analyses `domain`'s MTA-STS record and policy file. DNS and fetch failures become findings. */
export const analyseMtaSts = sectionAnalyser(mtaStsSection);

async function mtaStsSection(
  domain: string,
  options: SectionRun<AnalyseMtaStsOptions>,
): Promise<MtaStsAnalysis> {
  const name = `_mta-sts.${domain}`;
  const base: MtaStsAnalysis = {
    status: 'none',
    record_name: name,
    record: null,
    id: null,
    policy_url: `https://mta-sts.${domain}/.well-known/mta-sts.txt`,
    policy_fetched: false,
    policy: null,
    policy_error: null,
    mx_not_covered: [],
    findings: [],
  };
  const found = await lookupTxtPolicy(options, name, 'STSv1', 'mta_sts', 'RFC 8461 §3.1');
  if (found.kind === 'absent') {
    return {
      ...base,
      findings: [
        finding(
          'info',
          'mta_sts_missing',
          `no MTA-STS record at ${name}: senders may deliver over unauthenticated or plaintext SMTP (RFC 8461)`,
        ),
      ],
    };
  }
  if (found.kind !== 'found') return { ...base, status: 'fail', findings: [found.finding] };
  const [findings, add] = findingList();
  const id = found.tags.get('id') ?? null;
  // §3.1: sts-id = 1*32( ALPHA / DIGIT ).
  if (id === null) {
    add('fail', 'mta_sts_id', `${name} has no id= tag; senders ignore the record (RFC 8461 §3.1)`);
  } else if (!/^[A-Za-z0-9]{1,32}$/.test(id)) {
    add('fail', 'mta_sts_id', `id=${id} must be 1 to 32 letters and digits (RFC 8461 §3.1)`);
  }
  for (const segment of found.malformed) {
    add('warn', 'mta_sts_syntax', `"${segment}" is not a tag=value pair (RFC 8461 §3.1)`);
  }
  const result: MtaStsAnalysis = { ...base, record: found.record, id };
  if (options.fetchPolicy === false) {
    add(
      'info',
      'mta_sts_policy_not_fetched',
      `the policy file ${base.policy_url} was not fetched (disabled)`,
    );
  } else {
    const url = options.policyUrl?.(domain) ?? base.policy_url;
    const fetched = await fetchMtaStsPolicy(url, {
      resolver: options.resolver,
      signal: options.signal,
      allowedTargets: options.allowedTargets,
      ca: options.ca,
    });
    if (!fetched.ok) {
      result.policy_error = fetched.error;
      add(
        'fail',
        'mta_sts_policy_unavailable',
        `the TXT record announces MTA-STS but the policy cannot be used: ${fetched.error}; senders deliver as if there were no policy (RFC 8461 §3.3)`,
      );
    } else {
      const { errors, ...policy } = fetched.policy;
      result.policy_fetched = true;
      result.policy = policy;
      policyFindings(add, policy, errors, options.mxHosts ?? [], result);
    }
  }
  passUnlessFlagged(
    findings,
    'mta_sts_ok',
    `MTA-STS is announced with id ${id}${result.policy ? ` and enforced for ${result.policy.mx.join(', ')}` : ''}`,
  );
  return { ...result, status: statusOf(findings), findings };
}

function policyFindings(
  add: AddFinding,
  policy: Omit<MtaStsPolicy, 'errors'>,
  errors: string[],
  mxHosts: readonly string[],
  result: MtaStsAnalysis,
): void {
  for (const e of errors) add('fail', 'mta_sts_policy_syntax', `policy file: ${e} (RFC 8461 §3.2)`);
  if (policy.mode === 'testing') {
    add(
      'warn',
      'mta_sts_testing',
      'mode: testing: failures are only reported, delivery is not protected; switch to enforce',
    );
  } else if (policy.mode === 'none') {
    add('warn', 'mta_sts_mode_none', 'mode: none: the domain is withdrawing its MTA-STS policy');
  }
  if (policy.max_age !== null && policy.max_age < MTA_STS_SHORT_MAX_AGE_S) {
    add(
      'warn',
      'mta_sts_max_age',
      `max_age ${policy.max_age} s is under a day: senders forget the policy quickly and a downgrade attacker only has to wait; values of weeks are usual`,
    );
  }
  if (policy.mode !== 'none' && policy.mx.length > 0) {
    result.mx_not_covered = mxHosts.filter(
      (h) => h !== '' && !policy.mx.some((p) => mxMatchesPattern(h, p)),
    );
    if (result.mx_not_covered.length > 0) {
      add(
        policy.mode === 'enforce' ? 'fail' : 'warn',
        'mta_sts_mx_mismatch',
        `MX host(s) ${result.mx_not_covered.join(', ')} match no mx pattern of the policy (${policy.mx.join(', ')}): ${policy.mode === 'enforce' ? 'senders refuse to deliver to them' : 'failures are reported'} (RFC 8461 §4.1)`,
      );
    }
  }
}
