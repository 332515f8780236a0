/**
 * Content-Security-Policy parsing as the Observatory does it (mdn/mdn-http-observatory
 * `src/analyzer/cspParser.js`), so that grades agree: directives are lower-cased, sources
 * lower-cased, a `-src` directive without sources means 'none', a repeated directive inside
 * one policy makes the policy invalid (except report-uri/report-to, where the last one wins
 * and a warning is kept), and with several policies a source only survives when every policy
 * allows it (CSP3 §8.1: each policy is enforced, so the effective policy is the intersection).
 *
 * Upstream sorts each directive's sources with `Intl.Collator('en')`, and which sources survive
 * depends on that order. Here they are sorted by a radix sort in the same order for every source
 * that the CSP3 §2.3.1 grammar allows (printable ASCII); sources with other characters, which
 * no browser matches to anything, go after those by code unit, where upstream's collator order
 * would cost n log n collator calls (up to 1 s on 1 MiB): a deliberate difference for those
 * only (source-order.ts). No step is worse than linear in the policy's length (issue 20 item 1).
 * @module
 */
import { InvalidInputError } from '../../errors.js';
import { isWhitespaceCode } from '../../whitespace.js';
import { SourceList } from './source-list.js';
import {
  compareSources,
  EXTENDS,
  OTHER_WHITESPACE,
  REPEAT,
  sortSourceWords,
  wordEnd,
  wordSpans,
  wordStrings,
} from './source-order.js';

/** Shortest policy accepted: one letter less than `img-src` (Observatory). */
const SHORTEST_POLICY = 'img-src'.length - 1;
/** Directives ignored in `<meta http-equiv>` (HTML §4.2.5.3). */
export const META_DISALLOWED: readonly string[] = ['frame-ancestors', 'report-uri', 'sandbox'];
const DUPLICATES_ALLOWED = new Set(['report-uri', 'report-to']);
/**
 * Most directives a policy may have; one with more is invalid (`csp-header-invalid`). CSP3
 * defines about thirty, and a browser ignores the names it does not know (CSP3 §2.2); a
 * policy of thousands is no policy anyone wrote by hand. Upstream has no limit: this is a
 * deliberate difference, for hostile policies only, since keeping 170,000 directive names of a
 * 1 MiB `<meta>` policy took more than the 50 ms per MiB that any parse of remote text may take
 * (issue 20 item 1; BENCHMARKS.md).
 */
export const MAX_DIRECTIVES = 1024;

export interface ParsedCsp {
  /** Directive → its sources (in source order, each once). */
  directives: Map<string, SourceList>;
  /** report-uri / report-to directives that were repeated. */
  duplicateWarnings: Set<string>;
}

/**
 * The sources of one directive as the policies so far leave them: in source order
 * (source-order.ts), each with the index of the policy it came from. Upstream keeps a `keep`
 * flag on each source object; after the first policy every flag is false, after any later one
 * true (only kept sources are kept), so one flag per directive says the same.
 */
interface Sources {
  sources: string[];
  policies: number[];
  keep: boolean;
  /** Whether any of `sources` may have a "%" (false: none has; `pathPartMatch`). */
  percent: boolean;
  /** Whether a source of `sources` may equal the one before it (false: none does). */
  repeats: boolean;
}

/** Parses a list of policies; throws `InvalidInputError` for an invalid one. */
export function parseCsp(policies: readonly string[]): ParsedCsp {
  // Most policies have no line break: `includes` (a memchr) finds that in a fraction of the
  // time that the regular expression takes to scan 1 MiB for nothing (~3 % of the parse of
  // every 1 MiB worst case, profile).
  const clean = policies.map((p) =>
    (p.includes('\n') || p.includes('\r') ? p.replace(LINE_BREAKS, '') : p).trim(),
  );
  const duplicateWarnings = new Set<string>();
  if (clean.length === 0) return { directives: new Map(), duplicateWarnings };
  for (const policy of clean) {
    if (!policy || policy.length < SHORTEST_POLICY)
      // The messages are Observatory's (its parser test cases check them).
      throw new InvalidInputError(`Invalid policy: ${policy}`);
  }
  if (clean.length === 1) return parseOnePolicy(clean[0] as string, duplicateWarnings);
  const csp = new Map<string, Sources>();
  clean.forEach((policy, policyIndex) => {
    const seen = new Set<string>();
    const lowerCase = lowerCaseTest(policy);
    forEachDirective(policy, (directive, text) => {
      if (seen.has(directive)) {
        if (!DUPLICATES_ALLOWED.has(directive)) {
          throw new InvalidInputError(`Duplicate directive ${directive} in policy ${policyIndex}`);
        }
        duplicateWarnings.add(directive);
      } else {
        seen.add(directive);
      }
      if (policyIndex === 0) {
        // Upstream: the sources in order, less those that start with the one before; then
        // every flag cleared, so that a later policy has to allow a source again.
        const sources = keptSources(text, lowerCase);
        csp.set(directive, {
          sources,
          policies: sources.map(() => 0),
          keep: false,
          percent: text.includes('%'),
          repeats: false,
        });
      } else {
        csp.set(directive, intersect(csp.get(directive), text, policyIndex, lowerCase));
      }
    });
  });
  const directives = new Map<string, SourceList>();
  for (const [directive, { sources, repeats }] of csp) {
    directives.set(directive, new SourceList(sources.length ? sources : ["'none'"], !repeats));
  }
  return { directives, duplicateWarnings };
}

