/**
 * A CommonJS dependency required on its first use instead of imported at start. An ESM import
 * of a CommonJS package runs it and lexes its source for named exports while the core loads;
 * dns-packet, ip-address and tldts together cost ~40 ms of every process's start that
 * way (a CLI lookup needs none of them), and a `require` when first needed costs 4–16 ms each
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
