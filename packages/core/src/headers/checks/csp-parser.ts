/**
 * Content-Security-Policy parsing as the MDN HTTP Observatory does it (mdn/mdn-http-observatory
 * @94042bb `src/analyzer/cspParser.js`), so that grades agree with it: sources sorted with
 * `Intl.Collator('en')`, one that starts with the one before it from the same policy dropped; a
 * repeated directive is invalid but for report-uri/report-to. With several policies a source
 * survives only when a later policy allows it again (CSP3 §8.1: every policy is enforced).
 * @module
 */
import { InvalidInputError } from '../../errors.js';

/** Shortest policy accepted: one letter less than `img-src` (Observatory). */
const SHORTEST_POLICY = 'img-src'.length - 1;
/** Directives ignored in `<meta http-equiv>` (HTML §4.2.5.3). */
export const META_DISALLOWED: readonly string[] = ['frame-ancestors', 'report-uri', 'sandbox'];
const DUPLICATES_ALLOWED = new Set(['report-uri', 'report-to']);
/**
 * Most directives a policy may have (CSP3 defines about thirty); more is invalid. Upstream has
 * no limit: a deliberate difference, for hostile policies only (docs/probes.md).
 */
export const MAX_DIRECTIVES = 1024;
/**
 * Most sources all the policies together may list; more is invalid. Sorting with `Intl.Collator`
 * is slow (test/adversarial/inputs.ts); real policies have tens to hundreds. Upstream has no limit.
 */
export const MAX_SOURCES = 2048;
/**
 * Most sources the policies after the first may merge with what those before left; more is
 * invalid. Many policies naming a huge directive would make upstream's merges quadratic; two of
 * the largest merge at most 2 × MAX_SOURCES. Upstream has no limit: a deliberate difference.
 */
export const MAX_MERGED_SOURCES = 2 * MAX_SOURCES;

export interface ParsedCsp {
  /** Directive → its sources, in the order upstream's Set has them. */
  directives: Map<string, Set<string>>;
  /** report-uri / report-to directives that were repeated. */
  duplicateWarnings: Set<string>;
}

/** Upstream's order of sources. */
const byCollator = new Intl.Collator('en').compare;

/**
 * A source of what the policies so far leave of a directive, in order: the policy it came from
 * and upstream's `keep` flag (false after the first policy, so that a later one has to allow it
 * again; true after a later one).
 */
interface Source {
  source: string;
  policy: number;
  keep: boolean;
}

/** Parses a list of policies; throws `InvalidInputError` for an invalid one. */
export function parseCsp(policies: readonly string[]): ParsedCsp {
  const clean = policies.map((policy) => policy.replace(/[\r\n]/g, '').trim());
  for (const policy of clean) {
    // The messages are the Observatory's (its parser test cases check them).
    if (policy.length < SHORTEST_POLICY) throw new InvalidInputError(`Invalid policy: ${policy}`);
  }
  const lists = new Map<string, Source[]>();
  const duplicateWarnings = new Set<string>();
  let merged = 0;
  let listed = 0;
  clean.forEach((policy, index) => {
    const seen = new Set<string>();
    let count = 0;
    for (const entry of policy.split(';')) {
      const [name = '', ...sources] = entry.trim().split(/\s+/);
      if (name === '') continue;
      if (++count > MAX_DIRECTIVES) {
        throw new InvalidInputError(`Invalid policy: more than ${MAX_DIRECTIVES} directives`);
      }
      const directive = name.toLowerCase();
      if (seen.has(directive)) {
        if (!DUPLICATES_ALLOWED.has(directive)) {
          throw new InvalidInputError(`Duplicate directive ${directive} in policy ${index}`);
        }
        duplicateWarnings.add(directive);
      }
      seen.add(directive);
      listed += sources.length;
      if (listed > MAX_SOURCES) {
        throw new InvalidInputError(`Invalid policy: more than ${MAX_SOURCES} sources`);
      }
      const values = sources.map((source) => source.toLocaleLowerCase());
      if (values.length === 0 && directive.endsWith('-src')) values.push("'none'");
      values.sort(byCollator);
      if (index === 0) {
        // Within one policy, a source that starts with the one before it adds nothing.
        const kept = values.filter(
          (value, i) => i === 0 || !value.startsWith(values[i - 1] as string),
        );
        lists.set(
          directive,
          kept.map((source) => ({ source, policy: 0, keep: false })),
        );
        continue;
      }
      // Upstream sorts these sources and those the policies before left together, stably:
      // both are in order, so the sort merges them (equal sources, the earlier ones first).
      const old = lists.get(directive) ?? [];
      merged += old.length + values.length;
      if (merged > MAX_MERGED_SOURCES) {
        throw new InvalidInputError(
          `Invalid policy: more than ${MAX_MERGED_SOURCES} sources to merge`,
        );
      }
      const combined: Source[] = [
        ...old,
        ...values.map((source) => ({ source, policy: index, keep: false })),
      ].sort((a, b) => byCollator(a.source, b.source));
      for (let i = 1; i < combined.length; i++) {
        const before = combined[i - 1] as Source;
        const source = combined[i] as Source;
        // From the same policy and starting with the one before: superfluous. Matched by a
        // source of another policy: allowed by both, kept.
        if (source.policy === before.policy) {
          if (source.source.startsWith(before.source)) source.keep = false;
        } else if (pathPartMatch(before.source, source.source)) {
          source.keep = true;
        }
      }
      lists.set(
        directive,
        combined.filter((source) => source.keep),
      );
    }
  });
  const directives = new Map<string, Set<string>>();
  for (const [directive, kept] of lists) {
    directives.set(directive, new Set(kept.length > 0 ? kept.map((s) => s.source) : ["'none'"]));
  }
  return { directives, duplicateWarnings };
}

/** Like `parseCsp`, for `<meta http-equiv>` policies: header-only directives are dropped. */
export function parseCspMeta(policies: readonly string[]): ParsedCsp {
  const parsed = parseCsp(policies);
  for (const directive of META_DISALLOWED) parsed.directives.delete(directive);
  return parsed;
}

/**
 * Upstream's test of whether source `pathA` allows `pathB`, piece by piece between the "/",
 * %-decoded (a malformed escape throws URIError, as upstream; the check calls that invalid).
 */
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
    (piece, i) => decodeURIComponent(piece) === decodeURIComponent(partsB[i] as string),
  );
}
