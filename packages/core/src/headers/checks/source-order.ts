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
import { isOtherWhitespace, OTHER_WHITESPACE } from '../../whitespace.js';
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

/**
 * Groups of more than this many words (of a text whose digits fit a byte) are sorted by keys
 * again (`radixSorter`'s `byKeys`).
 */
const REKEY = 256;

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
function compareWords(text: Codes, a: number, b: number, from: number, ascii: Uint8Array) {
  for (let i = from; ; i++) {
    const x = digitOf(text[a + i] as number, ascii);
    const y = digitOf(text[b + i] as number, ascii);
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

/**
 * `compareSources` of the word of `text` at `start` (up to ASCII whitespace or the end of the
 * text, as `sortSourceWords` leaves its words) and `b`, a string without whitespace: the word
 * need not be made a string to be compared.
 */
export function compareWordWith(text: string, start: number, b: string): number {
  for (let i = 0; ; i++) {
    const x = text.charCodeAt(start + i);
    // A shorter string first, as `compareSources`.
    if (isWordEnd(x)) return i === b.length ? 0 : -1;
    if (i === b.length) return 1;
    const y = b.charCodeAt(i);
    if (x !== y) {
      return (
        (x < 128 ? (SOURCES[x] as number) : WIDE + x) -
        (y < 128 ? (SOURCES[y] as number) : WIDE + y)
      );
    }
  }
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

export { isOtherWhitespace, OTHER_WHITESPACE };

/**
 * The words of `text` (split at whitespace, `\s`) in source order, repeats next to each
 * other, with marks (`REPEAT`, `EXTENDS`). Whitespace outside ASCII, seldom there, becomes a
 * space in the returned `text` (the offsets are the same): looking for it only among the
 * code units the scan numbers anyway saves a pass over the text (~3 ms per MiB).
 */
export function sortSourceWords(text: string): SortedWords {
  const sorted = sortWords(text, SOURCES, true);
  if (sorted !== undefined) return sorted;
  return sortWords(text.replace(OTHER_WHITESPACE, ' '), SOURCES, false) as SortedWords;
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
  const { starts } = sortWords(text, CODE_UNITS, false) as SortedWords;
  if (starts.length !== strings.length) return [...strings].sort();
  // Which string starts where in the joined text.
  const index = new Int32Array(text.length);
  for (let i = 0, at = 0; i < strings.length; at += (strings[i] as string).length + 1, i++) {
    index[at] = i;
  }
  return Array.from(starts, (start) => strings[index[start] as number] as string);
}

/**
 * `sortCodeUnits` of distinct strings that are in source order already (a `SourceList`'s):
 * `sorted` itself when the two orders agree on every code unit they hold, which
 * one pass over their code units tells. Both orders compare strings code unit by code unit, a
 * shorter string first, and both put every code unit outside ASCII after the ASCII ones and in
 * code-unit order among themselves; so they agree when the source digits of the ASCII code
 * units present rise with the code units, as they do for lower-case letters and digits (not
 * for ":" or "/", which the collator puts before the digits). Sorting 210,000 distinct short
 * sources again for the CSP check's reported policy was a quarter of the check (profile).
 */
export function inCodeUnitOrder(sorted: string[]): string[] {
  const present = PRESENT.fill(0);
  for (const source of sorted) {
    for (let i = 0; i < source.length; i++) {
      const u = source.charCodeAt(i);
      if (u < 128) present[u] = 1;
    }
  }
  let last = 0;
  for (let u = 0; u < 128; u++) {
    if (present[u] === 0) continue;
    const digit = SOURCES[u] as number;
    if (digit < last) return sortCodeUnits(sorted);
    last = digit;
  }
  return sorted;
}

/** The ASCII code units present (`inCodeUnitOrder`). */
const PRESENT = new Uint8Array(128);

/**
 * The first character position from `pos` on where the words at `a[from, to)` do not all
 * agree (or the end of the shortest). Each character is read once.
 */
function sharedUntil(text: Codes, a: Int32Array, from: number, to: number, pos: number): number {
  const first = a[from] as number;
  let shared = Number.POSITIVE_INFINITY;
  for (let k = from + 1; k < to && shared > pos; k++) {
    const s = a[k] as number;
    let c = pos;
    for (; c < shared; c++) {
      const u = text[first + c] as number;
      if (u !== text[s + c] || isWordEnd(u)) break;
    }
    shared = c;
  }
  return Math.max(pos, shared);
}

/**
 * Start offsets of the words of `text` and their keys (`wordKeys`, four 8-bit digits of
 * `ascii`), in one pass; numbers the code units outside ASCII in it (`WIDE_DIGITS`) and
 * returns them, to be cleared after. When their digits pass 255, the keys are to be made
 * again with 16-bit digits.
 */
function wordStarts(
  text: Codes,
  length: number,
  ascii: Uint8Array,
): { starts: Int32Array; keys: Uint32Array; wide: Uint16Array; spacesOnly: boolean } {
  const most = (length + 1) >> 1;
  const small = most <= SCRATCH_WORDS;
  const starts = small ? SCRATCH_STARTS : new Int32Array(most);
  const keys = small ? SCRATCH_KEYS : new Uint32Array(most);
  let count = 0;
  const wide: number[] = [];
  let spacesOnly = true;
  // A word at a time: its key from its first four characters at most, then the rest of it
  // with two tests per character, where a scan that kept whether it was in a word and how much
  // of the key it had made six. `text[length]` is a space: the last word ends there at the
  // latest. Micro-benchmark of the scan alone (60 rounds, interleaved): 0.84-0.87x of the time
  // on the 1,024 texts of a policy of the most directives, 0.6-0.7x on 1 MiB of short sources.
  for (let i = 0; i < length; ) {
    let u = text[i] as number;
    if (u <= 0x20 && isWordEnd(u)) {
      if (u !== 0x20) spacesOnly = false;
      i++;
      continue;
    }
    starts[count] = i;
    const u1 = text[i + 1] as number;
    const u2 = text[i + 2] as number;
    const u3 = text[i + 3] as number;
    if ((u | u1 | u2 | u3) < 128) {
      // Four ASCII code units (the spaces after the text make four): their digits at once, 0
      // for whitespace, the word's end, after which the key is 0, where the loop below tested
      // the end after each. Same-process A/B beside the yardstick, after the other CSP worst
      // cases (61 pairs, twice): 0.86-0.96x of the time of the parse of a policy of the most
      // directives.
      const d1 = ascii[u1] as number;
      const d2 = d1 === 0 ? 0 : (ascii[u2] as number);
      const d3 = d2 === 0 ? 0 : (ascii[u3] as number);
      keys[count++] = ((ascii[u] as number) << 24) | (d1 << 16) | (d2 << 8) | d3;
      if (d3 === 0) {
        // Past the space after it too (other whitespace: above, to note it).
        const end = i + (d1 === 0 ? 1 : d2 === 0 ? 2 : 3);
        i = text[end] === 0x20 ? end + 1 : end;
        continue;
      }
      i += 4;
      u = text[i] as number;
    } else {
      let key = 0;
      let taken = 0;
      do {
        if (u >= 128 && WIDE_DIGITS[u] === 0) numberWide(u, wide);
        key = (key << 8) | (u < 128 ? (ascii[u] as number) : (WIDE_DIGITS[u] as number) & 0xff);
        u = text[++i] as number;
      } while (++taken < 4 && (u > 0x20 || !isWordEnd(u)));
      // A word that ends inside its key leaves the rest 0 (the digit of its end).
      keys[count++] = key << (8 * (4 - taken));
    }
    for (; u > 0x20 || !isWordEnd(u); u = text[++i] as number) {
      if (u >= 128 && WIDE_DIGITS[u] === 0) numberWide(u, wide);
    }
    // A space after the word is passed here, not read again above (with the same after a short
    // word: one process per build after the other CSP worst cases, 7 runs each, 0.93x of the
    // time of the parse of a policy of the most directives; within the noise when both builds
    // share a process).
    if (u === 0x20) i++;
  }
  const found = keys.subarray(0, count);
  const spans = starts.subarray(0, count);
  // All ASCII (the usual case): nothing below to do. Its fixed cost (an array from `wide`,
  // ~120 ns alone, and a reset of ORDER) was paid by each of the 1,024 directives of a policy
  // of the most.
  if (wide.length === 0) return { starts: spans, keys: found, wide: NO_UNITS, spacesOnly };
  const units = Uint16Array.from(wide).sort();
  // First seen → code-unit order: in the keys too when their digits fit a byte each (as the
  // keys' bytes, one table lookup each, instead of reading the words' characters again).
  const order = ORDER;
  for (let d = 0; d < WIDE; d++) order[d] = d;
  units.forEach((u, i) => {
    if (WIDE + i < 256) order[(WIDE_DIGITS[u] as number) & 0xff] = WIDE + i;
    WIDE_DIGITS[u] = WIDE + i;
  });
  if (WIDE + wide.length <= 256) {
    for (let i = 0; i < count; i++) {
      const k = found[i] as number;
      found[i] =
        ((order[k >>> 24] as number) << 24) |
        ((order[(k >>> 16) & 0xff] as number) << 16) |
        ((order[(k >>> 8) & 0xff] as number) << 8) |
        (order[k & 0xff] as number);
    }
  }
  return { starts: spans, keys: found, wide: units, spacesOnly };
}

/**
 * Gives code unit `u` (outside ASCII, without one yet) a digit in `wordStarts`: in the order
 * the code units are first seen, put in code-unit order after the scan.
 */
function numberWide(u: number, wide: number[]): void {
  WIDE_DIGITS[u] = WIDE + wide.length;
  wide.push(u);
}

/**
 * Scratch arrays for texts of up to `SCRATCH_WORDS` words, shared by every sort (each runs to
 * its end before the next begins): a policy of a thousand directives sorts one short list
 * after another, and making these typed arrays for each list was a sixth of its parse. Longer
 * texts get their own, and so do the word starts and marks a sort returns: a typed array of
 * more than 64 bytes has its memory outside the heap, and making two per sort (~2 µs each, with
 * the collections they bring on) was ~10 % of the parse of 1,024 directives of ~200 sources.
 */
const SCRATCH_WORDS = 1 << 13;
const SCRATCH_KEYS = new Uint32Array(SCRATCH_WORDS);
const SCRATCH_STARTS = new Int32Array(SCRATCH_WORDS);
const SCRATCH_MARKS = new Uint8Array(SCRATCH_WORDS);
const SCRATCH_TO_KEYS = new Uint32Array(SCRATCH_WORDS);
const SCRATCH_TO_STARTS = new Int32Array(SCRATCH_WORDS);
/** Counts of each byte of the keys (`sortByKey`): 256 for each of the four. */
const COUNTS = new Int32Array(1024);
/**
 * The code units of the text being sorted, then spaces (a word's end past the last one).
 * The sort reads them from this array rather than with `charCodeAt`, which checks the
 * string's representation on every read: same-process A/B beside the yardstick, 0.81-0.87x
 * of the time on one directive of thousands of sources, 0.86-0.92x on the intersection of two
 * policies of distinct path sources, 0.93x on 1,024 directives of distinct sources.
 * Texts up to `SCRATCH_WORDS` code units share one array.
 */
type Codes = Uint16Array;
/** Spaces after the text in its `Codes`: `wordStarts` reads up to three past a word's start. */
const AFTER = 4;
const SCRATCH_CODES = new Uint16Array(SCRATCH_WORDS + AFTER);
const SCRATCH_CODE_BYTES = Buffer.from(SCRATCH_CODES.buffer);

/** `text` as `Codes` (see there). */
function codeUnits(text: string): Codes {
  const small = text.length <= SCRATCH_WORDS;
  const codes = small ? SCRATCH_CODES : new Uint16Array(text.length + AFTER);
  const bytes = small ? SCRATCH_CODE_BYTES : Buffer.from(codes.buffer);
  bytes.write(text, 0, 'utf16le');
  codes.fill(0x20, text.length, text.length + AFTER);
  return codes;
}
/** First-met digit → digit in order (`wordStarts`). */
const ORDER = new Uint8Array(256);
/** No code units outside ASCII (`wordStarts`). */
const NO_UNITS = new Uint16Array(0);

/** A word equal to the one before it in the sorted order. */
export const REPEAT = 2;
/** A word that starts with the one before it (and is longer). */
export const EXTENDS = 1;

export interface SortedWords {
  /** The text the offsets are in. */
  text: string;
  /**
   * Start offsets of the words, sorted. For short texts (as `keys` and `marks`) a scratch
   * array that the next sort overwrites.
   */
  starts: Int32Array;
  /** For each: `REPEAT`, `EXTENDS` or 0, from its place in the sort (no second pass). */
  marks: Uint8Array;
  /** No whitespace in `text` but spaces: a word ends at the next space (`endOfWord`). */
  spacesOnly: boolean;
  /**
   * The words' keys, in the order of `starts` (`wordKeys`; words sorted further share them),
   * for `endOfWord`. For short texts a scratch array that the next sort overwrites: read them
   * before sorting again.
   */
  keys: Uint32Array;
  /** Bits per digit of `keys`: 8 or 16. */
  bits: number;
  /**
   * `text` as `Codes` (spaces after its end), for `endOfWord`. For short texts a scratch array
   * that the next sort overwrites.
   */
  codes: Codes;
}

/**
 * Where the `i`-th word of `sorted` (in sorted order) ends. Its key says where when the word
 * ends inside it (its digits after the end are 0); a longer word is read on from there, with
 * only spaces between the words by `indexOf` after a few characters by hand. Finding every
 * end with `indexOf` (a call per word) was a fifth of the parse of 1 MiB of distinct short
 * sources; with the keys, same-process A/B beside the yardstick: 0.91x of the time on distinct
 * non-ASCII sources, 0.96x on distinct host sources, 0.97-1.0x on distinct short ones.
 */
export function endOfWord(sorted: SortedWords, i: number): number {
  const { text, codes, bits } = sorted;
  const start = sorted.starts[i] as number;
  const key = sorted.keys[i] as number;
  const chars = 32 / bits;
  if ((key & ((1 << bits) - 1)) === 0) {
    // The digits after its end: the key's trailing zero bits, in whole digits.
    return start + chars - Math.floor((31 - Math.clz32(key & -key)) / bits);
  }
  const from = start + chars;
  if (!sorted.spacesOnly) return wordEnd(text, from);
  if (codes === SCRATCH_CODES) {
    // A short text: the first few from its code units (spaces after the last word), not by
    // `charCodeAt` of a text that is a slice of the policy (a profile put ~2 % of the parse of
    // a policy of the most directives, whose words mostly fill their keys, on that loop; with
    // the one scan of `forEachDirective`, same-process A/B beside the yardstick after the other
    // CSP worst cases: 0.93-0.95x of its time). Not for long texts: there the word's characters
    // are in the cache for its `slice` after `charCodeAt`, not after a read of its code units
    // at another address (1.15-1.2x of the time on 1 MiB of distinct short sources).
    const near = from + NEAR;
    for (let end = from; end < near; end++) if (codes[end] === 0x20) return end;
    // No space before `near`: it is inside the text.
    const end = text.indexOf(' ', near);
    return end === -1 ? text.length : end;
  }
  const near = Math.min(text.length, from + NEAR);
  for (let end = from; end < near; end++) if (text.charCodeAt(end) === 0x20) return end;
  if (near === text.length) return near;
  const end = text.indexOf(' ', near);
  return end === -1 ? text.length : end;
}

/**
 * The words of `sorted`, in order, as strings, less those whose mark is in `skip` (bit `m`:
 * mark `m`). Here beside `endOfWord` rather than in the parser: in a parse that has run the
 * other CSP worst cases before, the parser's loop left `endOfWord` a call of its own for each
 * word (11 % of the parse of a policy of the most directives, profile; after the move,
 * 0.87-0.92x of the time of that parse in such a process, three runs of 100 parses).
 */
export function wordStrings(sorted: SortedWords, skip: number): string[] {
  const { text, starts, marks } = sorted;
  const n = starts.length;
  // Made at full length, then cut: `new Set` of it took ~15 ms less on 200,000 words than of
  // one grown by push.
  const strings: string[] = new Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (((skip >> (marks[i] as number)) & 1) !== 0) continue;
    strings[count++] = text.slice(starts[i] as number, endOfWord(sorted, i));
  }
  strings.length = count;
  return strings;
}

/**
 * The start offsets of the sorted words less those marked in `skip` (as `wordStrings`), as a
 * new array: the words themselves stay in the text.
 */
export function wordSpans(sorted: SortedWords, skip: number): Int32Array {
  const { starts, marks } = sorted;
  const n = starts.length;
  let count = 0;
  for (let i = 0; i < n; i++) if (((skip >> (marks[i] as number)) & 1) === 0) count++;
  const kept = new Int32Array(count);
  for (let i = 0, k = 0; i < n; i++) {
    if (((skip >> (marks[i] as number)) & 1) === 0) kept[k++] = starts[i] as number;
  }
  return kept;
}

/** How far past its key `endOfWord` reads a word by hand before it calls `indexOf`. */
const NEAR = 4;

/**
 * The words of `text`, sorted in `ascii` order (see the module comment); undefined when
 * `checkSpaces` and the text has whitespace outside ASCII.
 */
function sortWords(text: string, ascii: Uint8Array, checkSpaces: boolean): SortedWords | undefined {
  const codes = codeUnits(text);
  const scanned = wordStarts(codes, text.length, ascii);
  const { starts, wide, spacesOnly } = scanned;
  try {
    if (checkSpaces && wide.some(isOtherWhitespace)) return undefined;
    const bound = WIDE + wide.length;
    const n = starts.length;
    const marks = n <= SCRATCH_WORDS ? SCRATCH_MARKS.subarray(0, n).fill(0) : new Uint8Array(n);
    // The first characters of every word, as one number each, read in text order: the first
    // rounds sort those numbers, not characters read at random places in the text.
    const bits = bound <= 256 ? 8 : 16;
    const keys = bits === 8 ? scanned.keys : wordKeys(codes, starts, ascii, bits);
    sortByKey(keys, starts, bits === 8 ? bound : 256);
    // Groups of one key: words that end inside it are equal; the others go on from there.
    const end = (1 << bits) - 1;
    let sort: ((from: number, to: number, pos: number) => void) | undefined;
    for (let g = 0, i = 1; i <= n; i++) {
      if (i < n && keys[i] === keys[g]) continue;
      if (g > 0) marks[g] = keyRelation(keys[g - 1] as number, keys[g] as number, bits);
      if (i - g > 1) {
        if (((keys[g] as number) & end) === 0) marks.fill(REPEAT, g + 1, i);
        else {
          sort ??= radixSorter(codes, starts, marks, ascii, bound);
          sort(g, i, 32 / bits);
        }
      }
      g = i;
    }
    return { text, starts, marks, spacesOnly, keys, bits, codes };
  } finally {
    for (const u of wide) WIDE_DIGITS[u] = 0;
  }
}

/**
 * The digits of the first characters of each word packed into 32 bits, first character
 * highest: four of 8 bits, or two of 16 (`bits`) when the text's digits pass 255. A word that
 * ends inside its key leaves the rest 0 (the digit of its end), so keys order as the words do.
 */
function wordKeys(text: Codes, starts: Int32Array, ascii: Uint8Array, bits: number) {
  const chars = 32 / bits;
  const keys = new Uint32Array(starts.length);
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i] as number;
    let key = 0;
    let c = 0;
    for (; c < chars; c++) {
      const digit = digitOf(text[start + c] as number, ascii);
      if (digit === 0) break;
      key = (key << bits) | digit;
    }
    // Words are never empty: the shift stays below 32.
    keys[i] = key << (bits * (chars - c));
  }
  return keys;
}

