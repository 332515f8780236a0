/**
 * `netdiag whois <domain|ip|ASN>`: a domain gives the data of `GET /api/whois` (RDAP, then
 * classic WHOIS; `--rdap-only` gives `GET /api/v1/whois/:domain`); an IP address or an AS
 * number gives its RDAP network/autnum record (an addition beyond SPEC).
 * @module
 */
import {
  parseAsn,
  parseIp,
  type RdapResourceResult,
  type WhoisLookupResult,
  type WhoisResult,
} from '@netdiag/core';
import { withEngine } from '../context.js';
import { output } from '../io.js';
import type { RegisterCommand } from './types.js';

export const registerWhois: RegisterCommand = (program, { io }) => {
  program
    .command('whois')
    .description('registration data of a domain (RDAP, then WHOIS), an IP network or an AS number')
    .argument(
      '<query>',
      'a domain (example.com), an IP address (8.8.8.8) or an AS number (AS13335)',
    )
    .option('--rdap-only', 'domains: RDAP only, as GET /api/v1/whois/:domain (no WHOIS fallback)')
    .option('--json', 'print the API data object')
    .action(async (query: string, opts: { json?: boolean; rdapOnly?: boolean }) => {
      const json = opts.json === true;
      const text = query.trim();
      if (parseIp(text) || parseAsn(text) !== undefined) {
        const data = await withEngine(io, (engine) => engine.rdapResource(text));
        output(io, json, data, renderResource);
        return;
      }
      if (opts.rdapOnly) {
        const data = await withEngine(io, (engine) => engine.whoisV1(text));
        output(io, json, data, renderDomain);
        return;
      }
      const data = await withEngine(io, (engine) => engine.whois(text));
      output(io, json, data, renderDomain);
    });
};

const UNKNOWN = 'unknown';

function line(label: string, value: string): string {
  return `${`${label}:`.padEnd(14)}${value === '' ? UNKNOWN : value}`;
}

export function renderDomain(data: WhoisResult | WhoisLookupResult): string {
  const source = 'source' in data ? ` (from ${data.source === 'rdap' ? 'RDAP' : 'WHOIS'})` : '';
  const registrar =
    data.registrar !== '' && data.registrar_iana_id !== null
      ? `${data.registrar} (IANA ${data.registrar_iana_id})`
      : data.registrar;
  const lines = [
    `${data.domain}${source}`,
    line('Registrar', registrar),
    line('Created', data.creation_date),
    line('Expires', data.expiration_date),
    line('Updated', data.last_updated),
    line('Status', data.status.join(', ')),
    line('Name servers', data.name_servers.join(', ')),
  ];
  if (data.rdap_link !== '') lines.push(line('RDAP record', data.rdap_link));
  return lines.join('\n');
}

export function renderResource(data: RdapResourceResult): string {
  const title = [data.handle, data.name].filter(Boolean).join(' ');
  const range =
    data.start === ''
      ? ''
      : data.end === '' || data.end === data.start
        ? data.start
        : `${data.start} – ${data.end}`;
  return [
    `${data.query}: ${title || UNKNOWN} (${data.object_class || 'RDAP record'})`,
    line('Range', range),
    line('Organization', data.organization),
    line('Country', data.country),
    line('Type', data.type),
    line('Status', data.status.join(', ')),
    line('Registered', data.creation_date),
    line('Updated', data.last_updated),
    line('RDAP record', data.rdap_link),
  ].join('\n');
}
