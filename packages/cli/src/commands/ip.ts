/**
 * IP intelligence on the command line: `netdiag lookup <ip>` (data of GET /api/lookup),
 * `netdiag bulk [ips...] | -f file | -` (data of POST /api/bulk, any number of addresses,
 * looked up in batches) and `netdiag asn <query>` (data of GET /api/asn).
 * @module
 */
import { readFile } from 'node:fs/promises';
import {
  type AsnSearchResult,
  type BulkAnswer,
  type BulkAnswerItem,
  type BulkEntryError,
  InvalidInputError,
  InvalidIpError,
  isNetdiagError,
  type LookupAnswer,
  requireIp,
} from '@netdiag/core';
import { withEngine } from '../context.js';
import { type CliIO, output } from '../io.js';
import type { RegisterCommand } from './types.js';

/** Addresses looked up per `bulkLookup` call: bounds memory, not the input size. */
export const CLI_BULK_BATCH = 1000;

type LookupData = LookupAnswer;
type BulkData = BulkAnswer;

export const registerIpIntel: RegisterCommand = (program, { io }) => {
  program
    .command('lookup')
    .description('geolocation, network and privacy flags of an IPv4 or IPv6 address')
    .argument('<ip>', 'IPv4 or IPv6 address')
    .option('--json', 'print the API data object (GET /api/lookup)')
    .action(async (ip: string, opts: { json?: boolean }) => {
      requireIp(ip, 'ip');
      const data = await withEngine(io, (engine) => engine.lookupIp(ip));
      output(io, opts.json === true, data, renderLookup);
    });

  program
    .command('bulk')
    .description('look up many addresses: arguments, a file (-f) or standard input (-)')
    .argument('[ips...]', 'addresses; "-" reads them from standard input')
    .option('-f, --file <path>', 'read addresses from a file (whitespace, comma or line separated)')
    .option('--json', 'print the API data object (as POST /api/bulk, without the 50 limit)')
    .action(async (args: string[], opts: { json?: boolean; file?: string }) => {
      const entries = await collectEntries(io, args, opts.file);
      if (entries.length === 0) {
        throw new InvalidInputError(
          'No addresses given: pass them as arguments, with -f <file>, or "-" for standard input',
          'ips',
        );
      }
      const json = opts.json === true;
      const data: BulkData = { total: 0, results: [], errors: [] };
      const seen = new Set<string>();
      await withEngine(io, async (engine) => {
        for (let at = 0; at < entries.length; at += CLI_BULK_BATCH) {
          const batch = entries.slice(at, at + CLI_BULK_BATCH);
          let results: BulkAnswerItem[] = [];
          try {
            const found = await engine.bulkLookup(batch, { maxIps: Number.POSITIVE_INFINITY });
            results = found.results.filter((r) => !seen.has(r.ip));
            data.errors.push(...found.errors);
          } catch (error) {
            // A batch with no valid address: every entry is an error, the others go on.
            if (!isNetdiagError(error, 'INVALID_INPUT')) throw error;
            for (const input of batch) data.errors.push({ input, error: error.message });
          }
          for (const r of results) seen.add(r.ip);
          data.results.push(...results);
          if (!json) {
            io.stdout(renderBulkRows(results, at === 0));
          }
        }
      });
      data.total = data.results.length;
      if (data.total === 0) throw new InvalidIpError('ips');
      if (json) output(io, true, data, () => '');
      else if (data.errors.length > 0) io.stdout(renderBulkErrors(data.errors));
    });

  program
    .command('asn')
    .description('origin AS of an IP, prefixes of an AS (AS15169), or ASes matching a name')
    .argument('<query...>', 'IP address, AS number or organisation name')
    .option('--json', 'print the API data object (GET /api/asn)')
    .action(async (words: string[], opts: { json?: boolean }) => {
      const q = words.join(' ');
      const data = await withEngine(io, (engine) => engine.searchAsn(q));
      output(io, opts.json === true, data, renderAsn);
    });
};

async function collectEntries(io: CliIO, args: string[], file?: string): Promise<string[]> {
  const texts: string[] = [];
  for (const arg of args) {
    if (arg === '-') {
      if (!io.stdin) throw new InvalidInputError('Standard input is not available', 'ips');
      texts.push(await io.stdin());
    } else {
      texts.push(arg);
    }
  }
  if (file !== undefined) {
    try {
      texts.push(await readFile(file, 'utf8'));
    } catch (error) {
      throw new InvalidInputError(`Cannot read ${file}: ${(error as Error).message}`, 'file');
    }
  }
  return texts
    .flatMap((text) => text.split('\n'))
    .map((line) => line.replace(/#.*$/, ''))
    .flatMap((line) => line.split(/[\s,]+/))
    .filter((entry) => entry !== '');
}

const orDash = (value: string | number | null) =>
  value === null || value === '' ? '-' : String(value);

function renderLookup(data: LookupData): string {
  const l = data.location;
  const n = data.network;
  const flags = Object.entries(data.privacy)
    .filter(([, on]) => on)
    .map(([name]) => name);
  const lines = [
    `${data.ip}${data.bogon ? '  (private or reserved address: no public data)' : ''}`,
    `  location   ${[l.city, l.region, l.country_name || l.country].filter(Boolean).join(', ') || '-'}`,
    `  coords     ${l.latitude === null ? '-' : `${l.latitude}, ${l.longitude}`}   timezone ${orDash(l.timezone)}`,
    `  network    ${n.asn === null ? '-' : `AS${n.asn}`} ${n.as_name}`,
    `  isp / org  ${orDash(n.isp)} / ${orDash(n.org)}`,
    `  privacy    ${flags.length ? flags.join(', ') : 'no hosting, proxy or mobile signal'}`,
  ];
  return lines.join('\n');
}

function renderBulkRows(rows: BulkAnswerItem[], header: boolean): string {
  const lines = rows.map(
    (r) =>
      `${r.ip.padEnd(39)}  ${orDash(r.country).padEnd(2)}  ${(r.asn === null ? '-' : `AS${r.asn}`).padEnd(10)}  ${orDash(r.city)}  ${r.bogon ? '(bogon)' : orDash(r.isp)}`,
  );
  if (header) lines.unshift(`${'IP'.padEnd(39)}  CC  ${'AS'.padEnd(10)}  CITY  ISP`);
  return lines.length ? `${lines.join('\n')}\n` : '';
}

function renderBulkErrors(errors: BulkEntryError[]): string {
  return `\n${errors.length} invalid ${errors.length === 1 ? 'entry' : 'entries'}:\n${errors
    .map((e) => `  ${e.input}: ${e.error}`)
    .join('\n')}\n`;
}

function renderAsn(data: AsnSearchResult): string {
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
    ...data.results.map(
      (r) =>
        `  ${`AS${r.asn}`.padEnd(12)} ${r.match.padEnd(6)}  ${r.name}  (${r.ipv4_prefix_count} v4 / ${r.ipv6_prefix_count} v6 prefixes)`,
    ),
  ].join('\n');
}