/**
 * Upstream's step for policy `index` > 0: the sources so far and the new ones in one sorted
 * list (a source already there first: a stable sort of the old list and then the new
 * sources; a new source once, and not again after itself from the same policy). Then each
 * source, compared with the one just before it: from the same policy and starting with it,
 * dropped; from another policy and matched by it (`pathPartMatch`), kept; otherwise its flag
 * (for the new ones: cleared). Both lists are sorted already, so they merge: linear, where a
 * sort of both with an object per source took ~120 ms/MiB.
 */
function intersect(
  previous: Sources | undefined,
  text: string,
  index: number,
  lowerCase: () => boolean,
): Sources {
  const words = sourceText(text, lowerCase);
  let fresh: string[] = [];
  if (words.length <= SHORT_TEXT) {
    const sorted = shortSorted(words);
    fresh = sorted.filter((source, i) => i === 0 || source !== sorted[i - 1]);
  } else {
    fresh = wordStrings(sortSourceWords(words), 1 << REPEAT);
  }
  const old = previous?.sources ?? [];
  const oldPolicies = previous?.policies ?? [];
  const oldKeep = previous?.keep ?? false;
  // Without a "%" in either list, `pathPartMatch` need not look for one in every pair.
  const percent = (previous?.percent ?? false) || text.includes('%');
  const sources: string[] = [];
  const policies: number[] = [];
  let before: string | undefined;
  let beforePolicy = -1;
  let beforeKept = false;
  // The fresh source that the old ones just taken equal (`sourceOrder` 0), or -1. The old list
  // is in order, so the next old source is not before it: equal (`===`), or after it, with no
  // comparison that reads both. Every fresh source of a policy that repeats the one before
  // (the worst case of two policies) was compared so with the old source after its equal.
  // With `repeats` (for `SourceList`), same-process A/B beside the yardstick (15 pairs): 0.93x
  // of the time on two policies of the same distinct path sources.
  let matched = -1;
  let repeats = previous?.repeats ?? false;
  for (let i = 0, j = 0; i < old.length || j < fresh.length; ) {
    let source: string;
    let policy: number;
    let keep: boolean;
    let order: number;
    if (j >= fresh.length) order = -1;
    else if (i >= old.length) order = 1;
    else if (matched === j) order = old[i] === fresh[j] ? 0 : 1;
    else order = sourceOrder(old, i, fresh, j);
    // An old source equal to the fresh one before it: an old one is taken first.
    let equal = false;
    if (order <= 0) {
      source = old[i] as string;
      policy = oldPolicies[i] as number;
      keep = oldKeep;
      if (order === 0) matched = j;
      i++;
    } else {
      source = fresh[j] as string;
      policy = index;
      keep = false;
      equal = matched === j;
      j++;
    }
    if (before !== undefined) {
      if (policy === beforePolicy && source === before) continue;
      if (policy === beforePolicy && source.startsWith(before)) keep = false;
      if (policy !== beforePolicy && pathPartMatch(before, source, percent)) keep = true;
    }
    if (keep) {
      // A fresh source after its equal old one, both kept: the only way that the result gets
      // a repeat that the old list did not have (fresh sources are distinct; one after a
      // different source sorts after it).
      if (equal && beforeKept) repeats = true;
      sources.push(source);
      policies.push(policy);
    }
    before = source;
    beforePolicy = policy;
    beforeKept = keep;
  }
  return { sources, policies, keep: true, percent, repeats };
}

