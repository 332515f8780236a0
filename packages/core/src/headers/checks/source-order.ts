/**
 * The order of CSP sources (csp-parser.ts), and the code-unit order of
 * `Array.prototype.sort()` (csp.ts), by an MSD radix sort of the words of one text: linear in
 * the characters that tell the words apart, where a comparison sort with the collator took
 * 500–1,000 ms on 1 MiB of distinct sources, and the default sort ~65 ms on 200,000 of them.
 *
 * Source order: the Observatory sorts sources with `Intl.Collator('en').compare`. For "plain"
 * strings (printable ASCII without capitals: everything the CSP3 §2.3.1 `source-expression`
 * grammar can produce once lower-cased) that is the order of their characters' collator ranks
 * (collator-order.ts), so here too. Every other code unit (controls, DEL, anything outside
 * ASCII) ranks after the plain ones, by code unit. This is a deliberate change from upstream for
 * such sources: the collator gives them no order that can be computed without calling it
 * n log n times (and ties some of them with others: "a\u0001" with "a"), and CSP3 §2.3.1 has
 * no production for them (host-char is ALPHA / DIGIT / "-", a path is RFC 3986 §3.3 ASCII,
 * and keyword, nonce and hash sources are ASCII too), so a browser matches them to nothing
 * (CSP3 §6.7.2.6: a source that no grammar production matches does not match). Their place only
 * decides which of them the prefix rule drops; any fixed strict order serves, and this one is
 * linear. No two distinct strings tie.
 *
 * How: each code unit gets a digit that orders it (0: whitespace, the end of a word): the
 * ASCII ones from a table, the others, when a text has any, numbered in code-unit order after
 * the ASCII ones. Groups of words that share their first characters are distributed by the
 * digit of the next one (a counting sort), or, when the group's digits spread far wider than
 * it has words, by the digit's high byte and then its low byte. A group whose words all share
 * the next character skips their whole common prefix in one pass; small groups are sorted by
 * insertion. Where neighbours part, the sort also marks the repeats and the words that start
 * with the word before them, which is all the parser's prefix rule needs. The words are start
 * offsets into the text throughout: their characters are read from that one string, where
 * 200,000 words as strings spread over the heap, each a cache miss to read (half of the time).
 * @module
 */
import { PLAIN_RANK } from './collator-order.js';

/** ASCII whitespace: what `\s` matches in ASCII text (ECMA-262 WhiteSpace, LineTerminator). */
const SPACES = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20];
/** Digits of ASCII code units run 1–122 (0: whitespace); other code units start here. */
const WIDE = 128 - SPACES.length + 1;

/** Digits of ASCII code units, numbered in the order of `codes` (whitespace: 0). */
function asciiDigits(codes: readonly number[]): Uint8Array {
  const digits = new Uint8Array(128);
  let next = 1;
  for (const u of codes) if (!SPACES.includes(u)) digits[u] = next++;
  return digits;
}

/** Code-unit order. */
const CODE_UNITS = asciiDigits(Array.from({ length: 128 }, (_, u) => u));

/**
 * Plain characters by collator rank, then the other ASCII code units by code. Should the
 * collator ever stop ordering the plain ones strictly (collator-order.ts checks when it
 * loads), they take their code-unit order instead: still a strict order, all the parser needs.
 */
const SOURCES = (() => {
  const codes = Array.from({ length: 128 }, (_, u) => u);
  const plain = (u: number) => u >= 0x21 && u <= 0x7e && (u < 0x41 || u > 0x5a);
  const rank = (u: number) => (PLAIN_RANK ? (PLAIN_RANK[u] as number) : u);
  return asciiDigits([
    ...codes.filter(plain).sort((a, b) => rank(a) - rank(b)),
    ...codes.filter((u) => !plain(u)),
  ]);
})();

/**
 * Digits of the code units outside ASCII in the text being sorted (0: not in it), set and
 * cleared by each `sortWords` call: one table for all, as most texts need none of it.
 */
const WIDE_DIGITS = new Uint16Array(0x10000);

/** Groups of at most this many words are sorted by insertion. */
const SMALL = 16;

/** The digit of code unit `u` (NaN: past the end, 0) during a sort with `ascii`. */
function digitOf(u: number, ascii: Uint8Array): number {
  return u < 128 ? (ascii[u] as number) : u >= 128 ? (WIDE_DIGITS[u] as number) : 0;
}

/**
 * The words of `text` at `a` and `b` in `ascii` order, from their `from`-th character on
 * (< 0: `a` first, 0: equal).
 */
