/**
 * `netdiag tls HOST[:PORT]…`: the data of `GET /api/tls` — protocols, suites in server order,
 * the chain as served, ALPN, OCSP stapling, HSTS and an SSL Labs-style grade — with
 * `--fail-under GRADE` for CI.
 * @module
 */
import { InvalidInputError, parseHostPort, type TlsData } from '@netdiag/core/capabilities';
import { callCapability } from '../capability-call.js';
import { targetCommand, type Ui } from '../command.js';
import { gradeColor } from '../output/color.js';
import { table } from '../output/table.js';
import type { RegisterCommand } from './types.js';

const TLS_GRADES = ['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F'];
/** T (untrusted) and M (name mismatch) fail any gate: the connection is not secure. */
const RANK: Record<string, number> = { T: 99, M: 99 };
TLS_GRADES.forEach((g, i) => {
  RANK[g] = i;
});

function failUnder(value: string): string {
  const grade = value.trim().toUpperCase();
  if (!TLS_GRADES.includes(grade)) {
    throw new InvalidInputError(`--fail-under: give one of ${TLS_GRADES.join(', ')}`);
  }
  return grade;
}

/** `example.com`, `example.com:8443`, `[2001:db8::1]:443`, `https://example.com:8443/x`. */
function target(text: string): { host: string; port?: number } {
  const bare = text.replace(/^https?:\/\//i, '').replace(/\/.*$/, '');
  const parsed = parseHostPort(bare, { defaultPort: 443, names: true });
  // An IDN (münchen.de) is no LDH name yet: the engine converts it; only its port is read here.
  if (!parsed && !bare.includes(':')) return { host: bare };
  if (!parsed) throw new InvalidInputError(`"${text}" is not HOST or HOST:PORT`, 'host');
  return { host: parsed.host, port: parsed.port };
}

export const registerTls: RegisterCommand = (program, ctx) => {
  targetCommand<TlsData, { failUnder?: string; all?: boolean }>(program, ctx, {
    name: 'tls',
    description:
      'TLS protocols, cipher suites, certificate chain and an SSL Labs-style grade (GET /api/tls)',
    operand: { name: 'host', help: 'HOST or HOST:PORT (port 443 by default)', words: true },
    probe: true,
    configure: (command) =>
      command
        .option(
          '--fail-under <grade>',
          'exit 5 when the grade is below this (A+ … F; T and M always fail)',
          failUnder,
        )
        .option('--all', 'list every accepted suite (default: the first five per protocol)'),
    // A local run: the port in the operand is the user's own choice, so a well-known non-TLS
    // port (which the API faces refuse without allow_port) is checked as asked, and the
    // server-wide limiter of TLS checks does not apply (as for `netdiag ports`).
    run: (engine, text, _flags, { call }) => {
      const { host, port } = target(text as string);
      const ports = port === undefined ? {} : { port: String(port), allow_port: String(port) };
      return callCapability<TlsData>(
        'checkTls',
        engine,
        { host, ...ports },
        {
          ...call,
          limited: false,
        },
      );
    },
    text: (data, ui, flags) => renderTls(data, ui, flags.all === true),
    rows: (data) =>
      data.cipher_suites.flatMap((p) =>
        p.suites.map((s) => ({
          host: data.host,
          port: data.port,
          grade: data.grade,
          protocol: p.protocol,
          suite: s.name,
          iana: s.iana,
          key_exchange: s.key_exchange,
          cipher: s.cipher,
          bits: s.bits,
          forward_secrecy: s.forward_secrecy,
          aead: s.aead,
          strength: s.strength,
          group: s.group,
        })),
      ),
    gate: (data, flags) =>
      flags.failUnder !== undefined && (RANK[data.grade] ?? 99) > (RANK[flags.failUnder] ?? -1)
        ? {
            message: `${data.host}:${data.port}: TLS grade ${data.grade} is below --fail-under ${flags.failUnder}`,
          }
        : undefined,
    jobs: 2,
  });
};

export function renderTls(data: TlsData, ui?: Ui, all = false): string {
  const c = ui?.c;
  const grade = c ? gradeColor(c, data.grade) : data.grade;
  const extra =
    data.grade !== data.grade_ignoring_trust
      ? ` (${data.grade_ignoring_trust} if it were trusted)`
      : '';
  const leaf = data.certificates[0];
  const lines = [
    `${data.host}:${data.port} (${data.ip}): grade ${grade}${extra}, score ${data.score}`,
  ];
  for (const cap of data.caps) lines.push(`  ${cap.grade.padEnd(2)} ${cap.reason} (${cap.rule})`);
  for (const finding of data.findings) lines.push(`  Note: ${finding.message}`);
  lines.push(
    '',
    `Protocols:   ${data.protocols
      .map((p) => `${p.protocol} ${p.accepted === null ? 'n/a' : p.accepted ? 'yes' : 'no'}`)
      .join(', ')}`,
    `Negotiated:  ${data.negotiated.protocol} ${data.negotiated.cipher}${data.negotiated.group ? ` (${data.negotiated.group})` : ''}`,
    `ALPN:        h2 ${data.alpn.h2 ? 'yes' : 'no'}, http/1.1 ${data.alpn.http11 ? 'yes' : 'no'}; OCSP stapling ${data.ocsp_stapling ? 'yes' : 'no'}; resumption ${data.session_resumption ? 'yes' : 'no'}`,
    `HSTS:        ${data.hsts ? `max-age=${data.hsts.max_age}${data.hsts.include_subdomains ? '; includeSubDomains' : ''}${data.hsts.preload ? '; preload' : ''}` : 'none'}`,
  );
  if (leaf) {
    const trust = data.chain.trusted
      ? (c?.green('trusted') ?? 'trusted')
      : (c?.red(`NOT TRUSTED (${data.chain.error})`) ?? `NOT TRUSTED (${data.chain.error})`);
    lines.push(
      `Certificate: ${leaf.subject}; ${leaf.key_type} ${leaf.key_bits}, ${leaf.signature_algorithm}`,
      `             expires ${leaf.valid_to.slice(0, 10)} (${leaf.days_left} days left); ${trust}; name ${data.chain.hostname_match ? 'matches' : 'does NOT match'}; chain ${data.chain.served} served, ${data.chain.complete ? 'complete' : 'INCOMPLETE'}${data.chain.order === 'wrong' ? ', WRONG ORDER' : ''}`,
    );
  }
  for (const p of data.cipher_suites) {
    const shown = all ? p.suites : p.suites.slice(0, 5);
    lines.push('', `${p.protocol} suites${p.server_preference ? ' (server order)' : ''}:`);
    lines.push(
      table(
        shown.map((s) => [s.name, s.group ?? '', `${s.bits}`, s.strength]),
        {
          width: ui?.width,
          paint: (text, column, row) => {
            if (!c || column !== 3) return text;
            if (row[3] === 'strong') return c.green(text);
            if (row[3] === 'acceptable') return text;
            return c.red(text);
          },
        },
      ).replace(/^/gm, '  '),
    );
    if (shown.length < p.suites.length)
      lines.push(`  … ${p.suites.length - shown.length} more (--all)`);
  }
  return lines.join('\n');
}