/**
 * `compareSources` of `old[i]` and `fresh[j]`, equal strings first: policies repeat sources,
 * and the engine tells equal strings apart at once, where the comparison reads them character
 * by character in script. An equal fresh source becomes the old string itself, so that the
 * comparisons of neighbours that follow (`===`, `pathPartMatch`) find the same string rather
 * than read two copies again. Same-process A/B beside the yardstick, with `percent` below:
 * 0.88-0.93x of the time on two policies of the same distinct path sources, then this: 0.93x.
 */
function sourceOrder(old: string[], i: number, fresh: string[], j: number): number {
  const a = old[i] as string;
  const b = fresh[j] as string;
  if (a === b) {
    fresh[j] = a;
    return 0;
  }
  return compareSources(a, b);
}

/**
 * Calls `each` with every directive of `policy`: its name, lower case, and the text of its
 * sources (`'none'` for a `-src` directive without any), as upstream's split at ";", trim and
 * split at the first whitespace give them. Scanned in place: the strings of those steps (four
 * per directive) were most of the garbage on a policy of thousands of directives.
 */
function forEachDirective(whole: string, each: (directive: string, sources: string) => void) {
  let policy = whole;
  let count = 0;
  let length = policy.length;
  let collapsed = false;
  for (let next = 0; next < length; ) {
    // Past the whitespace and the ";" of empty directives, which count for nothing, in the
    // same pass as the trim: a `replace` of runs of them first took a pass of its own over
    // every policy (~1 ms per MiB; same-process A/B beside the yardstick without it: 0.95-0.98x
    // of the time of the parse of a policy of the most directives, ~0.3x of that of thousands of
    // distinct directives of one source).
    let start = next;
    for (let u = policy.charCodeAt(start); u === 0x3b || isWhitespaceCode(u); ) {
      if (u === 0x3b && !collapsed) {
        // An empty directive: the runs of them from here on go in one pass, which took less
        // than half the time of skipping them here one code unit at a time (the worst case of
        // thousands of them: 0.2 against 0.55 times the yardstick). Runs of them are gone
        // either way, so where the pass starts does not matter.
        collapsed = true;
        policy = policy.slice(0, start) + policy.slice(start).replace(EMPTY_DIRECTIVES, ';');
        length = policy.length;
      }
      u = policy.charCodeAt(++start);
    }
    if (start >= length) return;
    let end = policy.indexOf(';', start);
    if (end === -1) end = length;
    next = end + 1;
    // `start` is neither whitespace nor ";": the directive is not empty.
    while (isWhitespaceCode(policy.charCodeAt(end - 1))) end--;
    if (++count > MAX_DIRECTIVES) {
      throw new InvalidInputError(`Invalid policy: more than ${MAX_DIRECTIVES} directives`);
    }
    let nameEnd = start + 1;
    while (nameEnd < end && !isWhitespaceCode(policy.charCodeAt(nameEnd))) nameEnd++;
    const directive = policy.slice(start, nameEnd).toLowerCase();
    if (nameEnd === end) {
      each(directive, directive.endsWith('-src') ? "'none'" : '');
      continue;
    }
    // `end` is not whitespace: the sources start before it.
    let from = nameEnd + 1;
    while (isWhitespaceCode(policy.charCodeAt(from))) from++;
    each(directive, policy.slice(from, end));
  }
}

/**
 * `parseCsp` of one policy (the usual case), as the code for several gives it, with one map
 * of directives rather than three (the seen set, the sources, the result): on a policy of
 * thousands of distinct directives those map operations were most of the time. A repeat shows
 * as a set that leaves the map's size as it was (one hash lookup, not two).
 */
function parseOnePolicy(policy: string, duplicateWarnings: Set<string>): ParsedCsp {
  const directives = new Map<string, SourceList>();
  const lowerCase = lowerCaseTest(policy);
  forEachDirective(policy, (directive, sources) => {
    const size = directives.size;
    directives.set(directive, sourceSet(sources, lowerCase));
    if (directives.size === size) {
      if (!DUPLICATES_ALLOWED.has(directive)) {
        throw new InvalidInputError(`Duplicate directive ${directive} in policy 0`);
      }
      duplicateWarnings.add(directive);
    }
  });
  return { directives, duplicateWarnings };
}