/**
 * Sorts `keys` and `starts` with them, stably: by byte, lowest first (LSD radix sort). The
 * counts of all four bytes are taken in one pass first: a pass per byte to count it was a
 * third of the sort (same-process A/B beside the yardstick: 0.9x of the time of the parse of
 * 1 MiB of distinct short sources). Every byte is below `bound`: the counts past it are 0 and
 * need no sums (for a text of ASCII words 123 of 256): with ~200 words, as in each directive of
 * a policy of the most, the sums over all 256 were a quarter to a half of this sort's time
 * (micro-benchmark of 205 keys).
 */
function sortByKey(keys: Uint32Array, starts: Int32Array, bound: number): void {
  const n = keys.length;
  if (n < 2) return;
  const small = n <= SCRATCH_WORDS;
  let toKeys: Uint32Array = small ? SCRATCH_TO_KEYS : new Uint32Array(n);
  let toStarts: Int32Array = small ? SCRATCH_TO_STARTS : new Int32Array(n);
  if (!small && bound <= 128) {
    sortBy14Bits(keys, starts, toKeys, toStarts);
    return;
  }
  let fromKeys = keys;
  let fromStarts = starts;
  // The counts of byte b at `shift` are at `(shift << 5) + b`.
  const counts = COUNTS;
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const key = keys[i] as number;
    const b0 = key & 255;
    const b1 = 256 + ((key >>> 8) & 255);
    const b2 = 512 + ((key >>> 16) & 255);
    const b3 = 768 + (key >>> 24);
    counts[b0] = (counts[b0] as number) + 1;
    counts[b1] = (counts[b1] as number) + 1;
    counts[b2] = (counts[b2] as number) + 1;
    counts[b3] = (counts[b3] as number) + 1;
  }
  // Which bytes move: one byte for all (the low bytes of short words) leaves the order as it is.
  const first = keys[0] as number;
  let moves = 0;
  for (let shift = 0; shift < 32; shift += 8) {
    if (counts[(shift << 5) + ((first >>> shift) & 255)] !== n) moves |= 1 << (shift >> 3);
  }
  // The sums of all four in one loop: micro-benchmark of 1,024 sorts of ~205 keys, 0.91x of
  // the time of a loop for each.
  for (let d = 0, at0 = 0, at1 = 0, at2 = 0, at3 = 0; d < bound; d++) {
    const count0 = counts[d] as number;
    const count1 = counts[256 + d] as number;
    const count2 = counts[512 + d] as number;
    const count3 = counts[768 + d] as number;
    counts[d] = at0;
    counts[256 + d] = at1;
    counts[512 + d] = at2;
    counts[768 + d] = at3;
    at0 += count0;
    at1 += count1;
    at2 += count2;
    at3 += count3;
  }
  for (let shift = 0; shift < 32; shift += 8) {
    if ((moves & (1 << (shift >> 3))) === 0) continue;
    const base = shift << 5;
    for (let i = 0; i < n; i++) {
      const key = fromKeys[i] as number;
      const slot = base + ((key >>> shift) & 255);
      const at = counts[slot] as number;
      counts[slot] = at + 1;
      toKeys[at] = key;
      toStarts[at] = fromStarts[i] as number;
    }
    const keysWere = fromKeys;
    fromKeys = toKeys;
    toKeys = keysWere;
    const startsWere = fromStarts;
    fromStarts = toStarts;
    toStarts = startsWere;
  }
  if (fromKeys !== keys) {
    keys.set(fromKeys.subarray(0, n));
    starts.set(fromStarts.subarray(0, n));
  }
}

