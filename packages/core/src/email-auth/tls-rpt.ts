/**
 * SMTP TLS Reporting (RFC 8460): the `_smtp._tls.<domain>` TXT record, `v=TLSRPTv1;
 * rua=<mailto: or https: URIs>` (§3).
 * @module
 */
import type { z } from 'zod';
import { runSection, type SectionRun } from './dns.js';
import type { tlsRptSchema } from './schema.js';
import { lookupTxtPolicy } from './txt-policy.js';
import {
  type EmailAuthSectionOptions,
  type Finding,
  type FindingSeverity,
  finding,
  statusOf,
} from './types.js';

/** The `tls_rpt` section: `_smtp._tls.<domain>` and its report destinations. */
export type TlsRptAnalysis = z.output<typeof tlsRptSchema>;

/** `resolver`, `signal`, `timeout` (the whole section) and `dnsTimeout` (each query). */
export type AnalyseTlsRptOptions = EmailAuthSectionOptions;

/** Analyses `domain`'s TLS-RPT record. DNS failures become findings. */
export async function analyseTlsRpt(
  domain: string,
  options: AnalyseTlsRptOptions = {},
): Promise<TlsRptAnalysis> {
  return runSection(options, (run) => tlsRptSection(domain, run));
}

async function tlsRptSection(
  domain: string,
  options: SectionRun<AnalyseTlsRptOptions>,
): Promise<TlsRptAnalysis> {
  const { lookup } = options;
  const name = `_smtp._tls.${domain}`;
  const base: TlsRptAnalysis = {
    status: 'none',
    record_name: name,
    record: null,
    rua: [],
    findings: [],
  };
  const found = await lookupTxtPolicy(
    options.resolver,
    name,
    'TLSRPTv1',
    'tls_rpt',
    'RFC 8460 §3',
    lookup,
  );
  if (found.kind === 'absent') {
    return {
      ...base,
      findings: [
        finding(
          'info',
          'tls_rpt_missing',
          `no TLS-RPT record at ${name}: the domain gets no reports of failed TLS deliveries (RFC 8460)`,
        ),
      ],
    };
  }
  if (found.kind !== 'found') return { ...base, status: 'fail', findings: [found.finding] };
  const findings: Finding[] = [];
  const add = (severity: FindingSeverity, code: string, message: string) =>
    findings.push(finding(severity, code, message));
  const rua = (found.tags.get('rua') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (rua.length === 0) {
    add('fail', 'tls_rpt_rua', `${name} has no rua= destination, which is required (RFC 8460 §3)`);
  }
  for (const uri of rua) {
    // §3: tlsrpt-uri is a mailto: or https: URI.
    const ok = /^mailto:[^@\s]+@[^@\s]+$/i.test(uri) || /^https:\/\/[^\s]+$/i.test(uri);
    if (!ok)
      add('fail', 'tls_rpt_uri', `rua "${uri}" must be a mailto: or https: URI (RFC 8460 §3)`);
  }
  for (const segment of found.malformed) {
    add('warn', 'tls_rpt_syntax', `"${segment}" is not a tag=value pair (RFC 8460 §3)`);
  }
  if (findings.length === 0) add('pass', 'tls_rpt_ok', `TLS reports go to ${rua.join(', ')}`);
  return { ...base, status: statusOf(findings), record: found.record, rua, findings };
}
