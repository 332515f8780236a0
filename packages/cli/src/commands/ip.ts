/**
 * `netdiag asn <query>`: the data of GET /api/asn. `netdiag lookup` is in lookup.ts, `netdiag
 * bulk` in bulk.ts.
 * @module
 */
import type { AsnSearchResult } from '@netdiag/core/capabilities';
import { callCapability } from '../capability-call.js';
import { targetCommand } from '../command.js';
import { table } from '../output/table.js';
import type { RegisterCommand } from './types.js';

export const registerAsn: RegisterCommand = (program, ctx) => {
  targetCommand<AsnSearchResult, object>(program, ctx, {
    name: 'asn',
    description: 'origin AS of an IP, prefixes of an AS (AS15169), or ASes matching a name',
    operand: { name: 'query', help: 'IP address, AS number or organisation name' },
    // Operands form one query (a name has spaces); a file or stdin holds one query per line.
    plan: (targets, _flags, { fromList }) =>
      fromList
        ? targets.map((t) => ({ input: t, arg: t }))
        : targets.length > 0
          ? [{ input: targets.join(' '), arg: targets.join(' ') }]
          : [],
    run: (engine, q, _flags, { call }) =>
      callCapability<AsnSearchResult>('searchAsn', engine, { q }, call),
    text: renderAsn,
    rows: (data) =>
      data.type === 'name'
        ? data.results
        : data.type === 'asn'
          ? [
              ...data.prefixes.ipv4.map((prefix) => ({ asn: data.asn, name: data.name, prefix })),
              ...data.prefixes.ipv6.map((prefix) => ({ asn: data.asn, name: data.name, prefix })),
            ]
          : [data],
  });
};

export function renderAsn(data: AsnSearchResult): string {
  if (data.type === 'ip') {
    if (data.bogon) return `${data.ip}: ${data.bogon_reason} (no AS)`;
    return [
      `${data.ip}  AS${data.asn} ${data.name}`,
      `  range   ${data.range?.first} - ${data.range?.last}`,
      `  prefix  ${data.prefix}`,
    ].join('\n');
  }
  if (data.type === 'asn') {
    const show = (list: string[]) =>
      list.length > 20 ? `${list.slice(0, 20).join(' ')} … (+${list.length - 20})` : list.join(' ');
    return [
      `AS${data.asn} ${data.name}`,
      `  IPv4  ${data.ipv4_prefix_count} prefixes, ${data.ipv4_address_count} addresses: ${show(data.prefixes.ipv4)}`,
      `  IPv6  ${data.ipv6_prefix_count} prefixes: ${show(data.prefixes.ipv6)}`,
    ].join('\n');
  }
  if (data.results.length === 0) return `No AS name matches "${data.query}"`;
  return [
    `${data.total_matches} match${data.total_matches === 1 ? '' : 'es'} for "${data.query}"${data.total_matches > data.results.length ? ` (first ${data.results.length})` : ''}`,
    table(
      data.results.map((r) => [
        `AS${r.asn}`,
        r.match,
        r.name,
        `(${r.ipv4_prefix_count} v4 / ${r.ipv6_prefix_count} v6 prefixes)`,
      ]),
    ).replace(/^/gm, '  '),
  ].join('\n');
}
