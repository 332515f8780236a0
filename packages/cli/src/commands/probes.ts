/**
 * `netdiag down`, `netdiag security-headers` and `netdiag ports`: the outbound probes, with
 * the same SSRF guard as the API (NETDIAG_ALLOWED_TARGETS exempts your own networks;
 * `--allow-private` your machine and LAN). The CLI has no 100-port cap and shows a progress bar
 * on stderr when stderr is a terminal.
 * @module
 */
import {
  type ScanPortsResult,
  SECURITY_GRADES,
  type SecurityHeadersData,
  type SiteCheckResult,
} from '@netdiag/core/capabilities';
import { callCapability, capabilityParams } from '../capability-call.js';
import { positiveInt, targetCommand, type Ui } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { gradeGate, gradeOption } from '../gates.js';
import { gradeColor } from '../output/color.js';
import { table } from '../output/table.js';
import type { RegisterCommand } from './types.js';

export const registerProbes: RegisterCommand = (program, ctx) => {
  targetCommand<SiteCheckResult, object>(program, ctx, {
    name: 'down',
    description: 'is a web site up? status, response time, server and certificate (GET /api/down)',
    operand: {
      name: 'url',
      help: 'URL or host name (https first, then http, when no scheme is given)',
      words: true,
    },
    probe: true,
    run: (engine, url, _flags, { call }) =>
      callCapability<SiteCheckResult>('checkSite', engine, { url }, call),
    text: renderSite,
    gate: (data) =>
      data.is_up
        ? undefined
        : { message: `${data.url} is down: ${data.note ?? 'no answer'}`, code: EXIT.network },
    helpAfter: 'Exit code 3 when a site is down (the result is still printed).',
  });

  targetCommand<SecurityHeadersData, { failUnder?: string }>(program, ctx, {
    name: 'security-headers',
    aliases: ['headers'],
    description: 'grade the HTTP security headers of a site (GET /api/security-headers)',
    operand: { name: 'url', help: 'URL or host name (https assumed)', words: true },
    probe: true,
    configure: (command) =>
      command.option(
        '--fail-under <grade>',
        'exit 5 when the grade is below this (A+ … F)',
        gradeOption(SECURITY_GRADES),
      ),
    run: (engine, url, _flags, { call }) =>
      callCapability<SecurityHeadersData>('gradeSecurityHeaders', engine, { url }, call),
    text: renderHeaders,
    rows: (data) =>
      data.headers.map((h) => ({
        url: data.url,
        grade: data.grade,
        test: h.test,
        pass: h.pass,
        score_modifier: h.score_modifier,
        title: h.title,
        description: h.description,
      })),
    gate: (data, flags) => gradeGate(data.url, data.grade, flags.failUnder),
  });

  targetCommand<ScanPortsResult, PortFlags>(program, ctx, {
    name: 'ports',
    description: 'TCP connect scan of a host (GET /api/ports, without the 100-port cap)',
    operand: { name: 'host', help: 'host name or IP address', words: true },
    probe: true,
    configure: (command) =>
      command
        .option(
          '-p, --ports <list>',
          'ports and ranges: 22,80,8000-8010 or 1-65535 (default: the catalog)',
        )
        .option(
          '--port-timeout <ms>',
          'connect timeout per port (default 1500)',
          positiveInt('--port-timeout'),
        )
        .option(
          '--concurrency <n>',
          'ports probed at once (default 100)',
          positiveInt('--concurrency'),
        )
        .option('--all', 'list closed and filtered ports too'),
    // The host and the port list are read as every face reads them; the tuning and the absent
    // 100-port cap are this face's own (a person scanning from their own terminal).
    run: async (engine, host, flags, { call, progress }) => {
      const params = await capabilityParams('scanPorts', { host, ports: flags.ports });
      return engine.scanPorts(
        {
          host: params['host'] as string,
          ...(params['ports'] !== undefined ? { ports: params['ports'] as string } : {}),
          ...(flags.portTimeout !== undefined ? { portTimeout: flags.portTimeout } : {}),
          ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}),
          onProgress: progress.update,
          maxPorts: false,
        },
        // A full 65535-port scan takes minutes; the per-port timeout bounds every probe.
        { signal: call.signal, timeout: call.timeout ?? false, limited: false },
      );
    },
    text: (data, ui, flags) => renderPorts(data, flags.all === true, ui),
    rows: (data) =>
      data.results.map((r) => ({
        host: data.host,
        ip: data.ip,
        port: r.port,
        state: r.state,
        service: r.service,
        latency_ms: r.latency_ms,
        risk_level: r.risk_level,
        risk: r.risk,
      })),
    jobs: 1,
  });
};

