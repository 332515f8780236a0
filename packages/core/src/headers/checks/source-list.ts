/**
 * The sources of one CSP directive as the parser leaves them: in source order
 * (source-order.ts, `compareSources`), each once. It offers the part of `Set` that the check
 * uses — `has`, `delete`, `size` and iteration in order — and answers `has` by binary search
 * in the sorted list. Putting 150,000 sources of a 1 MiB policy into a hash set took a third of
 * the parse, for a check that asks a handful of questions of a few directives
 * (BENCHMARKS.md, issue 20 item 1). Most directives have one source, which is held as a string,
 * without an array: on a policy of 170,000 directives the array was half of what every
 * directive left alive, and copying those survivors through the young generation took a third
 * of the parse.
 * @module
 */
import { compareSources } from './source-order.js';

export class SourceList implements Iterable<string> {
  /** The sources, or the only one. */
  readonly #sources: readonly string[] | string;
  /** Deleted entries (by index), made on the first `delete`. */
  #gone: Uint8Array | undefined;
  #size: number;

  /**
   * `sorted`: in `compareSources` order; repeats (always next to each other) are dropped. A
   * string: the only source. `distinct`: the caller knows there are no repeats. Looking for
   * them compares every pair of neighbours, which were mostly slices of one policy of the same
   * length that share a long prefix: ~5 % of the intersection of two policies of distinct path
   * sources (profile).
   */
  constructor(sorted: readonly string[] | string, distinct = false) {
    if (typeof sorted === 'string') {
      this.#sources = sorted;
      this.#size = 1;
      return;
    }
    let unique = sorted;
    for (let i = 1; i < sorted.length && !distinct; i++) {
      if (sorted[i] === sorted[i - 1]) {
        unique = sorted.filter((source, k) => k === 0 || source !== sorted[k - 1]);
        break;
      }
    }
    this.#sources = unique;
    this.#size = unique.length;
  }

  get size(): number {
    return this.#size;
  }

  has(source: string): boolean {
    const i = this.#indexOf(source);
    return i >= 0 && this.#gone?.[i] !== 1;
  }

  delete(source: string): boolean {
    const i = this.#indexOf(source);
    if (i < 0 || this.#gone?.[i] === 1) return false;
    this.#gone ??= new Uint8Array(this.#size);
    this.#gone[i] = 1;
    this.#size--;
    return true;
  }

  [Symbol.iterator](): Iterator<string> {
    const gone = this.#gone;
    const sources = typeof this.#sources === 'string' ? [this.#sources] : this.#sources;
    if (gone === undefined) return sources[Symbol.iterator]();
    return sources.filter((_, i) => gone[i] !== 1)[Symbol.iterator]();
  }

  #indexOf(source: string): number {
    const sources = this.#sources;
    if (typeof sources === 'string') return sources === source ? 0 : -1;
    let lo = 0;
    let hi = sources.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const order = compareSources(sources[mid] as string, source);
      if (order === 0) return mid;
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
