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
import { compareSources, compareWordWith, wordEnd } from './source-order.js';

export class SourceList implements Iterable<string> {
  /** The sources, or the only one, or (`ofWords`) their start offsets in `#text`. */
  #sources: readonly string[] | string | Int32Array;
  /** The text of the words (`ofWords`), else ''. */
  #text = '';
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

  /**
   * The words of `text` that start at `starts` (in source order, distinct), where a word runs
   * to the next ASCII whitespace or the end of the text: a directive's lower-cased sources as
   * `sortSourceWords` leaves them. The words become strings only when asked for (`toArray`):
   * the grade asks a handful of questions of a few directives, and a string for each of the
   * 210,000 sources of a 1 MiB policy, kept alive to the end of the parse, was about a third of
   * its time with the collections they brought on (BENCHMARKS.md, issue 20 item 1).
   */
  static ofWords(text: string, starts: Int32Array): SourceList {
    const list = new SourceList([], true);
    list.#sources = starts;
    list.#text = text;
    list.#size = starts.length;
    return list;
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
    if (sources instanceof Int32Array) {
      // A word that `prefix` would match only across its end (prefix "a b", word "a") is a
      // prefix of it, so before the lower bound: never read.
      const text = this.#text;
      for (let i = this.#lowerBound(prefix); i < sources.length; i++) {
        if (!text.startsWith(prefix, sources[i] as number)) return false;
        if (this.#gone?.[i] !== 1) return true;
      }
      return false;
    }
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
    if (sources instanceof Int32Array) {
      const text = this.#text;
      const words: string[] = new Array(this.#size);
      for (let i = 0, k = 0; i < sources.length; i++) {
        if (gone?.[i] === 1) continue;
        const start = sources[i] as number;
        words[k++] = text.slice(start, wordEnd(text, start));
      }
      return words;
    }
    if (gone === undefined) return sources.slice();
    return sources.filter((_, i) => gone[i] !== 1);
  }

  #indexOf(source: string): number {
    const sources = this.#sources;
    if (typeof sources === 'string') return sources === source ? 0 : -1;
    const i = this.#lowerBound(source);
    if (i >= sources.length) return -1;
    if (sources instanceof Int32Array) {
      // Equal only to a word (never empty, no whitespace).
      return compareWordWith(this.#text, sources[i] as number, source) === 0 ? i : -1;
    }
    return sources[i] === source ? i : -1;
  }

  /** The first index whose source does not come before `source` (of a list, not one string). */
  #lowerBound(source: string): number {
    const sources = this.#sources as readonly string[] | Int32Array;
    const text = this.#text;
    const words = sources instanceof Int32Array;
    let lo = 0;
    let hi = sources.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const order = words
        ? compareWordWith(text, sources[mid] as number, source)
        : compareSources(sources[mid] as string, source);
      if (order < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