/**
 * `sortByKey` of keys whose bytes are all below 128 (ASCII text): their four 7-bit digits
 * sorted two at a time, by 14-bit halves, low half first, in two passes rather than four.
 * Only for more words than the scratch arrays take: the sums over two tables of 16,384 counts
 * cost more than two passes over a few thousand words. A pass in which every key has the same
 * half moves nothing and is skipped. Micro-benchmark of the 210,000 keys of 1 MiB of distinct
 * short sources (80 rounds, interleaved): 0.64x of the time of the four passes by bytes.
 */
function sortBy14Bits(
  keys: Uint32Array,
  starts: Int32Array,
  toKeys: Uint32Array,
  toStarts: Int32Array,
): void {
  const n = keys.length;
  halfCounts ??= new Int32Array(2 * HALF);
  const counts = halfCounts;
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const key = keys[i] as number;
    const low = lowHalf(key);
    const high = HALF + highHalf(key);
    counts[low] = (counts[low] as number) + 1;
    counts[high] = (counts[high] as number) + 1;
  }
  const first = keys[0] as number;
  const lowMoves = counts[lowHalf(first)] !== n;
  const highMoves = counts[HALF + highHalf(first)] !== n;
  for (let d = 0, at = 0, high = 0; d < HALF; d++) {
    const count = counts[d] as number;
    counts[d] = at;
    at += count;
    const highCount = counts[HALF + d] as number;
    counts[HALF + d] = high;
    high += highCount;
  }
  let fromKeys = keys;
  let fromStarts = starts;
  if (lowMoves) {
    scatterByHalf(keys, starts, toKeys, toStarts, counts, 0, 0);
    fromKeys = toKeys;
    fromStarts = toStarts;
    toKeys = keys;
    toStarts = starts;
  }
  if (highMoves) {
    scatterByHalf(fromKeys, fromStarts, toKeys, toStarts, counts, HALF, 16);
    fromKeys = toKeys;
    fromStarts = toStarts;
  }
  if (fromKeys !== keys) {
    keys.set(fromKeys);
    starts.set(fromStarts);
  }
}