/**
 * The result's set for a directive of the only policy: its kept sources, or 'none'. The text
 * is trimmed and tested for whitespace once here, not again in `keptSources`, and the kept
 * sources are distinct, which `SourceList` need not check (a policy of the most directives
 * paid both for each of them).
 */
function sourceSet(text: string, lowerCase: () => boolean): SourceList {
  const only = text.trim();
  if (WHITESPACE.test(only)) {
    const words = sourceText(only, lowerCase);
    if (words.length > SHORT_TEXT) {
      // The kept words stay in the sorted text (`SourceList.ofWords`), as `keptWords` below.
      const sorted = sortSourceWords(words);
      return SourceList.ofWords(sorted.text, wordSpans(sorted, (1 << REPEAT) | (1 << EXTENDS)));
    }
    const kept = keptShortWords(words);
    if (kept.length > 0) return new SourceList(kept, true);
  }
  // One source (most directives) or none.
  return new SourceList(only === '' ? "'none'" : only.toLocaleLowerCase());
}

/**
 * The sources of one directive of the first (or only) policy as upstream leaves them: sorted
 * (source-order.ts), each once, less each source that starts with the one before it in that
 * order.
 */
function keptSources(text: string, lowerCase: () => boolean): string[] {
  const only = text.trim();
  // One source, or none: most directives.
  if (!WHITESPACE.test(only)) return only === '' ? [] : [only.toLocaleLowerCase()];
  return keptWords(only, lowerCase);
}

/**
 * `keptSources` of a text with whitespace. The words are sorted as offsets into the
 * lower-cased text, and only those kept become strings: sets and arrays of 200,000 words were
 * most of the time on 1 MiB of them.
 */
function keptWords(text: string, lowerCase: () => boolean): string[] {
  const words = sourceText(text, lowerCase);
  if (words.length <= SHORT_TEXT) return keptShortWords(words);
  // A repeat is gone from upstream's set; a source that starts with the one before it in the
  // order (a repeat counts as itself) is dropped by the prefix rule.
  return wordStrings(sortSourceWords(words), (1 << REPEAT) | (1 << EXTENDS));
}

/** `keptWords` of a short `sourceText`. */
function keptShortWords(words: string): string[] {
  const sorted = shortSorted(words);
  // A repeat starts with the word before it too.
  return sorted.filter((source, i) => i === 0 || !source.startsWith(sorted[i - 1] as string));
}

/**
 * Sources texts up to this long are split and sorted with `compareSources`: the tables of the
 * radix sort cost more than that for a few words (a policy of thousands of directives of two
 * sources each took ~270 ms/MiB with them).
 */
const SHORT_TEXT = 512;

/** The words of a short `sourceText`, sorted (repeats next to each other). */
function shortSorted(sources: string): string[] {
  const text = ASCII.test(sources) ? sources : sources.replace(OTHER_WHITESPACE, ' ');
  const words: string[] = [];
  for (let start = 0; start < text.length; ) {
    const u = text.charCodeAt(start);
    if (u === 0x20 || (u >= 0x09 && u <= 0x0d)) {
      start++;
      continue;
    }
    const end = wordEnd(text, start);
    words.push(text.slice(start, end));
    start = end;
  }
  // Two or three words mostly: by insertion, no comparator calls through the array sort.
  if (words.length > 8) return words.sort(compareSources);
  for (let k = 1; k < words.length; k++) {
    const word = words[k] as string;
    let j = k;
    for (; j > 0 && compareSources(words[j - 1] as string, word) > 0; j--) {
      words[j] = words[j - 1] as string;
    }
    words[j] = word;
  }
  return words;
}

/** CR and LF, which upstream removes from a policy. */
const LINE_BREAKS = /[\r\n]/g;
/** Two or more `;` with only whitespace between them. */
const EMPTY_DIRECTIVES = /;[\s;]*;/g;
const WHITESPACE = /\s/;
const WORD_BREAK = /\s+/;
const ASCII = /^[\0-\x7f]*$/;

/**
 * The sources in `text` as one text: its words (split at whitespace as `/\s+/` does),
 * lower-cased as upstream does (`toLocaleLowerCase`, word by word), between ASCII whitespace.
 *
 * Lower-casing the whole text in one call gives the same words (calling ICU per word took
 * ~100 ms/MiB): case mapping is per code point (Unicode §3.13) but for the conditional
 * mappings of SpecialCasing.txt, whose contexts never reach across whitespace: the
 * language-specific ones (lt, tr, az) stop at any character of combining class 0, which every
 * whitespace character is, and Final_Sigma only looks past case-ignorable characters, and the
 * only whitespace among those is U+FEFF (a format character, Cf). So text with U+FEFF is
 * lower-cased word by word. Lower-casing makes no whitespace and removes none; the whitespace
 * outside ASCII stays, for the word scanners (`shortSorted`, `sortSourceWords`) to split at.
 */
