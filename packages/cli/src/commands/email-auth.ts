/**
 * `netdiag email-auth <domain>`: the data of `GET /api/email-auth` (MX, SPF, DMARC, DKIM,
 * MTA-STS, TLS-RPT, BIMI and a grade), and `netdiag spf <domain> --ip <ip>`: one RFC 7208
 * evaluation, the object the API returns as `data.spf.evaluation`.
 * @module
 */
import {
  EMAIL_AUTH_GRADES,
  EMAIL_AUTH_SECTION_LABELS,
  EMAIL_AUTH_SECTIONS,
  type EmailAuthData,
  type Finding,
  type SpfEvaluation,
} from '@netdiag/core/capabilities';
import { callCapability } from '../capability-call.js';
import { targetCommand, type Ui } from '../command.js';
import { gradeGate, gradeOption } from '../gates.js';
import { gradeColor } from '../output/color.js';
import type { RegisterCommand } from './types.js';

interface EmailAuthFlags {
  ip?: string;
  sender?: string;
  helo?: string;
  dkimSelector?: string;
  failUnder?: string;
}

export const registerEmailAuth: RegisterCommand = (program, ctx) => {
  targetCommand<EmailAuthData, EmailAuthFlags>(program, ctx, {
    name: 'email-auth',
    description: 'email authentication of a domain: MX, SPF, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI',
    operand: { name: 'domain', help: 'the domain to check, e.g. example.com', words: true },
    configure: (command) =>
      command
        .option('--ip <ip>', 'also evaluate SPF (RFC 7208) for this SMTP client address')
        .option('--sender <address>', 'MAIL FROM for the evaluation ("<>" = null sender)')
        .option('--helo <name>', 'HELO/EHLO name for the evaluation')
        .option('--dkim-selector <list>', 'DKIM selectors to try first, comma-separated')
        .option(
          '--fail-under <grade>',
          'exit 5 when the grade is below this (A … F)',
          gradeOption(EMAIL_AUTH_GRADES),
        ),
    run: (engine, domain, flags, { call }) =>
      callCapability<EmailAuthData>(
        'checkEmailAuth',
        engine,
        {
          domain,
          ip: flags.ip,
          sender: flags.sender,
          helo: flags.helo,
          dkim_selector: flags.dkimSelector,
        },
        call,
      ),
    text: renderEmailAuth,
    words: { ip: '--ip' },
    rows: (data) =>
      data.summary.sections.map((s) => ({
        domain: data.domain,
        grade: data.summary.grade,
        score: data.summary.score,
        section: s.section,
        status: s.status,
        detail: sectionLine(data, s.section),
      })),
    gate: (data, flags) =>
      gradeGate(`${data.domain}: email authentication`, data.summary.grade, flags.failUnder),
  });

  targetCommand<SpfEvaluation, EmailAuthFlags & { ip: string }>(program, ctx, {
    name: 'spf',
    description: "evaluate a domain's SPF policy for one client IP (RFC 7208 check_host)",
    operand: { name: 'domain', help: 'the domain whose policy is evaluated', words: true },
    configure: (command) =>
      command
        .requiredOption('--ip <ip>', 'the SMTP client address')
        .option('--sender <address>', 'MAIL FROM (default postmaster@<domain>; "<>" = null sender)')
        .option('--helo <name>', 'HELO/EHLO name (default the domain)'),
    run: (engine, domain, flags, { call }) =>
      callCapability<SpfEvaluation>(
        'evaluateSpf',
        engine,
        { domain, ip: flags.ip, sender: flags.sender, helo: flags.helo },
        call,
      ),
    text: renderSpfEvaluation,
    words: { ip: '--ip' },
    rows: (e) => e.trace.map((step) => ({ result: e.result, ...step })),
  });
};

export function renderEmailAuth(data: EmailAuthData, ui?: Ui): string {
  const c = ui?.c;
  const grade = c ? gradeColor(c, data.summary.grade) : data.summary.grade;
  const status = (text: string) => {
    if (!c) return text;
    if (text.startsWith('pass')) return c.green(text);
    if (text.startsWith('fail')) return c.red(text);
    return c.yellow(text);
  };
  const lines = [
    `${data.domain}: grade ${grade} (${data.summary.score}/100)`,
    '',
    ...data.summary.sections.map(
      (s) =>
        `  ${EMAIL_AUTH_SECTION_LABELS[s.section].padEnd(8)} ${status(s.status.padEnd(5))} ${sectionLine(data, s.section)}`,
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

function sectionLine(data: EmailAuthData, section: string): string {
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
