/**
 * `netdiag down`, `netdiag security-headers` and `netdiag ports`: the outbound probes, with
 * the same SSRF guard as the API (NETDIAG_ALLOWED_TARGETS exempts your own networks). The CLI
 * has no 100-port cap and shows a progress bar on stderr when stderr is a terminal.
 * @module
 */
import {
  type HeaderFinding,
  NetdiagError,
  type ScanPortsResult,
  type SecurityHeadersResult,
  type SiteCheckResult,
} from '@netdiag/core';
import { InvalidArgumentError } from 'commander';
import { withEngine } from '../context.js';
import { type CliIO, output } from '../io.js';
import type { RegisterCommand } from './types.js';

function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
      throw new InvalidArgumentError(`${name} must be a whole number above 0`);
    }
    return n;
  };
}

export const registerProbes: RegisterCommand = (program, { io }) => {
  program
    .command('down')
    .description('is a web site up? status, response time, server and certificate (GET /api/down)')
    .argument('<url>', 'URL or host name (https first, then http, when no scheme is given)')
    .option('--timeout <ms>', 'time budget of the whole check', positiveInt('--timeout'))
    .option('--json', 'print the API data object')
    .addHelpText('after', '\nExit code 3 when the site is down (the result is still printed).\n')
    .action(async (url: string, opts: { json?: boolean; timeout?: number }) => {
      const data = await withEngine(io, (engine) =>
        engine.checkSite(url, opts.timeout ? { timeout: opts.timeout } : {}),
      );
      output(io, opts.json === true, data, renderSite);
      if (!data.is_up) {
        throw new NetdiagError(
          'UPSTREAM_ERROR',
          `${data.url} is down: ${data.note ?? 'no answer'}`,
        );
      }
    });

  program
    .command('security-headers')
    .description('grade the HTTP security headers of a site (GET /api/security-headers)')
    .argument('<url>', 'URL or host name (https assumed)')
    .option('--json', 'print the API data object')
    .action(async (url: string, opts: { json?: boolean }) => {
      const data = await withEngine(io, (engine) => engine.securityHeaders(url));
      output(io, opts.json === true, data, renderHeaders);
    });

  program
    .command('ports')
    .description('TCP connect scan of a host (GET /api/ports, without the 100-port cap)')
    .argument('<host>', 'host name or IP address')
    .option(
      '-p, --ports <list>',
      'ports and ranges: 22,80,8000-8010 or 1-65535 (default: the catalog)',
    )
    .option(
      '--port-timeout <ms>',
      'connect timeout per port (default 1500)',
      positiveInt('--port-timeout'),
    )
    .option('--concurrency <n>', 'ports probed at once (default 50)', positiveInt('--concurrency'))
    .option('--all', 'list closed and filtered ports too')
    .option('--progress', 'force the progress bar on stderr')
    .option('--no-progress', 'never show the progress bar')
    .option('--json', 'print the API data object')
    .action(
      async (
        host: string,
        opts: {
          ports?: string;
          portTimeout?: number;
          concurrency?: number;
          all?: boolean;
          progress?: boolean;
          json?: boolean;
        },
      ) => {
        const showBar = opts.progress ?? process.stderr.isTTY === true;
        const bar = showBar ? progressBar(io) : undefined;
        try {
          const data = await withEngine(io, (engine) =>
            engine.scanPorts(
              {
                host,
                ...(opts.ports !== undefined ? { ports: opts.ports } : {}),
                ...(opts.portTimeout !== undefined ? { portTimeout: opts.portTimeout } : {}),
                ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
                ...(bar ? { onProgress: bar.update } : {}),
                maxPorts: false,
              },
              // A full 65535-port scan takes minutes; the per-port timeout bounds every probe.
              { timeout: false, limited: false },
            ),
          );
          bar?.done();
          output(io, opts.json === true, data, (d: ScanPortsResult) =>
            renderPorts(d, opts.all === true),
          );
        } catch (error) {
          bar?.done();
          throw error;
        }
      },
    );
};

/** A one-line progress bar redrawn with \r, at most every 100 ms, cleared at the end. */
export function progressBar(io: CliIO, width = 30) {
  let last = 0;
  let shown = false;
  return {
    update(done: number, total: number) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      shown = true;
      const filled = total === 0 ? width : Math.round((done / total) * width);
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      io.stderr(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ports ${percent}%`,
      );
    },
    done() {
      if (shown) io.stderr('\r\x1b[K');
      shown = false;
    },
  };
}

const label = (text: string) => `${text}:`.padEnd(14);

export function renderSite(data: SiteCheckResult): string {
  const status =
    data.status_code === null ? 'no answer' : `${data.status_code} ${data.status_text}`.trim();
  const time = data.response_time_ms === null ? '' : ` in ${data.response_time_ms} ms`;
  const lines = [`${data.url} is ${data.is_up ? 'UP' : 'DOWN'} (${status}${time})`];
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
    const trust = data.tls.trusted ? '' : `, NOT TRUSTED: ${data.tls.error}`;
    lines.push(`${label('Certificate')}${data.tls.issuer || 'unknown issuer'}${expiry}${trust}`);
  }
  if (data.note) lines.push(`${label('Note')}${data.note}`);
  return lines.join('\n');
}

export function renderHeaders(data: SecurityHeadersResult): string {
  const lines = [
    `${data.url}: grade ${data.grade} (score ${data.score}; MDN Observatory ${data.observatory.grade}, ${data.observatory.score})`,
    `${data.tests_passed} of ${data.tests_quantity} tests passed`,
    '',
  ];
  const width = Math.max(...data.headers.map((h: HeaderFinding) => h.title.length));
  for (const h of data.headers) {
    const points = h.score_modifier > 0 ? `+${h.score_modifier}` : String(h.score_modifier);
    lines.push(
      `${h.pass ? 'PASS' : 'FAIL'} ${points.padStart(4)}  ${h.title.padEnd(width)}  ${h.description}`,
    );
    if (h.recommendation && (!h.pass || h.score_modifier < 0))
      lines.push(`${' '.repeat(11)}→ ${h.recommendation}`);
  }
  if (data.note) lines.push('', `Note: ${data.note}`);
  return lines.join('\n');
}

export function renderPorts(data: ScanPortsResult, all: boolean): string {
  const seconds = (data.duration_ms / 1000).toFixed(1);
  const lines = [
    `${data.host}${data.host === data.ip ? '' : ` (${data.ip})`}: ${data.open_count} open, ${data.closed_count} closed, ${data.filtered_count} filtered of ${data.ports_scanned} ports in ${seconds} s`,
  ];
  if (data.note) lines.push(`Note: ${data.note}`);
  const shown = all ? data.results : data.results.filter((r) => r.state === 'open');
  if (shown.length > 0) {
    lines.push(
      '',
      `${'PORT'.padEnd(7)}${'STATE'.padEnd(10)}${'SERVICE'.padEnd(16)}${'LATENCY'.padEnd(10)}RISK`,
    );
    for (const r of shown) {
      const latency = r.latency_ms === null ? '-' : `${r.latency_ms} ms`;
      const risk = r.risk ? `${r.risk_level}: ${r.risk}` : '';
      lines.push(
        `${String(r.port).padEnd(7)}${r.state.padEnd(10)}${(r.service || '?').padEnd(16)}${latency.padEnd(10)}${risk}`,
      );
    }
  }
  return lines.join('\n');
}
