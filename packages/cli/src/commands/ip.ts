/**
 * IP intelligence on the command line: `netdiag bulk [ips…] | -f file | -` (data of POST
 * /api/bulk, any number of addresses, looked up in batches and streamed) and `netdiag asn
 * <query>` (data of GET /api/asn). `netdiag lookup` is in lookup.ts.
 * @module
 */
import {
  type AsnSearchResult,
  type BulkAnswerItem,
  type BulkEntryError,
  InvalidInputError,
  InvalidIpError,
  isNetdiagError,
} from '@netdiag/core/capabilities';
import { callCapability } from '../capability-call.js';
import {
  type CommonFlags,
  outputOptions,
  positiveInt,
  targetCommand,
  type Ui,
} from '../command.js';
import { withEngine } from '../context.js';
import { colorEnabled, colors } from '../output/color.js';
import { flatten, parseFields, selectFields } from '../output/fields.js';
import {
  csvRecords,
  type Format,
  jsonDocument,
  loadFormat,
  yamlDocument,
} from '../output/formats.js';
import { progressBar } from '../output/progress.js';
import { table } from '../output/table.js';
import { escapeStrings } from '../output/terminal.js';
import { collectTargets } from '../targets.js';
import { orDash } from './lookup.js';
import type { RegisterCommand } from './types.js';

/** Addresses looked up per `bulkLookup` call: bounds memory, not the input size. */
export const CLI_BULK_BATCH = 1000;