function compareWords(text: string, a: number, b: number, from: number, ascii: Uint8Array) {
  for (let i = from; ; i++) {
    const x = digitOf(text.charCodeAt(a + i), ascii);
    const y = digitOf(text.charCodeAt(b + i), ascii);
    if (x !== y) return x - y;
    if (x === 0) return 0;
  }
}

/** Source order (see the module comment) of two strings: < 0 when `a` comes first. */
export function compareSources(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  for (let i = 0; i < end; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      return (
        (x < 128 ? (SOURCES[x] as number) : WIDE + x) -
        (y < 128 ? (SOURCES[y] as number) : WIDE + y)
      );
    }
  }
  return a.length - b.length;
}

/** Whether code unit `u` ends a word: ASCII whitespace, or past the end of the text (NaN). */
function isWordEnd(u: number): boolean {
  return !(u > 0x20) && (u === 0x20 || (u >= 0x09 && u <= 0x0d) || !(u >= 0));
}

/** Where the word of `text` at `start` ends. */
export function wordEnd(text: string, start: number): number {
  let end = start;
  while (!isWordEnd(text.charCodeAt(end))) end++;
  return end;
}

/**
 * The words of `text` (split at ASCII whitespace; other whitespace is not expected) in source
 * order, repeats next to each other, with marks (`REPEAT`, `EXTENDS`).
 */
export function sortSourceWords(text: string): SortedWords {
  return sortWords(text, SOURCES);
}

/**
 * `[...strings].sort()` for distinct strings: code-unit order (ECMA-262 §23.1.3.30.2
 * SortCompare, IsLessThan on strings). The strings themselves, not copies.
 */
export function sortCodeUnits(strings: readonly string[]): string[] {
  // A few: the default sort costs less than the tables below.
  if (strings.length <= 64) return [...strings].sort();
  const text = strings.join(' ');
  // The words of the joined text are the strings only when none is empty or has whitespace.
  if (/[^\S ]| {2}|^ | $/.test(text)) return [...strings].sort();
  const { starts } = sortWords(text, CODE_UNITS);
  if (starts.length !== strings.length) return [...strings].sort();
  // Which string starts where in the joined text.
  const index = new Int32Array(text.length);
  for (let i = 0, at = 0; i < strings.length; at += (strings[i] as string).length + 1, i++) {
    index[at] = i;
  }
  return Array.from(starts, (start) => strings[index[start] as number] as string);
}

/**
 * The first character position from `pos` on where the words at `a[from, to)` do not all
 * agree (or the end of the shortest). Each character is read once.
 */
function sharedUntil(text: string, a: Int32Array, from: number, to: number, pos: number): number {
  const first = a[from] as number;
  let shared = Number.POSITIVE_INFINITY;
  for (let k = from + 1; k < to && shared > pos; k++) {
    const s = a[k] as number;
    let c = pos;
    for (; c < shared; c++) {
      const u = text.charCodeAt(first + c);
      if (u !== text.charCodeAt(s + c) || isWordEnd(u)) break;
    }
    shared = c;
  }
  return Math.max(pos, shared);
}

/**
 * Start offsets of the words of `text`; numbers the code units outside ASCII in it
 * (`WIDE_DIGITS`) and returns them, to be cleared after.
 */
function wordStarts(text: string): { starts: Int32Array; wide: Uint16Array } {
  const starts = new Int32Array((text.length + 1) >> 1);
  let count = 0;
  let inWord = false;
  const wide: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    const space = isWordEnd(u);
    if (!space && !inWord) starts[count++] = i;
    inWord = !space;
    if (u >= 128 && WIDE_DIGITS[u] === 0) {
      WIDE_DIGITS[u] = 1;
      wide.push(u);
    }
  }
  const units = Uint16Array.from(wide).sort();
  units.forEach((u, i) => {
    WIDE_DIGITS[u] = WIDE + i;
  });
  return { starts: starts.subarray(0, count), wide: units };
}

/** A word equal to the one before it in the sorted order. */
export const REPEAT = 2;
/** A word that starts with the one before it (and is longer). */
export const EXTENDS = 1;

export interface SortedWords {
  /** Start offsets of the words, sorted. */
  starts: Int32Array;
  /** For each: `REPEAT`, `EXTENDS` or 0, from its place in the sort (no second pass). */
  marks: Uint8Array;
}

/** The words of `text`, sorted in `ascii` order (see the module comment). */
function sortWords(text: string, ascii: Uint8Array): SortedWords {
  const { starts, wide } = wordStarts(text);
  try {
    const marks = new Uint8Array(starts.length);
    radixSort(text, starts, marks, ascii, WIDE + wide.length);
    return { starts, marks };
  } finally {
    for (const u of wide) WIDE_DIGITS[u] = 0;
  }
}

