/**
 * `netdiag dnssec DOMAIN…`: the data of `GET /api/dnssec` — netdiag's own DNSSEC validation from
 * the root trust anchor, with the chain of zones — and `--fail-on bogus,insecure` for CI.
 * `@server` / `--server` picks the resolver (asked with DO and CD), `--trust-anchor FILE` a
 * private root, `--max-queries` the question budget (the library's default, 200).
 * @module
 */
import { readFileSync } from 'node:fs';
import {
  createResolver,
  DNS_TYPES_V1,
  DNSSEC_LIMITS,
  type DnssecResult,
  type DnssecStatus,
  InvalidInputError,
  parseDnsServer,
  type SignatureCheck,
  type ZoneLink,
} from '@netdiag/core/capabilities';
import { InvalidArgumentError } from 'commander';
import { callCapability } from '../capability-call.js';
import { positiveInt, targetCommand, type Ui } from '../command.js';
import { table } from '../output/table.js';
import type { RegisterCommand } from './types.js';

interface DnssecFlags {
  type?: string;
  server?: string;
  trustAnchor?: string;
  maxQueries?: number;
  failOn?: DnssecStatus[];
}

const STATUSES: readonly DnssecStatus[] = ['secure', 'insecure', 'bogus', 'indeterminate'];

function parseType(value: string): string {
  const type = value.trim().toUpperCase();
  if (!(DNS_TYPES_V1 as readonly string[]).includes(type)) {
    throw new InvalidArgumentError(
      `unknown record type ${type}; use one of ${DNS_TYPES_V1.join(', ')}`,
    );
  }
  return type;
}

function parseFailOn(value: string): DnssecStatus[] {
  const list = value.split(',').map((s) => s.trim().toLowerCase());
  for (const status of list) {
    if (!(STATUSES as readonly string[]).includes(status)) {
      throw new InvalidArgumentError(`--fail-on: give statuses among ${STATUSES.join(', ')}`);
    }
  }
  return list as DnssecStatus[];
}

export const registerDnssec: RegisterCommand = (program, ctx) => {
  targetCommand<DnssecResult, DnssecFlags, string>(program, ctx, {
    name: 'dnssec',
    description:
      'DNSSEC validation by netdiag itself, from the root trust anchor down (GET /api/dnssec)',
    operand: {
      name: 'domain',
      help: 'domain names, and optionally @server as with dig',
      words: true,
    },
    configure: (command) =>
      command
        .option(
          '-t, --type <type>',
          `record type to validate (default A): ${DNS_TYPES_V1.join(', ')}`,
          parseType,
        )
        .option(
          '-s, --server <ip[:port]>',
          'ask this resolver (same as @server), with DO and CD set',
        )
        .option(
          '--trust-anchor <file>',
          'DS or DNSKEY records (zone-file lines) to start from instead of the IANA root KSKs',
        )
        .option(
          '--max-queries <n>',
          `DNS questions one validation may ask, CNAMEs included; past it the answer is indeterminate (default ${DNSSEC_LIMITS.maxQueries})`,
          positiveInt('--max-queries'),
        )
        .option(
          '--fail-on <statuses>',
          `exit 5 when the status is one of these, comma-separated (${STATUSES.join(', ')})`,
          parseFailOn,
        ),
    plan: (targets, flags) => {
      const domains: string[] = [];
      for (const target of targets) {
        if (target.startsWith('@')) flags.server = target.slice(1);
        else domains.push(target);
      }
      return domains.map((domain) => ({ input: domain, arg: domain }));
    },
    engine: (flags) => {
      if (
        flags.server === undefined &&
        flags.trustAnchor === undefined &&
        flags.maxQueries === undefined
      ) {
        return undefined;
      }
      const server = flags.server === undefined ? undefined : serverOf(flags.server);
      const anchors = flags.trustAnchor === undefined ? undefined : readAnchors(flags.trustAnchor);
      return () => ({
        ...(server ? { resolver: createResolver({ servers: [server], cache: false }) } : {}),
        ...(anchors !== undefined ? { dnssecTrustAnchors: anchors } : {}),
        ...(flags.maxQueries !== undefined ? { dnssecMaxQueries: flags.maxQueries } : {}),
      });
    },
    run: (engine, domain, flags, { call }) =>
      callCapability<DnssecResult>('validateDnssec', engine, { domain, type: flags.type }, call),
    text: (data, ui) => renderDnssec(data, ui),
    rows: (data) =>
      data.chain.map((link) => ({
        name: data.name,
        type: data.type,
        status: data.status,
        zone: link.zone,
        zone_status: link.status,
        ds: link.ds
          .map((d) => `${d.key_tag}/${d.algorithm}/${d.digest_type} ${d.outcome}`)
          .join('; '),
        dnskeys: link.dnskeys.map((k) => `${k.key_tag}/${k.algorithm} ${k.role}`).join('; '),
        failure: data.failure?.rule ?? '',
      })),
    gate: (data, flags) =>
      flags.failOn?.includes(data.status)
        ? {
            message: `${data.name} ${data.type}: DNSSEC ${data.status} (--fail-on ${flags.failOn.join(',')})`,
          }
        : undefined,
    jobs: 4,
    helpAfter:
      '\nExit status: 5 when --fail-on names the status found.\n' +
      'Examples:\n  netdiag dnssec example.com\n  netdiag dnssec -t MX example.com --fail-on bogus\n',
  });
};

