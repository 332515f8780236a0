/**
 * SMTP TLS Reporting (RFC 8460): the `_smtp._tls.<domain>` TXT record, `v=TLSRPTv1;
 * rua=<mailto: or https: URIs>` (§3).
 * @module
 */
import type { z } from 'zod';
import { type SectionRun, sectionAnalyser } from './dns.js';
import type { tlsRptSchema } from './schema.js';
import { lookupTxtPolicy } from './txt-policy.js';
import { type EmailAuthSectionOptions, finding, findingList, statusOf } from './types.js';

/** The `tls_rpt` section: `_smtp._tls.<domain>` and its report destinations. */
export type TlsRptAnalysis = z.output<typeof tlsRptSchema>;

/** Analyses `domain`'s TLS-RPT record. DNS failures become findings. */
export const analyseTlsRpt = sectionAnalyser(tlsRptSection);

async function tlsRptSection(
  domain: string,
  options: SectionRun<EmailAuthSectionOptions>,
): Promise<TlsRptAnalysis> {
  const name = `_smtp._tls.${domain}`;
  const base: TlsRptAnalysis = {
    status: 'none',
    record_name: name,
    record: null,
    rua: [],
    findings: [],
  };
  const found = await lookupTxtPolicy(options, name, 'TLSRPTv1', 'tls_rpt', 'RFC 8460 §3');
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
  const [findings, add] = findingList();
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