/** How the word at `b` follows the word at `a` that sorts before it, both sharing `from`. */
function relation(text: string, a: number, b: number, from: number): number {
  for (let i = from; ; i++) {
    const x = text.charCodeAt(a + i);
    if (isWordEnd(x)) return isWordEnd(text.charCodeAt(b + i)) ? REPEAT : EXTENDS;
    if (x !== text.charCodeAt(b + i)) return 0;
  }
}

/**
 * Sorts the words at `a` in place and marks repeats and extensions by position in `marks`;
 * their digits are below `bound`. Where two neighbours part, the sort sees it: a word that
 * ended at that character (digit 0) before a group of longer ones is their prefix.
 */
function radixSort(
  text: string,
  a: Int32Array,
  marks: Uint8Array,
  ascii: Uint8Array,
  bound: number,
): void {
  const n = a.length;
  if (n < 2) return;
  const spare = new Int32Array(n);
  // Digits stay below WIDE + 0x10000 - 128 (and 258 by bytes): 16 bits.
  const digits = new Uint16Array(n);
  const counts = new Int32Array(Math.max(258, bound));
  // Groups still to sort, as [from, to, pos, low]: a stack rather than recursion, since a
  // group can go on for as many rounds as its words have characters. `low`: 1 when the group
  // shares the high byte of the digit at `pos` and is sorted by its low byte.
  const stack: number[] = [0, n, 0, 0];
  while (stack.length > 0) {
    const low = stack.pop() as number;
    let pos = stack.pop() as number;
    const to = stack.pop() as number;
    const from = stack.pop() as number;
    const size = to - from;
    if (size <= SMALL) {
      // Past what the group shares first: compares among words with a long common prefix
      // would read it again and again.
      if (low === 0) pos = sharedUntil(text, a, from, to, pos);
      for (let k = from + 1; k < to; k++) {
        const s = a[k] as number;
        let j = k;
        while (j > from && compareWords(text, a[j - 1] as number, s, pos, ascii) > 0) {
          a[j] = a[j - 1] as number;
          j--;
        }
        a[j] = s;
      }
      for (let k = from + 1; k < to; k++) {
        marks[k] = relation(text, a[k - 1] as number, a[k] as number, pos);
      }
      continue;
    }
    let min = Number.POSITIVE_INFINITY;
    let max = 0;
    for (let k = from; k < to; k++) {
      let digit = digitOf(text.charCodeAt((a[k] as number) + pos), ascii);
      // By the low byte, 1–256 (no word of the group ends here).
      if (low !== 0) digit = 1 + (digit & 255);
      digits[k] = digit;
      if (digit < min) min = digit;
      if (digit > max) max = digit;
    }
    // Spread far wider than the group (many distinct code units outside ASCII): the high
    // byte first (0 still the end), so that one round costs no more than its words and 257.
    const high = low === 0 && max - min > 256 && max - min > 4 * size;
    if (high) {
      for (let k = from; k < to; k++) {
        const digit = digits[k] as number;
        digits[k] = digit === 0 ? 0 : 1 + (digit >> 8);
      }
      min = min === 0 ? 0 : 1 + (min >> 8);
      max = 1 + (max >> 8);
    }
    for (let k = from; k < to; k++) {
      const digit = digits[k] as number;
      counts[digit] = (counts[digit] as number) + 1;
    }
    if (counts[min] === size) {
      counts[min] = 0;
      // One digit for all: nothing moves. All ended: equal.
      if (min === 0) marks.fill(REPEAT, from + 1, to);
      else if (high) stack.push(from, to, pos, 1);
      else stack.push(from, to, sharedUntil(text, a, from, to, pos + 1), 0);
      continue;
    }
    let at = from;
    for (let d = min; d <= max; d++) {
      const count = counts[d] as number;
      counts[d] = at;
      at += count;
    }
    for (let k = from; k < to; k++) {
      const digit = digits[k] as number;
      const slot = counts[digit] as number;
      spare[slot] = a[k] as number;
      counts[digit] = slot + 1;
    }
    a.set(spare.subarray(from, to), from);
    // counts[d] is now the end of digit d's bucket. Digit 0: words that ended here, equal;
    // the first word after them (once its group is sorted) starts with them.
    let start = from;
    let ended = false;
    for (let d = min; d <= max; d++) {
      const end = counts[d] as number;
      counts[d] = 0;
      if (end === start) continue;
      if (d === 0) {
        marks.fill(REPEAT, start + 1, end);
        ended = true;
      } else {
        if (ended) marks[start] = EXTENDS;
        ended = false;
        if (end - start > 1) stack.push(start, end, high ? pos : pos + 1, high ? 1 : 0);
      }
      start = end;
    }
  }
}
