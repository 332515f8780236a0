/**
 * undici, loaded on first use: loading it is a large part of the core's import time, and most
 * processes never make an HTTP request. Required rather than `import()`ed: under tsx a dynamic
 * import of this CommonJS package kept far more memory resident (bench/production/start.bench.ts).
 * @module
 */
import { lazyRequire } from '../lazy-require.js';

type Undici = typeof import('undici');

const undici = lazyRequire<Undici>('undici');

export function loadUndici(): Promise<Undici> {
  return Promise.resolve(undici());
}
