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

/** A scalar as text: one cell or one tab-separated value. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
