/**
 * undici, loaded on first use. Loading it costs ~120 ms (of the ~300 ms the core took to
 * import, measured on the 2-core development machine), and most processes — a CLI lookup, a
 * DNS command, a server that has not yet been asked for a page, an RDAP answer or a breach
 * check — never make an HTTP request. The HTTP clients (`http-client.ts`, `safe-fetch.ts`)
 * await this before their first request; types come from `import type`, which costs nothing.
 * Required rather than `import()`ed: under a loader such as tsx a dynamic import of this
 * CommonJS package kept ~90 MB more resident (bench/production/start.bench.ts).
 * @module
 */
import { lazyRequire } from '../lazy-require.js';

type Undici = typeof import('undici');

const undici = lazyRequire<Undici>('undici');

export function loadUndici(): Promise<Undici> {
  return Promise.resolve(undici());
}
