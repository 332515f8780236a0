/**
 * MTA-STS (RFC 8461): the `_mta-sts.<domain>` TXT record (`v=STSv1; id=…`, §3.1). The policy
 * file at `https://mta-sts.<domain>/.well-known/mta-sts.txt` (§3.2) is not fetched here: this
 * module reads DNS only (see docs/email-auth.md).
 * @module
 */
import type { DnsResolver } from '../net/dns-types.js';
import type { LookupOptions } from './dns.js';
import { lookupTxtPolicy } from './txt-policy.js';
import { type Finding, finding, type SectionStatus, statusOf } from './types.js';

export interface MtaStsAnalysis {
  status: SectionStatus;
  /** `_mta-sts.<domain>`. */
  record_name: string;
  record: string | null;
  /** The policy id (`id=`, 1–32 letters and digits); changes tell senders to refetch. */
  id: string | null;
  /** Where senders fetch the policy (§3.3). */
  policy_url: string;
  /** Always false: the policy file is not fetched by this check. */
  policy_fetched: boolean;
  findings: Finding[];
}

export interface AnalyseMtaStsOptions {
  resolver: DnsResolver;
  signal?: AbortSignal;
  dnsTimeout?: number;
}

export async function analyseMtaSts(
  domain: string,
  options: AnalyseMtaStsOptions,
): Promise<MtaStsAnalysis> {
  const lookup: LookupOptions = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.dnsTimeout !== undefined ? { timeout: options.dnsTimeout } : {}),
  };
  const name = `_mta-sts.${domain}`;
  const base: MtaStsAnalysis = {
    status: 'none',
    record_name: name,
    record: null,
    id: null,
    policy_url: `https://mta-sts.${domain}/.well-known/mta-sts.txt`,
    policy_fetched: false,
    findings: [],
  };
  const found = await lookupTxtPolicy(
    options.resolver,
    name,
    'STSv1',
    'mta_sts',
    'RFC 8461 §3.1',
    lookup,
  );
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
  const findings: Finding[] = [];
  const id = found.tags.get('id') ?? null;
  // §3.1: sts-id = 1*32( ALPHA / DIGIT ).
  if (id === null) {
    findings.push(
      finding(
        'fail',
        'mta_sts_id',
        `${name} has no id= tag; senders ignore the record (RFC 8461 §3.1)`,
      ),
    );
  } else if (!/^[A-Za-z0-9]{1,32}$/.test(id)) {
    findings.push(
      finding('fail', 'mta_sts_id', `id=${id} must be 1 to 32 letters and digits (RFC 8461 §3.1)`),
    );
  }
  for (const segment of found.malformed) {
    findings.push(
      finding('warn', 'mta_sts_syntax', `"${segment}" is not a tag=value pair (RFC 8461 §3.1)`),
    );
  }
  findings.push(
    finding(
      'info',
      'mta_sts_policy_not_fetched',
      `the policy file ${base.policy_url} is not fetched by this check; verify that it is served with a valid certificate`,
    ),
  );
  if (!findings.some((f) => f.severity === 'fail' || f.severity === 'warn')) {
    findings.unshift(finding('pass', 'mta_sts_ok', `MTA-STS is announced with id ${id}`));
  }
  return { ...base, status: statusOf(findings), record: found.record, id, findings };
}
