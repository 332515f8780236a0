/**
 * undici, imported on first use. Importing it costs ~120 ms (of the ~300 ms the core takes to
 * import, measured on the 2-core development machine), and most processes — a CLI lookup, a
 * DNS command, a server that has not yet been asked for a page, an RDAP answer or a breach
 * check — never make an HTTP request. The HTTP clients (`http-client.ts`, `safe-fetch.ts`)
 * await this before their first request; types come from `import type`, which costs nothing.
 * @module
 */
type Undici = typeof import('undici');

let loading: Promise<Undici> | undefined;

export function loadUndici(): Promise<Undici> {
  loading ??= import('undici');
  return loading;
}
