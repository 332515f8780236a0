/**
 * `netdiag dns <domain>`, `netdiag rdns <ip>`, `netdiag blacklist <ip>`: the data of
 * `GET /api/dns` (or `/api/v1/dns/:domain` with `--v1`), `/api/rdns` and `/api/blacklist`,
 * through the same resolver service as the server (NETDIAG_DNS_SERVERS / NETDIAG_DOH_URL).
 * @module
 */
import type {
  BlacklistListResult,
  BlacklistResult,
  DnsLookupResult,
  DnsLookupV1Result,
  ReverseDnsResult,
} from '@netdiag/core';
import { withEngine } from '../context.js';
import { output } from '../io.js';
import type { RegisterCommand } from './types.js';

export const registerDns: RegisterCommand = (program, { io }) => {
  program
    .command('dns')
    .description('DNS records of a domain, as `dig +short` presents them')
    .argument('<domain>', 'domain name, e.g. example.com (IDNs accepted)')
    .option('-t, --type <type>', 'A, AAAA, MX, NS, TXT, CNAME, CAA, SOA (with --v1: SRV, PTR)', 'A')
    .option('--v1', 'the GET /api/v1/dns/:domain shape: names with a dot, ttl, authority section')
    .option('--json', 'print the API data object')
    .action(async (domain: string, opts: { type: string; v1?: boolean; json?: boolean }) => {
      const data = await withEngine<DnsLookupResult | DnsLookupV1Result>(io, (engine) =>
        opts.v1
          ? engine.dnsV1({ domain, type: opts.type })
          : engine.dns({ domain, type: opts.type }),
      );
      output(io, opts.json === true, data, renderDns);
    });

  program
    .command('rdns')
    .description('reverse DNS (PTR) of an IP address, with a forward-confirmation check')
    .argument('<ip>', 'IPv4 or IPv6 address')
    .option('--json', 'print the API data object')
    .action(async (ip: string, opts: { json?: boolean }) => {
      const data = await withEngine(io, (engine) => engine.reverseDns(ip));
      output(io, opts.json === true, data, renderRdns);
    });

  program
    .command('blacklist')
    .alias('blocklist')
    .description('check an IP address against 12 DNS blocklists (DNSBLs)')
    .argument('<ip>', 'IPv4 or IPv6 address')
    .option('--json', 'print the API data object')
    .action(async (ip: string, opts: { json?: boolean }) => {
      const data = await withEngine(io, (engine) => engine.blacklist(ip));
      output(io, opts.json === true, data, renderBlacklist);
    });
};

/** Zone-file-like lines (name, TTL, type, data), the way dig's answer section reads. */
export function renderDns(data: DnsLookupResult | DnsLookupV1Result): string {
  const head = `${data.domain} ${data.type}: ${data.rcode}`;
  if (data.rcode === 'NXDOMAIN') return `${head} (the domain does not exist)`;
  const rows = data.records.map((r) => {
    const ttl = 'TTL' in r ? r.TTL : r.ttl;
    return [r.name, String(ttl), typeName(r.type), r.data];
  });
  if ('authority' in data) {
    for (const r of data.authority) {
      rows.push([r.name, String(r.ttl), `${typeName(r.type)} (authority)`, r.data]);
    }
  }
  if (rows.length === 0) return `${head} (no ${data.type} records)`;
  return `${head}\n${table(rows)}`;
}

export function renderRdns(data: ReverseDnsResult): string {
  if (data.hostname === '') return `${data.ip}: no PTR record (${data.ptr_record}: ${data.rcode})`;
  const confirmed = data.fcrdns
    ? 'forward-confirmed'
    : 'NOT forward-confirmed: no PTR name resolves back to the address';
  const more = data.hostnames.length > 1 ? `\nall PTR names: ${data.hostnames.join(', ')}` : '';
  return `${data.ip} → ${data.hostname} (${confirmed})\nPTR name: ${data.ptr_record}${more}`;
}

const STATUS_TEXT: Record<BlacklistListResult['status'], string> = {
  listed: 'LISTED',
  not_listed: 'clean',
  error: 'error',
  timeout: 'timeout',
  skipped: 'skipped',
};

export function renderBlacklist(data: BlacklistResult): string {
  const summary =
    `${data.ip}: ${data.status} on ${data.listed_count} of ${data.total_checked} lists checked` +
    ` (${data.unavailable_count} unavailable` +
    `${data.skipped_count ? `, ${data.skipped_count} skipped` : ''}, ${data.total_lists} configured)`;
  const rows = data.results.map((r) => {
    const detail = [r.response.join(', '), r.meaning.join('; '), r.reason]
      .filter((s) => s !== '')
      .join(' · ');
    return [STATUS_TEXT[r.status], r.name, r.zone, detail];
  });
  return `${summary}\n${table(rows)}`;
}

const TYPE_NAMES: Record<number, string> = {
  1: 'A',
  2: 'NS',
  5: 'CNAME',
  6: 'SOA',
  12: 'PTR',
  15: 'MX',
  16: 'TXT',
  28: 'AAAA',
  33: 'SRV',
  257: 'CAA',
};

function typeName(code: number): string {
  return TYPE_NAMES[code] ?? `TYPE${code}`;
}

/** Left-aligned columns, the last one unpadded. */
function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
