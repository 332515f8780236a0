/**
 * `netdiag dns`, `netdiag rdns`, `netdiag blacklist`: the data of `GET /api/dns` (or
 * `/api/v1/dns/:domain` with `--v1`), `/api/rdns` and `/api/blacklist`, through the engine's one
 * resolver (NETDIAG_DNS_SERVERS / NETDIAG_DOH_URL). `netdiag dns` keeps dig's habits:
 * `@server[:port]`, types as operands or `-t` (several at once), `-x ADDR`, `--short`, `--tcp`.
 * @module
 */
import {
  type BlacklistListResult,
  type BlacklistResult,
  createResolver,
  DNS_TYPES_V1,
  type DnsLookupResult,
  type DnsLookupV1Result,
  InvalidInputError,
  parseDnsServer,
  type ReverseDnsResult,
  requireIp,
  reverseName,
} from '@netdiag/core/capabilities';
import { InvalidArgumentError } from 'commander';
import { callCapability, capabilityParams } from '../capability-call.js';
import { targetCommand, type Ui } from '../command.js';
import { table } from '../output/table.js';
import type { RegisterCommand } from './types.js';

interface DnsFlags {
  type?: string[];
  reverse?: string[];
  server?: string;
  short?: boolean;
  tcp?: boolean;
  v1?: boolean;
  dnssec?: boolean;
}

interface DnsQuestion {
  domain: string;
  type: string;
}

const TYPE_NAMES = new Set<string>(DNS_TYPES_V1);