export const registerIpIntel: RegisterCommand = (program, ctx) => {
  const { io } = ctx;
  const bulkCommand = program
    .command('bulk')
    .description(
      'look up many addresses at once, streamed: arguments, a file (-f) or standard input (-)',
    )
    .argument('[ips...]', 'addresses; "-" reads them from standard input')
    .option('-f, --file <path>', 'read addresses from a file (whitespace, comma or line separated)')
    .option('--progress', 'show the progress bar even when stderr is not a terminal')
    .option('--no-progress', 'never show the progress bar')
    .option(
      '--batch-size <n>',
      `addresses per lookup batch (default ${CLI_BULK_BATCH})`,
      positiveInt('--batch-size'),
    );
  outputOptions(bulkCommand).action(
    async (args: string[], flags: CommonFlags & { batchSize?: number }) => {
      const { targets } = await collectTargets(io, {
        operands: args,
        file: flags.file,
        splitWords: true,
      });
      if (targets.length === 0) {
        throw new InvalidInputError(
          'no addresses given: pass them as arguments, with -f FILE, or "-" to read standard input',
          'ips',
        );
      }
      ctx.exit.code = await bulk(io, targets, flags);
    },
  );

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

/**
 * `netdiag bulk`: batches of CLI_BULK_BATCH through `bulkLookup`, each written as soon as it is
 * done (text, jsonl, csv), so 100,000 addresses stream in bounded memory; `json` and `yaml` are
 * one document (the API's bulk object) and are written at the end.
 */
async function bulk(
  io: Parameters<RegisterCommand>[1]['io'],
  entries: string[],
  flags: CommonFlags & { batchSize?: number },
): Promise<number> {
  const format: Format = flags.json ? 'json' : (flags.format ?? 'text');
  await loadFormat(format);
  const fields = flags.fields !== undefined ? parseFields(flags.fields) : undefined;
  const shape = (r: BulkAnswerItem) => (fields ? selectFields(r, fields) : r);
  const c = colors(format === 'text' && colorEnabled(io, flags.color));
  const width = io.stdoutIsTTY ? io.columns : undefined;
  // On a terminal, text from outside (ISP names, the entries given) is escaped (terminal.ts).
  const tty = io.stdoutIsTTY === true;
  const size = flags.batchSize ?? CLI_BULK_BATCH;
  const bar = progressBar(io, 'addresses', flags.progress ?? io.stderrIsTTY === true);
  // Answers and the bar may share one terminal: wipe the bar before each write.
  const out = (text: string) => {
    bar.clear();
    io.stdout(text);
  };
  const document = { total: 0, results: [] as unknown[], errors: [] as BulkEntryError[] };
  const seen = new Set<string>();
  let csvHeader = true;
  let textHeader = true;
  try {
    await withEngine(io, async (engine) => {
      for (let at = 0; at < entries.length; at += size) {
        const batch = entries.slice(at, at + size);
        let results: BulkAnswerItem[] = [];
        let errors: BulkEntryError[] = [];
        try {
          const found = await engine.bulkLookup(batch, { maxIps: Number.POSITIVE_INFINITY });
          results = found.results.filter((r) => !seen.has(r.ip));
          errors = found.errors;
        } catch (error) {
          // A batch with no valid address: every entry is an error, the others go on.
          if (!isNetdiagError(error, 'INVALID_INPUT')) throw error;
          errors = batch.map((input) => ({ input, error: error.message }));
        }
        for (const r of results) seen.add(r.ip);
        document.total += results.length;
        switch (format) {
          case 'jsonl':
            for (const r of results) out(jsonDocument(shape(r), false, tty));
            for (const e of errors)
              out(jsonDocument({ input: e.input, error: e.error }, false, tty));
            break;
          case 'csv': {
            const rows = results.map((r) => flatten(shape(r)));
            if (rows.length > 0) {
              out(csvRecords(rows, csvHeader, undefined, tty));
              csvHeader = false;
            }
            document.errors.push(...errors);
            break;
          }
          case 'text':
            if (results.length > 0) {
              out(
                `${renderBulkRows(tty ? escapeStrings(results) : results, textHeader, { c, width })}\n`,
              );
              textHeader = false;
            }
            document.errors.push(...errors);
            break;
          default:
            document.results.push(...results.map(shape));
            document.errors.push(...errors);
        }
        bar.update(Math.min(at + size, entries.length), entries.length);
      }
    });
  } finally {
    bar.done();
  }
  if (format === 'json') out(jsonDocument(document, tty, tty));
  else if (format === 'yaml') out(yamlDocument(document, tty));
  else if (document.errors.length > 0) {
    // Text lists invalid entries after the table; CSV keeps stdout to rows of one shape.
    const safe = (on: boolean) => (on ? escapeStrings(document.errors) : document.errors);
    if (format === 'text') out(`\n${renderBulkErrors(safe(tty))}`);
    else io.stderr(renderBulkErrors(safe(io.stderrIsTTY === true)));
  }
  if (document.total === 0) throw new InvalidIpError('ips');
  return 0;
}

/** IPv6 addresses are up to 39 characters: the first column is sized for them in every batch. */
const IP_COLUMN = 39;

function renderBulkRows(rows: BulkAnswerItem[], header: boolean, ui: Ui): string {
  return table(
    rows.map((r) => [
      r.ip.padEnd(IP_COLUMN),
      orDash(r.country).padEnd(2),
      (r.asn === null ? '-' : `AS${r.asn}`).padEnd(10),
      orDash(r.city).padEnd(20),
      r.bogon ? '(bogon)' : orDash(r.isp),
    ]),
    {
      width: ui.width,
      ...(header
        ? { header: ['IP'.padEnd(IP_COLUMN), 'CC', 'AS'.padEnd(10), 'CITY'.padEnd(20), 'ISP'] }
        : {}),
      paint: (text, column, row) =>
        column === 0 && row[0] === 'IP'.padEnd(IP_COLUMN) ? ui.c.bold(text) : text,
    },
  );
}

function renderBulkErrors(errors: BulkEntryError[]): string {
  return `${errors.length} invalid ${errors.length === 1 ? 'entry' : 'entries'}:\n${errors
    .map((e) => `  ${e.input}: ${e.error}`)
    .join('\n')}\n`;
}

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
