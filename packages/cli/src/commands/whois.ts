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
} from '@netdiag/core/capabilities';
import { callCapability } from '../capability-call.js';
import { targetCommand } from '../command.js';
import type { RegisterCommand } from './types.js';

export const registerWhois: RegisterCommand = (program, ctx) => {
  targetCommand<WhoisResult | WhoisLookupResult | RdapResourceResult, { rdapOnly?: boolean }>(
    program,
    ctx,
    {
      name: 'whois',
      description:
        'registration data of a domain (RDAP, then WHOIS), an IP network or an AS number',
      operand: {
        name: 'query',
        help: 'a domain (example.com), an IP address (8.8.8.8) or an AS number (AS13335)',
        words: true,
      },
      configure: (command) =>
        command.option(
          '--rdap-only',
          'domains: RDAP only, as GET /api/v1/whois/:domain (no WHOIS fallback)',
        ),
      run: (engine, query, flags, { call }) => {
        const text = (query as string).trim();
        if (parseIp(text) || parseAsn(text) !== undefined) return engine.rdapResource(text, call);
        return callCapability(flags.rdapOnly ? 'whoisV1' : 'whois', engine, { domain: text }, call);
      },
      text: (data) => ('object_class' in data ? renderResource(data) : renderDomain(data)),
      // Registries throttle WHOIS per client: two at a time.
      jobs: 2,
    },
  );
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