/** `-t A,MX -t TXT` → ['A', 'MX', 'TXT'], each checked against the types netdiag asks. */
function collectTypes(value: string, previous: string[] = []): string[] {
  const types = value
    .split(',')
    .map((t) => t.trim().toUpperCase())
    .filter((t) => t !== '');
  for (const t of types) {
    if (!TYPE_NAMES.has(t)) {
      throw new InvalidArgumentError(
        `unknown record type ${t}; use one of ${DNS_TYPES_V1.join(', ')}`,
      );
    }
  }
  return [...previous, ...types];
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `@192.0.2.1`, `@[2001:db8::1]:5353` → the server label; names are refused with a hint. */
function serverOf(text: string): string {
  const server = parseDnsServer(text);
  if (!server) {
    throw new InvalidInputError(
      `@${text}: give the DNS server as an IP address, optionally with a port (@192.0.2.1, @192.0.2.1:5353, @[2001:db8::1]:53)`,
    );
  }
  return server.label;
}

export const registerDns: RegisterCommand = (program, ctx) => {
  targetCommand<DnsLookupResult | DnsLookupV1Result, DnsFlags, DnsQuestion>(program, ctx, {
    name: 'dns',
    description: 'DNS records of a domain, presented as `dig` presents them (dig habits welcome)',
    operand: {
      name: 'domain',
      help: 'domain names (IDNs accepted), record types (MX, AAAA…) and @server, in any order, as with dig',
    },
    configure: (command) =>
      command
        .option(
          '-t, --type <types>',
          `record types, comma-separated or repeated (default A): ${DNS_TYPES_V1.join(', ')}`,
          collectTypes,
        )
        .option('-x, --reverse <address>', 'reverse lookup: the PTR record of an address', collect)
        .option('-s, --server <ip[:port]>', 'ask this DNS server (same as @server)')
        .option('--short', 'only the record data, one per line (dig +short)')
        .option('--tcp', 'ask over TCP (dig +tcp)')
        .option('--v1', 'the GET /api/v1/dns/:domain shape: names with a dot, ttl, authority')
        .option(
          '--dnssec',
          'set the DO bit (dig +dnssec): RRSIGs come along; shows the AD flag and Extended DNS Errors (implies --v1)',
        ),
    plan: (targets, flags) => {
      const domains: string[] = [];
      const types = [...(flags.type ?? [])];
      for (const target of targets) {
        if (target.startsWith('@')) flags.server = target.slice(1);
        else if (TYPE_NAMES.has(target.toUpperCase()) && !target.includes('.')) {
          types.push(target.toUpperCase());
        } else domains.push(target);
      }
      const questions: DnsQuestion[] = [];
      for (const address of flags.reverse ?? []) {
        questions.push({ domain: reverseName(requireIp(address, 'address')), type: 'PTR' });
      }
      for (const domain of domains) {
        for (const type of types.length > 0 ? types : ['A']) questions.push({ domain, type });
      }
      return questions.map((q) => ({ input: `${q.domain} ${q.type}`, arg: q }));
    },
    engine: (flags) => {
      if (flags.server === undefined && !flags.tcp) return undefined;
      const server = flags.server === undefined ? undefined : serverOf(flags.server);
      return (config) => ({
        resolver: createResolver({
          ...(server
            ? { servers: [server] }
            : config.dnsServers.length > 0
              ? { servers: config.dnsServers }
              : {}),
          // An explicit server is asked directly; otherwise the configured DoH endpoint stays.
          ...(server === undefined && config.dohUrl && !flags.tcp ? { dohUrl: config.dohUrl } : {}),
          ...(flags.tcp ? { tcp: true } : {}),
          cache: false,
        }),
      });
    },
    run: (engine, q, flags, { call }) =>
      flags.v1 || flags.dnssec
        ? callCapability<DnsLookupV1Result>(
            'dnsLookupV1',
            engine,
            { domain: q.domain, type: q.type, ...(flags.dnssec ? { dnssec: 'true' } : {}) },
            call,
          )
        : // dig's types in the /api/dns shape: the CLI asks every v1 type there (`allTypes`),
          // the domain read as every face reads it.
          capabilityParams('dnsLookup', { domain: q.domain }).then(({ domain }) =>
            engine.dns({ domain: domain as string, type: q.type, allTypes: true }, call),
          ),
    text: (data, ui, flags) => (flags.short ? renderShort(data) : renderDns(data, ui)),
    compact: (flags) => flags.short === true,
    rows: (data) =>
      data.records.map((r) => ({
        domain: data.domain,
        type: data.type,
        rcode: data.rcode,
        name: r.name,
        ttl: 'TTL' in r ? r.TTL : r.ttl,
        record_type: typeName(r.type),
        data: r.data,
      })),
    jobs: 8,
  });

  targetCommand<ReverseDnsResult, object>(program, ctx, {
    name: 'rdns',
    description: 'reverse DNS (PTR) of an IP address, with a forward-confirmation check',
    operand: { name: 'address', help: 'IPv4 or IPv6 address', words: true },
    run: (engine, ip, _flags, { call }) =>
      callCapability<ReverseDnsResult>('reverseDns', engine, { ip }, call),
    text: renderRdns,
    jobs: 8,
  });

  targetCommand<BlacklistResult, { failOnListed?: boolean }>(program, ctx, {
    name: 'blacklist',
    aliases: ['blocklist'],
    description: 'check an IP address against 12 DNS blocklists (DNSBLs)',
    operand: { name: 'address', help: 'IPv4 or IPv6 address', words: true },
    configure: (command) =>
      command.option('--fail-on-listed', 'exit 5 when any list has the address'),
    run: (engine, ip, _flags, { call }) =>
      callCapability<BlacklistResult>('blacklist', engine, { ip }, call),
    text: renderBlacklist,
    rows: (data) =>
      data.results.map((r) => ({
        ip: data.ip,
        list: r.name,
        zone: r.zone,
        status: r.status,
        response: r.response,
        meaning: r.meaning,
        reason: r.reason,
      })),
    gate: (data, flags) =>
      flags.failOnListed && data.listed_count > 0
        ? { message: `${data.ip} is listed on ${data.listed_count} of ${data.total_checked} lists` }
        : undefined,
  });
};

/** `dig +short`: the data of each record, one per line. */
export function renderShort(data: DnsLookupResult | DnsLookupV1Result): string {
  return data.records.map((r) => r.data).join('\n');
}

/** Zone-file-like lines (name, TTL, type, data), the way dig's answer section reads. */
export function renderDns(data: DnsLookupResult | DnsLookupV1Result, ui?: Ui): string {
  const rcode = data.rcode === 'NOERROR' ? data.rcode : (ui?.c.red(data.rcode) ?? data.rcode);
  const facts =
    'authenticated' in data
      ? `${data.authenticated ? ' (ad: validated by the resolver)' : ''}${(data.extended_errors ?? []).map((e) => ` [EDE ${e.code} ${e.name}${e.text ? `: ${e.text}` : ''}]`).join('')}`
      : '';
  const head = `${data.domain} ${data.type}: ${rcode}${facts}`;
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
  return `${head}\n${table(rows, { width: ui?.width })}`;
}

export function renderRdns(data: ReverseDnsResult, ui?: Ui): string {
  if (data.hostname === '') return `${data.ip}: no PTR record (${data.ptr_record}: ${data.rcode})`;
  const confirmed = data.fcrdns
    ? (ui?.c.green('forward-confirmed') ?? 'forward-confirmed')
    : (ui?.c.yellow('NOT forward-confirmed') ?? 'NOT forward-confirmed') +
      ': no PTR name resolves back to the address';
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

export function renderBlacklist(data: BlacklistResult, ui?: Ui): string {
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
  const c = ui?.c;
  return `${summary}\n${table(rows, {
    width: ui?.width,
    paint: (text, column, row) => {
      if (!c || column !== 0) return text;
      if (row[0] === 'LISTED') return c.red(c.bold(text));
      if (row[0] === 'clean') return c.green(text);
      return c.yellow(text);
    },
  })}`;
}

const TYPE_CODES: Record<number, string> = {
  1: 'A',
  2: 'NS',
  5: 'CNAME',
  6: 'SOA',
  12: 'PTR',
  15: 'MX',
  16: 'TXT',
  28: 'AAAA',
  33: 'SRV',
  35: 'NAPTR',
  43: 'DS',
  44: 'SSHFP',
  46: 'RRSIG',
  47: 'NSEC',
  48: 'DNSKEY',
  50: 'NSEC3',
  51: 'NSEC3PARAM',
  52: 'TLSA',
  59: 'CDS',
  60: 'CDNSKEY',
  64: 'SVCB',
  65: 'HTTPS',
  257: 'CAA',
};

function typeName(code: number): string {
  return TYPE_CODES[code] ?? `TYPE${code}`;
}