function sourceText(text: string, lowerCase: () => boolean): string {
  if (!text.includes('\ufeff')) {
    return text.length > SHORT_TEXT && lowerCase() ? text : text.toLocaleLowerCase();
  }
  return text
    .split(WORD_BREAK)
    .map((word) => word.toLocaleLowerCase())
    .join(' ');
}

/**
 * Whether lower-casing leaves `policy` as it is, found on the first call (one lower-casing of
 * the whole policy) and remembered: then each of its sources texts is lower case already. The
 * lower-casing of a text is that of its code points but for the conditional mappings of
 * SpecialCasing.txt, and each of those lower-cases a letter that every mapping changes (Σ, I,
 * J, Į, Ì, Í, Ĩ, İ; the "dot above" that tr and az remove follows an I): a policy that
 * lower-casing leaves alone has none, and no part of it changes either. Lower-casing each
 * sources text, a slice of the policy, took the engine's slow path (~2 µs a call) and a new
 * string as long as the text, which it then dropped: on a policy of the most directives, each
 * of distinct sources, the collections they brought on paused the parse ~20 ms per MiB, ~4 ms
 * without them (PerformanceObserver, 60 parses). Asked only for long texts (`sourceText`): a
 * policy of a thousand directives of one short source each would pay the one lower-casing of
 * the whole policy for nothing; and only from the second on.
 */
function lowerCaseTest(policy: string): () => boolean {
  let lower: boolean | undefined;
  let asked = 0;
  return () => {
    // The first long text is lower-cased as it is: a policy of one (the most usual long
    // policy) gains nothing from the test, and one of sources outside Latin-1 lost by it (the
    // worst case of distinct non-ASCII sources, all the CSP cases in one process: 3.1 against
    // 2.3 times the yardstick).
    if (++asked === 1) return false;
    lower ??= policy.toLocaleLowerCase() === policy;
    return lower;
  };
}

/** Like `parseCsp`, for `<meta http-equiv>` policies: header-only directives are dropped. */
export function parseCspMeta(policies: readonly string[]): ParsedCsp {
  const parsed = parseCsp(policies);
  for (const directive of META_DISALLOWED) parsed.directives.delete(directive);
  return parsed;
}

/**
 * Upstream's test of whether source `pathA` allows `pathB`, piece by piece between the `/`,
 * %-decoded (a malformed escape throws URIError, as upstream). `percent` false: the caller
 * knows that neither has a "%" (two searches per pair of neighbours were a tenth of the
 * intersection of two policies of 100,000 sources).
 */
function pathPartMatch(pathA: string, pathB: string, percent = true): boolean {
  if (pathA.length === 0) return true;
  if (pathA === '/' && pathB.length === 0) return true;
  const exact = pathA.charCodeAt(pathA.length - 1) !== 0x2f;
  // Without a "%", decoding changes no piece: the pieces of an exact `pathA` all match when
  // the strings are equal, and those of one ending in "/" (its last, empty piece dropped) when
  // `pathB` starts with it. Splitting and decoding every pair of neighbours of a merged list
  // took ~60 ms/MiB.
  if (!percent || (!pathA.includes('%') && !pathB.includes('%'))) {
    // Of the same length, `pathB` starts with `pathA` when they are equal, which the engine
    // tells at once when they are one string (as `sourceOrder` leaves a source that both
    // policies have), where `startsWith` reads them through: same-process A/B beside the
    // yardstick, 0.79-0.84x of the time of the intersection of two policies of distinct path
    // sources.
    return exact || pathA.length === pathB.length ? pathA === pathB : pathB.startsWith(pathA);
  }
  const partsA = pathA.split('/');
  const partsB = pathB.split('/');
  if (partsA.length > partsB.length) return false;
  if (exact && partsA.length !== partsB.length) return false;
  if (!exact) partsA.pop();
  return partsA.every(
    (piece, i) => decodeURIComponent(piece) === decodeURIComponent(partsB[i] ?? ''),
  );
}
