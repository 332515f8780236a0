/**
 * `--fields a,b.c`: picks dot paths out of an answer. A path walks objects by key and arrays by
 * index (`records.0.data`) or across every element (`records.data` = the `data` of each record),
 * the way people write paths for jq-less selection.
 * @module
 */

/** The value at `path` in `value`, or `undefined` when nothing is there. */
export function pick(value: unknown, path: string): unknown {
  let current: unknown[] = [value];
  let spread = false;
  for (const key of path.split('.')) {
    const next: unknown[] = [];
    for (const item of current) {
      if (Array.isArray(item)) {
        if (/^\d+$/.test(key)) next.push(item[Number(key)]);
        else {
          spread = true;
          for (const element of item) next.push(field(element, key));
        }
      } else next.push(field(item, key));
    }
    current = next;
  }
  return spread ? current.filter((v) => v !== undefined) : current[0];
}

function field(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** Parses `--fields`: comma-separated dot paths, blanks dropped. */
export function parseFields(text: string): string[] {
  return text
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
}

/**
 * The answer cut down to `fields`, nested as in the original (`location.country` →
 * `{location: {country}}`), so `--json --fields` output keeps the API's names.
 */
export function selectFields(value: unknown, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of fields) {
    const found = pick(value, path);
    if (found === undefined) continue;
    const keys = path.split('.');
    let node = out;
    for (const key of keys.slice(0, -1)) {
      let child = node[key];
      if (child === null || typeof child !== 'object') {
        child = {};
        node[key] = child;
      }
      node = child as Record<string, unknown>;
    }
    node[keys[keys.length - 1] as string] = found;
  }
  return out;
}

/**
 * One flat row for CSV: nested objects become dot keys, arrays of scalars one cell joined with
 * "; ", arrays of objects their JSON text, null an empty cell.
 */
export function flatten(value: unknown, prefix = '', row: Record<string, string> = {}) {
  if (value === null || value === undefined) {
    if (prefix !== '') row[prefix] = '';
  } else if (Array.isArray(value)) {
    row[prefix || 'value'] = value.every((v) => v === null || typeof v !== 'object')
      ? value.map((v) => cell(v)).join('; ')
      : JSON.stringify(value);
  } else if (typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      flatten(child, prefix === '' ? key : `${prefix}.${key}`, row);
    }
  } else {
    row[prefix || 'value'] = cell(value);
  }
  return row;
}

/**
 * CSV rows of `--fields`: one per element of the first list a field goes through
 * (`records.data` → one row per record), as the CSV of a whole answer has one row per record.
 * Fields outside that list repeat on each of its rows; a list inside an element is followed the
 * same way (`cipher_suites.suites.name`); a field in another list is joined in one cell. No list:
 * one row. Columns are the fields as given, in their order.
 */
export function fieldRows(value: unknown, fields: readonly string[]): Record<string, string>[] {
  const list = firstList(value, fields);
  if (list === undefined) {
    return [Object.fromEntries(fields.map((f) => [f, cellOf(pick(value, f))]))];
  }
  const prefix = list.path === '' ? '' : `${list.path}.`;
  const inList = (f: string) =>
    f.startsWith(prefix) && !/^\d+(?:\.|$)/.test(f.slice(prefix.length));
  const inner = fields.filter(inList).map((f) => f.slice(prefix.length));
  const outer = new Map(fields.filter((f) => !inList(f)).map((f) => [f, cellOf(pick(value, f))]));
  return list.items.flatMap((item) =>
    fieldRows(item, inner).map((row) =>
      Object.fromEntries(fields.map((f) => [f, outer.get(f) ?? row[f.slice(prefix.length)] ?? ''])),
    ),
  );
}

/** The first list a field's path crosses without an index (`records` of `records.data`). */
function firstList(
  value: unknown,
  fields: readonly string[],
): { path: string; items: unknown[] } | undefined {
  for (const f of fields) {
    const keys = f.split('.');
    let current = value;
    for (let i = 0; i < keys.length && current !== undefined; i++) {
      const key = keys[i] as string;
      if (Array.isArray(current)) {
        if (!/^\d+$/.test(key)) return { path: keys.slice(0, i).join('.'), items: current };
        current = current[Number(key)];
      } else current = field(current, key);
    }
  }
  return undefined;
}

/** A value as one cell: a list of values joined with "; ". */
export function cellOf(value: unknown): string {
  return Array.isArray(value) ? value.map(cell).join('; ') : cell(value);
}

/** A scalar as text: one cell or one tab-separated value. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
