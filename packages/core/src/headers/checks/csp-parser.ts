/**
 * Content-Security-Policy parsing as the Observatory does it (mdn/mdn-http-observatory
 * `src/analyzer/cspParser.js`), so that grades agree: directives are lower-cased, sources
 * lower-cased, a `-src` directive without sources means 'none', a repeated directive inside
 * one policy makes the policy invalid (except report-uri/report-to, where the last one wins
 * and a warning is kept), and with several policies a source only survives when every policy
 * allows it (CSP3 §8.1: each policy is enforced, so the effective policy is the intersection).
 * @module
 */
import { InvalidInputError } from '../../errors.js';

/** Shortest policy accepted: one letter less than `img-src` (Observatory). */
const SHORTEST_POLICY = 'img-src'.length - 1;
/** Directives ignored in `<meta http-equiv>` (HTML §4.2.5.3). */
const META_DISALLOWED = ['frame-ancestors', 'report-uri', 'sandbox'];
const DUPLICATES_ALLOWED = new Set(['report-uri', 'report-to']);

export interface ParsedCsp {
  /** Directive → its sources. */
  directives: Map<string, Set<string>>;
  /** report-uri / report-to directives that were repeated. */
  duplicateWarnings: Set<string>;
}

interface Source {
  source: string;
  index: number;
  keep: boolean;
}

// Intl.Collator('en') ordering, as upstream sorts sources with it.
const compare = new Intl.Collator('en').compare;

/** Parses a list of policies; throws `InvalidInputError` for an invalid one. */
export function parseCsp(policies: readonly string[]): ParsedCsp {
  const clean = policies.map((p) => p.replace(/[\r\n]/g, '').trim());
  const duplicateWarnings = new Set<string>();
  if (clean.length === 0) return { directives: new Map(), duplicateWarnings };
  for (const policy of clean) {
    if (!policy || policy.length < SHORTEST_POLICY)
      // The messages are Observatory's (its parser test cases check them).
      throw new InvalidInputError(`Invalid policy: ${policy}`);
  }
  const csp = new Map<string, Source[]>();
  clean.forEach((policy, policyIndex) => {
    const seen = new Set<string>();
    // Runs of empty directives ("a; ; ; b") are dropped in one pass first: one trim and test
    // per empty directive took ~40 ms/MiB on a policy of thousands of them.
    for (const entry of policy.replace(EMPTY_DIRECTIVES, ';').split(';')) {
      const trimmed = entry.trim();
      if (!trimmed) continue;
      const space = trimmed.search(WHITESPACE);
      const directive = (space === -1 ? trimmed : trimmed.slice(0, space)).toLowerCase();
      if (seen.has(directive)) {
        if (!DUPLICATES_ALLOWED.has(directive)) {
          throw new InvalidInputError(`Duplicate directive ${directive} in policy ${policyIndex}`);
        }
        duplicateWarnings.add(directive);
      } else {
        seen.add(directive);
      }
      const keep = policyIndex === 0;
      const sources =
        space !== -1 ? trimmed.slice(space) : directive.endsWith('-src') ? "'none'" : '';
      const previous = policyIndex === 0 ? [] : (csp.get(directive) ?? []);
      const combined = sortSources(previous, sources, policyIndex, keep);
      for (let i = 1; i < combined.length; i++) {
        const source = combined[i] as Source;
        const prev = combined[i - 1] as Source;
        // Same policy, same prefix: the longer source adds nothing.
        if (source.index === prev.index && source.source.startsWith(prev.source))
          source.keep = false;
        // Allowed by both policies: it survives.
        if (source.index !== prev.index && pathPartMatch(prev.source, source.source))
          source.keep = true;
      }
      csp.set(
        directive,
        combined.filter((s) => s.keep),
      );
      if (policyIndex === 0 && policies.length > 1) {
        for (const s of csp.get(directive) ?? []) s.keep = false;
      }
    }
  });
  const directives = new Map<string, Set<string>>();
  for (const [directive, sources] of csp) {
    directives.set(
      directive,
      sources.length ? new Set(sources.map((s) => s.source)) : new Set(["'none'"]),
    );
  }
  return { directives, duplicateWarnings };
}

