/**
 * `netdiag email-auth <domain>`: the data of `GET /api/email-auth` (MX, SPF, DMARC, DKIM,
 * MTA-STS, TLS-RPT, BIMI and a grade), and `netdiag spf <domain> --ip <ip>`: one RFC 7208
 * evaluation, the object the API returns as `data.spf.evaluation`.
 * @module
 */
import {
  EMAIL_AUTH_SECTION_LABELS,
  EMAIL_AUTH_SECTIONS,
  type EmailAuthReport,
  type Finding,
  type SpfEvaluation,
} from '@netdiag/core';
import { withEngine } from '../context.js';
import { output } from '../io.js';
import type { RegisterCommand } from './types.js';

interface EmailAuthFlags {
  ip?: string;
  sender?: string;
  helo?: string;
  dkimSelector?: string;
  json?: boolean;
}

export const registerEmailAuth: RegisterCommand = (program, { io }) => {
  program
    .command('email-auth')
    .description('email authentication of a domain: MX, SPF, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI')
    .argument('<domain>', 'the domain to check, e.g. example.com')
    .option('--ip <ip>', 'also evaluate SPF (RFC 7208) for this SMTP client address')
    .option('--sender <address>', 'MAIL FROM for the evaluation ("<>" = null sender)')
    .option('--helo <name>', 'HELO/EHLO name for the evaluation')
    .option('--dkim-selector <list>', 'DKIM selectors to try first, comma-separated')
    .option('--json', 'print the API data object')
    .action(async (domain: string, opts: EmailAuthFlags) => {
      const data = await withEngine(io, (engine) =>
        engine.emailAuth({
          domain,
          ip: opts.ip,
          sender: opts.sender,
          helo: opts.helo,
          dkimSelector: opts.dkimSelector,
        }),
      );
      output(io, opts.json === true, data, renderEmailAuth);
    });

  program
    .command('spf')
    .description("evaluate a domain's SPF policy for one client IP (RFC 7208 check_host)")
    .argument('<domain>', 'the domain whose policy is evaluated')
    .requiredOption('--ip <ip>', 'the SMTP client address')
    .option('--sender <address>', 'MAIL FROM (default postmaster@<domain>; "<>" = null sender)')
    .option('--helo <name>', 'HELO/EHLO name (default the domain)')
    .option('--json', 'print the evaluation object (data.spf.evaluation of the API)')
    .action(async (domain: string, opts: EmailAuthFlags & { ip: string }) => {
      const data = await withEngine(io, (engine) =>
        engine.evaluateSpf({ domain, ip: opts.ip, sender: opts.sender, helo: opts.helo }),
      );
      output(io, opts.json === true, data, renderSpfEvaluation);
    });
};

export function renderEmailAuth(data: EmailAuthReport): string {
  const lines = [
    `${data.domain}: grade ${data.summary.grade} (${data.summary.score}/100)`,
    '',
    ...data.summary.sections.map(
      (s) =>
        `  ${EMAIL_AUTH_SECTION_LABELS[s.section].padEnd(8)} ${s.status.padEnd(5)} ${sectionLine(data, s.section)}`,
    ),
  ];
  if (data.spf.terms.length > 0) {
    lines.push('', 'SPF terms (lookups, verdict):');
    for (const t of data.spf.terms) {
      const cost = t.dns_lookups > 0 ? String(t.dns_lookups) : '';
      lines.push(
        `  ${`${'  '.repeat(t.depth)}${t.term}`.padEnd(44)} ${cost.padStart(2)}  ${t.status.padEnd(4)} ${t.reason}`,
      );
    }
  }
  const notable: [string, Finding][] = [];
  for (const section of EMAIL_AUTH_SECTIONS) {
    for (const f of data[section].findings) {
      if (f.severity !== 'pass') notable.push([EMAIL_AUTH_SECTION_LABELS[section], f]);
    }
  }
  if (notable.length > 0) {
    lines.push('', 'Findings:');
    for (const [section, f] of notable) lines.push(`  [${f.severity}] ${section}: ${f.message}`);
  }
  if (data.spf.evaluation) lines.push('', renderSpfEvaluation(data.spf.evaluation));
  lines.push('', `Grading: ${data.summary.rule}`);
  return lines.join('\n');
}

function sectionLine(data: EmailAuthReport, section: string): string {
  switch (section) {
    case 'spf':
      return data.spf.record
        ? `${data.spf.record} (${data.spf.dns_lookups}/${data.spf.dns_lookup_limit} lookups, ${data.spf.void_lookups}/${data.spf.void_lookup_limit} void)`
        : 'no SPF record';
    case 'dmarc':
      return data.dmarc.record
        ? `p=${data.dmarc.applied_policy} (${data.dmarc.record_name})`
        : 'no DMARC record';
    case 'dkim': {
      const found = data.dkim.selectors.filter((s) => s.found);
      return found.length > 0
        ? found
            .map((s) => `${s.selector} (${s.key_type?.toUpperCase()} ${s.key_bits ?? '?'})`)
            .join(', ')
        : `no key at ${data.dkim.selectors_checked.length} selectors`;
    }
    case 'mx':
      if (data.mx.null_mx) return 'Null MX: accepts no mail';
      if (data.mx.implicit_mx) return `no MX; implicit: ${data.mx.implicit_addresses.join(', ')}`;
      return data.mx.records.length > 0
        ? data.mx.records.map((r) => `${r.preference} ${r.exchange}`).join(', ')
        : 'no MX';
    case 'mta_sts':
      if (!data.mta_sts.record) return 'no record';
      return data.mta_sts.policy
        ? `id ${data.mta_sts.id ?? '?'}, mode ${data.mta_sts.policy.mode ?? '?'}, mx ${data.mta_sts.policy.mx.join(', ')}`
        : `id ${data.mta_sts.id ?? '?'}, policy not available`;
    case 'tls_rpt':
      return data.tls_rpt.record ? data.tls_rpt.rua.join(', ') : 'no record';
    case 'bimi':
      return data.bimi.record ? (data.bimi.logo_url ?? 'declined') : 'no record';
    default:
      return '';
  }
}

export function renderSpfEvaluation(e: SpfEvaluation): string {
  const lines = [
    `SPF ${e.result} for ${e.ip} at ${e.domain} (MAIL FROM ${e.sender}, HELO ${e.helo})`,
    `  ${e.reason}`,
  ];
  if (e.explanation !== null) lines.push(`  explanation: ${e.explanation}`);
  lines.push(`  ${e.dns_lookups}/10 lookups, ${e.void_lookups}/2 void`);
  for (const step of e.trace) {
    const indent = '  '.repeat(step.depth + 1);
    lines.push(
      step.outcome === 'record'
        ? `  ${indent}${step.domain}: ${step.term}`
        : `  ${indent}${step.term || step.domain} → ${step.outcome}: ${step.detail}`,
    );
  }
  return lines.join('\n');
}