function serverOf(text: string): string {
  const server = parseDnsServer(text);
  if (!server) {
    throw new InvalidInputError(
      `@${text}: give the DNS server as an IP address, optionally with a port (@192.0.2.1, @192.0.2.1:5353)`,
    );
  }
  return server.label;
}

function readAnchors(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new InvalidInputError(
      `--trust-anchor: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

const day = (iso: string) => iso.slice(0, 10);

function signatures(checks: readonly SignatureCheck[]): string {
  return checks
    .map(
      (s) =>
        `${s.key_tag}/${s.algorithm} ${s.outcome}${s.outcome === 'valid' ? ` until ${day(s.expiration)}` : ''}`,
    )
    .join(', ');
}

function linkRow(link: ZoneLink): string[] {
  const ds =
    link.no_ds_proof !== undefined
      ? `no DS (${link.no_ds_proof.kind.toUpperCase()}${link.no_ds_proof.opt_out ? ' opt-out' : ''} proof)`
      : link.ds.map((d) => `DS ${d.key_tag}/${d.algorithm} ${d.outcome}`).join(', ') || 'no DS';
  const keys = link.dnskeys.map((k) => `${k.key_tag} ${k.role}`).join(', ');
  return [
    link.zone,
    link.status,
    `${link.ds_source === 'trust-anchor' ? 'anchor ' : ''}${ds}`,
    keys ? `keys ${keys}` : '',
    link.dnskey_signatures.length ? `DNSKEY signed: ${signatures(link.dnskey_signatures)}` : '',
  ];
}

export function renderDnssec(data: DnssecResult, ui?: Ui): string {
  const c = ui?.c;
  const word = data.status.toUpperCase();
  const painted =
    data.status === 'secure'
      ? (c?.green(word) ?? word)
      : data.status === 'bogus'
        ? (c?.red(c.bold(word)) ?? word)
        : (c?.yellow(word) ?? word);
  const lines = [`${data.name} ${data.type}: ${painted}`, `  ${data.reason}`];
  if (data.failure) {
    const f = data.failure;
    lines.push(
      '',
      `Failure at ${f.zone} (${f.rrset})${f.key_tag !== undefined ? `, key ${f.key_tag}/${f.algorithm}` : ''}:`,
      `  ${f.rule}`,
    );
    if (f.signatures?.length) lines.push(`  signatures: ${signatures(f.signatures)}`);
  }
  if (data.chain.length > 0) {
    lines.push(
      '',
      'Chain:',
      table(data.chain.map(linkRow), { width: ui?.width }).replace(/^/gm, '  '),
    );
  }
  if (data.answer) {
    lines.push(
      '',
      `Answer: ${data.answer.rcode}${data.answer.wildcard ? ` (from the wildcard ${data.answer.wildcard})` : ''}`,
    );
    for (const record of data.answer.records) lines.push(`  ${record}`);
    if (data.answer.signatures.length)
      lines.push(`  signatures: ${signatures(data.answer.signatures)}`);
    if (data.answer.denial) {
      lines.push(`  ${data.answer.denial.kind.toUpperCase()} proof: ${data.answer.denial.proves}`);
    }
  }
  const last = data.chain.at(-1);
  if (last?.no_ds_proof) {
    lines.push('', `No DS for ${last.zone}: ${last.no_ds_proof.proves}`);
    for (const record of last.no_ds_proof.records) lines.push(`  ${record}`);
  }
  return lines.join('\n');
}
