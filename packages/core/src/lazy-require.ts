/**
 * A CommonJS dependency required on its first use instead of imported at start. An ESM import
 * of a CommonJS package runs it and lexes its source for named exports while the core loads,
 * a cost every process would pay at start (a CLI lookup needs neither dns-packet nor tldts), and a `require` when first needed costs 4–16 ms each
 * (undici, `net/undici.ts`: ~120 ms).
 * @module
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(id) as T;
    return loaded;
  };
}