/**
 * One pass of `sortBy14Bits`: each key and start from `from…` to its place in `to…`, by the
 * half of the key at `shift` (0: low, 16: high) and the running positions at `base` of `counts`.
 */
function scatterByHalf(
  fromKeys: Uint32Array,
  fromStarts: Int32Array,
  toKeys: Uint32Array,
  toStarts: Int32Array,
  counts: Int32Array,
  base: number,
  shift: number,
): void {
  for (let i = 0; i < fromKeys.length; i++) {
    const key = fromKeys[i] as number;
    const slot = base + lowHalf(key >>> shift);
    const at = counts[slot] as number;
    counts[slot] = at + 1;
    toKeys[at] = key;
    toStarts[at] = fromStarts[i] as number;
  }
}

/** The two low 7-bit digits of a key of `sortBy14Bits`, as one 14-bit number. */
function lowHalf(key: number): number {
  return ((key >>> 1) & 0x3f80) | (key & 0x7f);
}

/** The two high 7-bit digits of a key of `sortBy14Bits`, as one 14-bit number. */
function highHalf(key: number): number {
  return lowHalf(key >>> 16);
}

const HALF = 1 << 14;
/** Counts of the low halves of the keys (`sortBy14Bits`), then of the high ones. */
let halfCounts: Int32Array | undefined;

