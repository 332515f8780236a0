/**
 * `netdiag bulk [ips…] | -f file | -`: the data of POST /api/bulk for any number of addresses,
 * looked up in batches and streamed. A light command (index.ts): it imports only
 * `@netdiag/core/one-shot`, not the engine.
 * @module
 */
import type { BulkAnswerItem } from '@netdiag/core/capabilities';
import {
  type BulkEntryError,
  bulkAnswerItem,
  bulkLookup,
  InvalidInputError,
  InvalidIpError,
  isNetdiagError,
  openIpLookup,
} from '@netdiag/core/one-shot';
import { dataDir as ipDataDir } from '@netdiag/ip-data';
import { type CommonFlags, outputOptions, positiveInt, type Ui } from '../command.js';
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

export const registerBulk: RegisterCommand = (program, ctx) => {
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
};

/**
 * `netdiag bulk`: batches of CLI_BULK_BATCH through core's `bulkLookup` over the IP data opened
 * as `netdiag lookup` opens it (`openIpLookup`, feed copies applied; the engine's reader without
 * the engine, whose import costs ~100 ms: BENCHMARKS.md), each batch written as soon as it is
 * done (text, jsonl, csv) and the next one started once stdout has taken it, so 100,000
 * addresses stream in bounded memory; `json` and `yaml` are one document (the API's bulk
 * object) and are written at the end.
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
  const datasets = await openIpLookup({ env: io.env, ipDataDir, keep: true });
  try {
    for (let at = 0; at < entries.length; at += size) {
      const batch = entries.slice(at, at + size);
      let results: BulkAnswerItem[] = [];
      let errors: BulkEntryError[] = [];
      try {
        // `seen` drops an address answered in an earlier batch.
        const found = await bulkLookup(batch, { datasets, seen, maxIps: Number.POSITIVE_INFINITY });
        results = found.results.map(bulkAnswerItem);
        errors = found.errors;
      } catch (error) {
        // A batch with no valid address: every entry is an error, the others go on.
        if (!isNetdiagError(error, 'INVALID_INPUT')) throw error;
        errors = batch.map((input) => ({ input, error: error.message }));
      }
      document.total += results.length;
      switch (format) {
        case 'jsonl': {
          // One write per batch: a write per line cost 0.2 s of 100,000 (BENCHMARKS.md).
          const lines = results.map((r) => jsonDocument(shape(r), false, tty));
          for (const e of errors) {
            lines.push(jsonDocument({ input: e.input, error: e.error }, false, tty));
          }
          if (lines.length > 0) out(lines.join(''));
          break;
        }
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
      await io.drained?.();
    }
  } finally {
    bar.done();
    datasets.close();
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