interface PortFlags {
  ports?: string;
  portTimeout?: number;
  concurrency?: number;
  all?: boolean;
}

const label = (text: string) => `${text}:`.padEnd(14);

export function renderSite(data: SiteCheckResult, ui?: Ui): string {
  const c = ui?.c;
  const status =
    data.status_code === null ? 'no answer' : `${data.status_code} ${data.status_text}`.trim();
  const time = data.response_time_ms === null ? '' : ` in ${data.response_time_ms} ms`;
  const verdict = data.is_up
    ? (c?.green(c.bold('UP')) ?? 'UP')
    : (c?.red(c.bold('DOWN')) ?? 'DOWN');
  const lines = [`${data.url} is ${verdict} (${status}${time})`];
  if (data.server) lines.push(`${label('Server')}${data.server}`);
  if (data.content_type) lines.push(`${label('Content-Type')}${data.content_type}`);
  if (data.powered_by) lines.push(`${label('Powered by')}${data.powered_by}`);
  if (data.redirects > 0) {
    lines.push(
      `${label('Final URL')}${data.final_url} (${data.redirects} redirect${data.redirects === 1 ? '' : 's'})`,
    );
  }
  if (data.ip) lines.push(`${label('Address')}${data.ip}`);
  if (data.tls) {
    const expiry = data.tls.valid_to
      ? `, expires ${data.tls.valid_to.slice(0, 10)} (${data.tls.days_left} days left)`
      : '';
    const untrusted = `NOT TRUSTED: ${data.tls.error}`;
    const trust = data.tls.trusted ? '' : `, ${c?.red(untrusted) ?? untrusted}`;
    lines.push(`${label('Certificate')}${data.tls.issuer || 'unknown issuer'}${expiry}${trust}`);
    if (data.tls.protocol) {
      const alpn = data.tls.alpn ? `, ALPN ${data.tls.alpn}` : '';
      lines.push(`${label('TLS')}${data.tls.protocol} ${data.tls.cipher ?? ''}${alpn}`.trimEnd());
    }
  }
  if (data.note) lines.push(`${label('Note')}${data.note}`);
  return lines.join('\n');
}

export function renderHeaders(data: SecurityHeadersData, ui?: Ui): string {
  const c = ui?.c;
  const grade = c ? gradeColor(c, data.grade) : data.grade;
  const lines = [
    `${data.url}: grade ${grade} (score ${data.score}; MDN Observatory ${data.observatory.grade}, ${data.observatory.score})`,
    `${data.tests_passed} of ${data.tests_quantity} tests passed`,
    '',
  ];
  const rows: string[][] = [];
  for (const h of data.headers) {
    const points = h.score_modifier > 0 ? `+${h.score_modifier}` : String(h.score_modifier);
    rows.push([h.pass ? 'PASS' : 'FAIL', points.padStart(4), h.title, h.description]);
    if (h.recommendation && (!h.pass || h.score_modifier < 0)) {
      rows.push(['', '', '', `→ ${h.recommendation}`]);
    }
  }
  lines.push(
    table(rows, {
      width: ui?.width,
      paint: (text, column, row) => {
        if (!c || column !== 0 || row[0] === '') return text;
        return row[0] === 'PASS' ? c.green(text) : c.red(c.bold(text));
      },
    }),
  );
  if (data.note) lines.push('', `Note: ${data.note}`);
  return lines.join('\n');
}

export function renderPorts(data: ScanPortsResult, all: boolean, ui?: Ui): string {
  const c = ui?.c;
  const seconds = (data.duration_ms / 1000).toFixed(1);
  const lines = [
    `${data.host}${data.host === data.ip ? '' : ` (${data.ip})`}: ${data.open_count} open, ${data.closed_count} closed, ${data.filtered_count} filtered of ${data.ports_scanned} ports in ${seconds} s`,
  ];
  if (data.note) lines.push(`Note: ${data.note}`);
  const shown = all ? data.results : data.results.filter((r) => r.state === 'open');
  if (shown.length > 0) {
    lines.push(
      '',
      table(
        shown.map((r) => [
          String(r.port),
          r.state,
          r.service || '?',
          r.latency_ms === null ? '-' : `${r.latency_ms} ms`,
          r.risk ? `${r.risk_level}: ${r.risk}` : '',
        ]),
        {
          header: ['PORT', 'STATE', 'SERVICE', 'LATENCY', 'RISK'],
          width: ui?.width,
          paint: (text, column, row) => {
            if (!c || column !== 1) return text;
            if (row[1] === 'open') return c.green(text);
            return row[1] === 'STATE' ? text : c.dim(text);
          },
        },
      ),
    );
  }
  return lines.join('\n');
}
