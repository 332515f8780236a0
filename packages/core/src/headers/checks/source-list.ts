/**
 * The sources of one CSP directive as the parser leaves them: in source order
 * (source-order.ts, `compareSources`), each once. It offers the part of `Set` that the check
 * uses — `has`, `delete`, `size` and iteration in order — and answers `has` (and `hasPrefix`)
 * by binary search in the sorted list. Putting 150,000 sources of a 1 MiB policy into a hash set took a third of
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

  /**
   * Whether some source starts with `prefix`. The sources that do are next to each other in
   * source order (it compares code unit by code unit, a shorter string first), from where
   * `prefix` would go: one binary search, where the check's tests of every source of a
   * directive of 210,000 took most of its time on a 1 MiB policy (BENCHMARKS.md).
   */
  hasPrefix(prefix: string): boolean {
    const sources = this.#sources;
    if (typeof sources === 'string') return sources.startsWith(prefix) && this.#gone?.[0] !== 1;
    for (let i = this.#lowerBound(prefix); i < sources.length; i++) {
      if (!(sources[i] as string).startsWith(prefix)) return false;
      if (this.#gone?.[i] !== 1) return true;
    }
    return false;
  }

  [Symbol.iterator](): Iterator<string> {
    return this.toArray()[Symbol.iterator]();
  }

  /**
   * The sources left, in order, as a new array: what `[...list]` gives, without a call of the
   * iterator and a result object per source (a spread of each directive of a policy of the
   * most directives was most of what the CSP check did past the parse, with the collections of
   * those objects).
   */
  toArray(): string[] {
    const gone = this.#gone;
    const sources = this.#sources;
    if (typeof sources === 'string') return gone?.[0] === 1 ? [] : [sources];
    if (gone === undefined) return sources.slice();
    return sources.filter((_, i) => gone[i] !== 1);
  }

  #indexOf(source: string): number {
    const sources = this.#sources;
    if (typeof sources === 'string') return sources === source ? 0 : -1;
    const i = this.#lowerBound(source);
    return i < sources.length && sources[i] === source ? i : -1;
  }

  /** The first index whose source does not come before `source` (of a list, not one string). */
  #lowerBound(source: string): number {
    const sources = this.#sources as readonly string[];
    let lo = 0;
    let hi = sources.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareSources(sources[mid] as string, source) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