/**
 * How the word of key `after` follows the word of the smaller key `before`: `EXTENDS` when
 * `before` ends inside its key and `after` starts with it (keys that differ are different
 * words), else 0.
 */
function keyRelation(before: number, after: number, bits: number): number {
  if ((before & ((1 << bits) - 1)) !== 0) return 0;
  // The digits after the end of `before`: its trailing zero bits, in whole digits.
  const shift = Math.floor((31 - Math.clz32(before & -before)) / bits) * bits;
  return before >>> shift === after >>> shift ? EXTENDS : 0;
}

/** How the word at `b` follows the word at `a` that sorts before it, both sharing `from`. */
function relation(text: Codes, a: number, b: number, from: number): number {
  for (let i = from; ; i++) {
    const x = text[a + i] as number;
    if (isWordEnd(x)) return isWordEnd(text[b + i] as number) ? REPEAT : EXTENDS;
    if (x !== text[b + i]) return 0;
  }
}

/**
 * A sorter of groups of the words at `a`: `sort(from, to, pos)` sorts `a[from, to)`, whose
 * words share their first `pos` characters, in place and marks repeats and extensions inside
 * the group by position in `marks`; the digits are below `bound`. Where two neighbours part,
 * the sort sees it: a word that ended at that character (digit 0) before a group of longer
 * ones is their prefix. Its buffers are made once for all the groups of one text (collecting
 * the groups first made an array of tens of thousands of numbers per parse, for the garbage
 * collector).
 */