/** Two or more `;` with only whitespace between them. */
const EMPTY_DIRECTIVES = /;[\s;]*;/g;
const WHITESPACE = /\s/;
const NEXT_WHITESPACE = /\s/g;
const WORD_BREAK = /\s+/;
const ASCII = /^[\0-\x7f]*$/;
/** Sources are read this many characters at a time (see `forEachSources`). */
const SLICE = 64 * 1024;

/**
 * Calls `each` with the sources in `text` (its words, split at whitespace as `/\s+/` does),
 * lower-cased as upstream does (`toLocaleLowerCase`, word by word), about 64 KiB of them at a
 * time, with "" where a slice starts with whitespace. Splitting a 1 MiB policy at once keeps
 * all its words alive together: 20–70 ms/MiB of garbage collection, ~7 ms in slices.
 */
function forEachSources(text: string, each: (sources: string[]) => void): void {
  for (let start = 0; start < text.length; ) {
    NEXT_WHITESPACE.lastIndex = start + SLICE;
    const end = NEXT_WHITESPACE.exec(text)?.index ?? text.length;
    const slice = text.slice(start, end);
    // ASCII letters are lower-cased one by one in every locale: one call for the whole slice
    // gives the same words.
    each(
      ASCII.test(slice)
        ? slice.toLocaleLowerCase().split(WORD_BREAK)
        : slice.split(WORD_BREAK).map((word) => word.toLocaleLowerCase()),
    );
    start = end;
  }
}

/**
 * `previous`, then the sources in `text` (of policy `index`), in the order that upstream's
 * stable sort by `compare` gives them, less the repeats: a source equal to the one just before
 * it in that order and from the same policy is dropped by the prefix rule anyway.
 *
 * Only the distinct sources go through the collator: sorting an object per source with it took
 * ~150 ms/MiB on a directive of thousands of sources. When no two of them are equal for the
 * collator, each has a place of its own in that order, so the order of the words and their
 * repeats do not matter; otherwise every source goes, in its original order, to the bucket of
 * its rank, which is what a stable sort does.
 */
function sortSources(
  previous: readonly Source[],
  text: string,
  index: number,
  keep: boolean,
): Source[] {
  const fresh = new Set<string>();
  forEachSources(text, (sources) => {
    for (const source of new Set(sources)) fresh.add(source);
  });
  fresh.delete('');
  const distinct = previous.length === 0 ? fresh : new Set(fresh);
  for (const s of previous) distinct.add(s.source);
  const sorted = [...distinct].sort(compare);
  const shared = sorted.some(
    (source, i) => i > 0 && compare(sorted[i - 1] as string, source) === 0,
  );
  if (!shared && previous.length === 0) return sorted.map((source) => ({ source, index, keep }));

  const rank = new Map<string, number>();
  let last = -1;
  sorted.forEach((source, i) => {
    if (i === 0 || compare(sorted[i - 1] as string, source) !== 0) last++;
    rank.set(source, last);
  });
  const buckets: Source[][] = Array.from({ length: last + 1 }, () => []);
  const add = (source: Source) => {
    const bucket = buckets[rank.get(source.source) as number] as Source[];
    const before = bucket[bucket.length - 1];
    if (before?.source !== source.source || before.index !== source.index) bucket.push(source);
  };
  for (const s of previous) add(s);
  if (!shared) {
    for (const source of fresh) add({ source, index, keep });
  } else {
    forEachSources(text, (sources) => {
      for (const source of sources) if (source) add({ source, index, keep });
    });
  }
  return buckets.flat();
}

/** Like `parseCsp`, for `<meta http-equiv>` policies: header-only directives are dropped. */
export function parseCspMeta(policies: readonly string[]): ParsedCsp {
  const parsed = parseCsp(policies);
  for (const directive of META_DISALLOWED) parsed.directives.delete(directive);
  return parsed;
}

function pathPartMatch(pathA: string, pathB: string): boolean {
  if (pathA.length === 0) return true;
  if (pathA === '/' && pathB.length === 0) return true;
  const exact = !pathA.endsWith('/');
  const partsA = pathA.split('/');
  const partsB = pathB.split('/');
  if (partsA.length > partsB.length) return false;
  if (exact && partsA.length !== partsB.length) return false;
  if (!exact) partsA.pop();
  return partsA.every(
    (piece, i) => decodeURIComponent(piece) === decodeURIComponent(partsB[i] ?? ''),
  );
}
