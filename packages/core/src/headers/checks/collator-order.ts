/**
 * Strings in the order of `Intl.Collator('en').compare`, the order the Observatory sorts CSP
 * sources in (csp-parser.ts), without calling the collator n log n times: on 1 MiB of distinct
 * sources in random order that sort alone took 500–1,000 ms.
 *
 * Most sources are "plain": printable ASCII without capitals (the parser lower-cases them).
 * The root collation (CLDR, used for `en`) gives each of those 69 characters a primary weight
 * of its own, and none is ignorable (UTS #10 §3.6: punctuation and symbols are "variable", and
 * ICU's default `alternate=non-ignorable` keeps them; only controls, absent here, are
 * ignorable). So two plain strings compare as the sequences of their characters' ranks, a
 * shorter prefix first, and two different ones never compare equal. The ranks are taken from
 * the collator itself when the module loads, so they follow the ICU that Node carries. Plain
 * strings are then sorted by those ranks, five characters at a time as one number (a sort of
 * a Float64Array, native code) and again inside each group that shares the five: an MSD radix
 * sort, linear in the characters read. The other strings are sorted with the collator and
 * merged in.
 * @module
 */

const compare = new Intl.Collator('en').compare;

/** Rank + 1 of each plain character by code (0: not plain). */
const RANK = new Uint8Array(128);
/** Ranks run 1–69 and 0 stands for the end of a string: digits in base 70. */
const BASE = 70;
/** Characters per number: 70^5 × the index bound below stays under 2^53. */
const CHUNK = 5;
/** Room for the position of a string within its group (up to 2^22 strings, 4 MiB of input). */
const SLOT = 2 ** 22;

const plainChars: string[] = [];
for (let code = 0x21; code <= 0x7e; code++) {
  if (code < 0x41 || code > 0x5a) plainChars.push(String.fromCharCode(code));
}
plainChars.sort(compare);
// Unless the collator orders these characters strictly (it always has), every string takes
// the collator path.
const strict = plainChars.every((c, i) => i === 0 || compare(plainChars[i - 1] as string, c) < 0);
if (strict) {
  plainChars.forEach((c, i) => {
    RANK[c.charCodeAt(0)] = i + 1;
  });
}

/**
 * Rank + 1 of each plain character by code (0: not plain), from the collator as above: the CSP
 * source order (source-order.ts) builds on it. Undefined when the collator does not order the
 * plain characters strictly (never seen).
 */
export const PLAIN_RANK: Readonly<Uint8Array> | undefined = strict ? RANK : undefined;

/** Printable ASCII, no capitals: no control, space or DEL. */
const PLAIN = /^[!-@[-~]+$/;

export interface CollatorOrder {
  /** The strings (distinct), in collator order; strings that compare equal in any order. */
  sorted: string[];
  /** Indices i of `sorted` whose string compares equal to the one before it. */
  tied: Set<number>;
}

/**
 * `[...strings].sort(compare)` up to the order of ties, and where the ties are. `allPlain`: the
 * caller knows that every string is plain (saves a test per string).
 */
export function collatorOrder(strings: readonly string[], allPlain = false): CollatorOrder {
  let plain: string[] = [];
  const other: string[] = [];
  if (allPlain && strict) plain = strings as string[];
  else for (const s of strings) (strict && PLAIN.test(s) ? plain : other).push(s);
  if (plain.length > SLOT) {
    for (const s of plain) other.push(s);
    plain = [];
  }
  const sortedPlain = radixSort(plain);
  const tied = new Set<number>();
  if (other.length === 0) return { sorted: sortedPlain, tied };
  other.sort(compare);
  // Each other string goes after the plain ones that do not sort after it (binary search: a
  // few collator calls per other string). Plain strings never tie with each other, and the
  // plain string after an other one sorts after it: a tie has an other string second.
  const sorted: string[] = [];
  let i = 0;
  for (const s of other) {
    let lo = i;
    let hi = sortedPlain.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(sortedPlain[mid] as string, s) <= 0) lo = mid + 1;
      else hi = mid;
    }
    while (i < lo) sorted.push(sortedPlain[i++] as string);
    const before = sorted[sorted.length - 1];
    if (before !== undefined && compare(before, s) === 0) tied.add(sorted.length);
    sorted.push(s);
  }
  while (i < sortedPlain.length) sorted.push(sortedPlain[i++] as string);
  return { sorted, tied };
}

/**
 * Plain strings (repeats allowed) in collator order, which for them is rank order; `[...]` when
 * not every string is plain.
 */
export function sortPlain(strings: readonly string[]): string[] | undefined {
  if (!strict || strings.length > SLOT) return undefined;
  return radixSort(strings);
}

/** Plain strings in rank order. */
function radixSort(strings: readonly string[]): string[] {
  if (strings.length < 2) return [...strings];
  if (strings.length > SLOT) throw new RangeError('too many strings for one radix sort');
  const order = new Uint32Array(strings.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  const keys = new Float64Array(order.length);
  // Groups [from, to) still to sort, from their `depth`-th character on: a stack rather than
  // recursion, as two long strings that differ only at the end make one group per five
  // characters.
  const stack: number[] = [0, order.length, 0];
  while (stack.length > 0) {
    const depth = stack.pop() as number;
    const to = stack.pop() as number;
    const from = stack.pop() as number;
    sortGroup(strings, order, from, to, depth, keys, stack);
  }
  const out: string[] = new Array(order.length);
  for (let i = 0; i < order.length; i++) out[i] = strings[order[i] as number] as string;
  return out;
}

/**
 * Sorts `order[from, to)` (indices of `strings` that share their first `depth` characters) by
 * their next CHUNK characters, and pushes the groups that share those too onto `stack`.
 */
function sortGroup(
  strings: readonly string[],
  order: Uint32Array,
  from: number,
  to: number,
  depthFrom: number,
  keys: Float64Array,
  stack: number[],
): void {
  let depth = depthFrom;
  const n = to - from;
  // Skip what the whole group shares: strings with a long common prefix (or repeats) would
  // otherwise take one round per five characters of it. Each character is read once here.
  const first = strings[order[from] as number] as string;
  let shared = first.length;
  for (let k = 1; k < n && shared > depth; k++) {
    const s = strings[order[from + k] as number] as string;
    let c = depth;
    const end = Math.min(shared, s.length);
    while (c < end && s.charCodeAt(c) === first.charCodeAt(c)) c++;
    shared = c;
  }
  depth = Math.max(depth, shared);
  const chunk = keys.subarray(from, to);
  let longer = false;
  for (let k = 0; k < n; k++) {
    const s = strings[order[from + k] as number] as string;
    let digits = 0;
    for (let c = depth; c < depth + CHUNK; c++) {
      digits = digits * BASE + (c < s.length ? (RANK[s.charCodeAt(c)] as number) : 0);
    }
    if (s.length > depth + CHUNK) longer = true;
    chunk[k] = digits * SLOT + k;
  }
  chunk.sort();
  const before = order.slice(from, to);
  for (let k = 0; k < n; k++) order[from + k] = before[(chunk[k] as number) % SLOT] as number;
  if (!longer) return;
  let start = 0;
  let group = Math.floor((chunk[0] as number) / SLOT);
  for (let k = 1; k <= n; k++) {
    const next = k < n ? Math.floor((chunk[k] as number) / SLOT) : -1;
    if (next === group) continue;
    // Distinct strings with the same digits both go on past them.
    if (k - start > 1) stack.push(from + start, from + k, depth + CHUNK);
    start = k;
    group = next;
  }
}