function radixSorter(
  text: Codes,
  a: Int32Array,
  marks: Uint8Array,
  ascii: Uint8Array,
  bound: number,
): (from: number, to: number, pos: number) => void {
  const n = a.length;
  const spare = new Int32Array(n);
  // Digits stay below WIDE + 0x10000 - 128 (and 258 by bytes): 16 bits.
  const digits = new Uint16Array(n);
  const spareDigits = new Uint16Array(n);
  const counts = new Int32Array(Math.max(258, bound));
  // Groups still to sort, as [from, to, pos, low]: a stack rather than recursion, since a
  // group can go on for as many rounds as its words have characters. `low`: 1 when the group
  // shares the high byte of the digit at `pos` and is sorted by its low byte.
  const stack: number[] = [];
  let groupKeys: Uint32Array | undefined;
  return (first, last, shared) => {
    stack.push(first, last, shared, 0);
    sortStack();
  };

  /**
   * Sorts the group `a[from, to)`, whose words share their first `pos` characters, by keys of
   * their next four characters as `sortWords` sorts the whole text, and pushes the groups of
   * equal keys that go on past them. A large group of words that share a long start (the
   * paths of one host, "https://" hosts) took a counting round per character, each a pass of
   * five over the group, reading its words' characters at random: one pass to make the keys
   * and up to four of a radix sort. Same-process A/B beside the yardstick (15 pairs): 0.91x of
   * the time on two policies of the same distinct path sources, 0.73x on distinct host sources.
   */
  function byKeys(from: number, to: number, pos: number): void {
    const size = to - from;
    groupKeys ??= new Uint32Array(n);
    const keys = groupKeys.subarray(from, to);
    for (let k = 0; k < size; k++) {
      const start = (a[from + k] as number) + pos;
      let key = 0;
      let c = 0;
      for (; c < 4; c++) {
        const digit = digitOf(text[start + c] as number, ascii);
        if (digit === 0) break;
        key = (key << 8) | digit;
      }
      keys[k] = c === 0 ? 0 : key << (8 * (4 - c));
    }
    sortByKey(keys, a.subarray(from, to), bound);
    for (let g = 0, i = 1; i <= size; i++) {
      if (i < size && keys[i] === keys[g]) continue;
      if (g > 0) {
        // Key 0: words that end at `pos`, which every other word of the group starts with.
        const before = keys[g - 1] as number;
        marks[from + g] = before === 0 ? EXTENDS : keyRelation(before, keys[g] as number, 8);
      }
      if (i - g > 1) {
        if (((keys[g] as number) & 255) === 0) marks.fill(REPEAT, from + g + 1, from + i);
        else stack.push(from + g, from + i, pos + 4, 0);
      }
      g = i;
    }
  }

  function sortStack(): void {
    while (stack.length > 0) {
      const low = stack.pop() as number;
      let pos = stack.pop() as number;
      const to = stack.pop() as number;
      const from = stack.pop() as number;
      const size = to - from;
      if (low === 0 && size > REKEY && bound <= 256) {
        byKeys(from, to, sharedUntil(text, a, from, to, pos));
        continue;
      }
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
        let digit = digitOf(text[(a[k] as number) + pos] as number, ascii);
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
        spareDigits[slot] = digit;
        counts[digit] = slot + 1;
      }
      a.set(spare.subarray(from, to), from);
      digits.set(spareDigits.subarray(from, to), from);
      counts.fill(0, min, max + 1);
      // The buckets, found by walking the words (a group of a few words can spread over a
      // hundred digits). Digit 0: words that ended here, equal; the first word after them (once
      // its group is sorted) starts with them.
      let ended = false;
      for (let start = from; start < to; ) {
        const d = digits[start] as number;
        let end = start + 1;
        while (end < to && digits[end] === d) end++;
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
}
