/**
 * The output formats every data command shares (`--format`, `--json`, `--fields`):
 * - `text`: the command's own rendering for people;
 * - `json`: the API's `data` object (pretty on a terminal, one line in a pipe); a batch is an
 *   array of items;
 * - `jsonl`: one item per line, written as each target finishes (in input order);
 * - `csv`: RFC 4180 (csv-stringify), one row per record of the answer (the command decides what
 *   a record is: a DNS record, a DNSBL, a port), an `input` column in a batch;
 * - `yaml`: the same document as `json`, in YAML (the `yaml` package).
 * A batch item is `{input, data}` or `{input, error: {code, message}}`.
 * On a terminal (`terminal`), text from outside is escaped here, once for every command
 * (`terminal.ts`): text, csv and yaml show control characters as dig does (`\027`), json and
 * jsonl stay the exact value (`\u001b`). In a pipe every format is written as it is.
 * @module
 */
import type { stringify as CsvStringify } from 'csv-stringify/sync';
import type { stringify as YamlStringify } from 'yaml';
import { cellOf, fieldRows, flatten, pick, selectFields } from './fields.js';
import { escapeControls, escapeJson, escapeStrings } from './terminal.js';

// The writers are loaded only for the format asked: yaml alone costs ~10 MB and tens of ms at
// start (measured with /usr/bin/time), which every text command would otherwise pay.
let csvStringify: typeof CsvStringify | undefined;
let yamlStringify: typeof YamlStringify | undefined;

/** Loads the library a format needs; call before writing in that format. */
export async function loadFormat(format: Format): Promise<void> {
  if (format === 'csv') csvStringify ??= (await import('csv-stringify/sync')).stringify;
  if (format === 'yaml') yamlStringify ??= (await import('yaml')).stringify;
}

/** The loaded CSV writer (RFC 4180 records ending in CRLF); cells escaped on a terminal. */
export function csvRecords(
  records: readonly object[],
  header: boolean,
  columns?: string[],
  terminal = false,
): string {
  if (!csvStringify) throw new Error('loadFormat("csv") was not called');
  return csvStringify((terminal ? escapeStrings(records) : records) as Record<string, unknown>[], {
    header,
    ...(columns ? { columns: terminal ? columns.map(escapeControls) : columns } : {}),
    record_delimiter: 'windows',
  });
}

/** The loaded YAML writer; strings escaped on a terminal. */
export function yamlDocument(value: unknown, terminal = false): string {
  if (!yamlStringify) throw new Error('loadFormat("yaml") was not called');
  return yamlStringify(terminal ? escapeStrings(value) : value, { lineWidth: 0 });
}

/** One JSON document and a newline: pretty or one line; on a terminal `\uXXXX` for controls. */
export function jsonDocument(value: unknown, pretty: boolean, terminal = false): string {
  const text = pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
  return `${terminal ? escapeJson(text) : text}\n`;
}

export const FORMATS = ['text', 'json', 'jsonl', 'csv', 'yaml'] as const;
export type Format = (typeof FORMATS)[number];

export type BatchItem<T> =
  | { input: string; data: T }
  | { input: string; error: { code: string; message: string } };

export interface WriterOptions<T> {
  format: Format;
  /** A batch (several targets, a file or stdin): items carry their input. */
  batch: boolean;
  fields: readonly string[] | undefined;
  pretty: boolean;
  /** stdout is a terminal: text from outside is escaped (module comment). */
  terminal?: boolean;
  /** Human rendering of one answer. */
  text: (data: T) => string;
  /** Rendering of one failed target in text. */
  textError: (input: string, message: string) => string;
  /** Text answers follow each other without a blank line; empty ones print nothing. */
  compact?: boolean;
  /** CSV records of one answer (default: the answer itself). */
  rows: ((data: T) => readonly object[]) | undefined;
  write: (text: string) => void;
}

/** Receives items in input order; writes what can be written at once, the rest at `end`. */
export interface Writer<T> {
  item(item: BatchItem<T>): void;
  end(): void;
}

export function createWriter<T>(options: WriterOptions<T>): Writer<T> {
  const { format, batch, fields, write } = options;
  const terminal = options.terminal === true;
  const shape = (data: T): unknown => (fields ? selectFields(data, fields) : data);
  const shapeItem = (item: BatchItem<T>) =>
    'data' in item ? { input: item.input, data: shape(item.data) } : item;
  const held: BatchItem<T>[] = [];
  let first = true;

  switch (format) {
    case 'jsonl':
      return {
        item: (item) => write(jsonDocument(shapeItem(item), false, terminal)),
        end: () => {},
      };
    case 'text':
      return {
        item(item) {
          // The renderer gets the answer escaped: its own layout and colour come after.
          const esc = terminal ? escapeControls : (t: string) => t;
          let text: string;
          if (!('data' in item)) text = options.textError(esc(item.input), esc(item.error.message));
          else if (fields) {
            const values = fields.map((f) => esc(cellOf(pick(item.data, f))));
            text = (batch ? [esc(item.input), ...values] : values).join('\t');
          } else {
            text = options
              .text(terminal ? escapeStrings(item.data) : item.data)
              .replace(/\n+$/, '');
          }
          if (options.compact) {
            if (text !== '') write(`${text}\n`);
            return;
          }
          // Blank line between multi-line answers of a batch; tab-separated lines stay dense.
          write(`${!first && batch && !fields ? '\n' : ''}${text}\n`);
          first = false;
        },
        end: () => {},
      };
    default:
      return {
        item: (item) => void held.push(item),
        end() {
          if (format === 'csv') {
            write(csv(held, options));
            return;
          }
          // yaml is escaped as text is; json as JSON escapes (jsonDocument).
          const items = terminal && format === 'yaml' ? held.map(escapeItem) : held;
          const doc = batch
            ? items.map(shapeItem)
            : items[0] && 'data' in items[0]
              ? shape(items[0].data)
              : undefined;
          if (doc === undefined) return; // a single failed target: the error goes to stderr
          if (format === 'yaml') write(yamlDocument(doc));
          else write(jsonDocument(doc, options.pretty, terminal));
        },
      };
  }
}

/** An item with the target, the answer and the error message escaped for a terminal. */
function escapeItem<T>(item: BatchItem<T>): BatchItem<T> {
  const input = escapeControls(item.input);
  return 'data' in item
    ? { input, data: escapeStrings(item.data) }
    : { input, error: { code: item.error.code, message: escapeControls(item.error.message) } };
}

function csv<T>(items: readonly BatchItem<T>[], options: WriterOptions<T>): string {
  const records: Record<string, string>[] = [];
  for (const item of items) {
    const lead: Record<string, string> = options.batch ? { input: item.input } : {};
    if (!('data' in item)) {
      records.push({ ...lead, error: item.error.message });
      continue;
    }
    if (options.fields) {
      for (const row of fieldRows(item.data, options.fields)) records.push({ ...lead, ...row });
      continue;
    }
    const rows = options.rows ? options.rows(item.data) : [item.data as object];
    for (const row of rows) records.push({ ...lead, ...flatten(row) });
  }
  if (records.length === 0) return '';
  // Columns in order of first appearance across every record (answers differ in shape).
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    for (const key of Object.keys(record)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  if (seen.has('error')) {
    columns.splice(columns.indexOf('error'), 1);
    columns.push('error');
  }
  return csvRecords(records, true, columns, options.terminal === true);
}
