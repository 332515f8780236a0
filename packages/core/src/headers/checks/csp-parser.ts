/**
 * Content-Security-Policy parsing as the MDN HTTP Observatory does it (mdn/mdn-http-observatory
 * @94042bb `src/analyzer/cspParser.js`), so that grades agree with it: line breaks removed,
 * directives split on ";", sources on whitespace (`/\s+/`), names lower-cased, sources
 * lower-cased with `toLocaleLowerCase`, a `-src` directive without sources means 'none'. Each
 * directive's sources are sorted with `Intl.Collator('en')`, and a source that starts with the
 * one before it from the same policy is dropped. A repeated directive makes the policy invalid,
 * except report-uri/report-to (kept, with a warning). With several policies a source survives
 * only when a later policy allows it again (CSP3 §8.1: every policy is enforced).
 * @module
 */
import { InvalidInputError } from '../../errors.js';

/** Shortest policy accepted: one letter less than `img-src` (Observatory). */
const SHORTEST_POLICY = 'img-src'.length - 1;
/** Directives ignored in `<meta http-equiv>` (HTML §4.2.5.3). */
export const META_DISALLOWED: readonly string[] = ['frame-ancestors', 'report-uri', 'sandbox'];
const DUPLICATES_ALLOWED = new Set(['report-uri', 'report-to']);
/**
 * Most directives a policy may have; one with more is invalid (`csp-header-invalid`). CSP3
 * defines about thirty and browsers ignore unknown names (CSP3 §2.2). Upstream has no limit: a
 * deliberate difference, which bounds the re-sorts of a repeated report-uri (docs/probes.md).
 */
export const MAX_DIRECTIVES = 1024;

export interface ParsedCsp {
  /** Directive → its sources, in the order upstream's Set has them. */
  directives: Map<string, Set<string>>;
  /** report-uri / report-to directives that were repeated. */
  duplicateWarnings: Set<string>;
}

/**
 * Upstream's `Intl.Collator('en').compare`: `localeCompare` with the same locale is that
 * comparison (ECMA-402 §19.1.1), at a third of its cost on ASCII sources (bench/parsers).
 */
const byCollator = (a: string, b: string) => a.localeCompare(b, 'en');

/** A source, the index of the policy it came from, and whether it is kept (upstream's shape). */
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
      // Upstream sorts this directive's sources and those that earlier policies left together,
      // stably. Those are in order already, so this sorts the new ones and merges.
      const values = sources.map((source) => source.toLocaleLowerCase());
      if (values.length === 0 && directive.endsWith('-src')) values.push("'none'");
      values.sort(byCollator);
      // The first policy's sources are kept unless a shorter one covers them; a later policy's
      // only when it matches one of an earlier policy.
      const fresh = values.map((source) => ({ source, policy: index, keep: index === 0 }));
      const combined =
        index === 0
          ? fresh
          : [...(lists.get(directive) ?? []), ...fresh].sort((a, b) =>
              byCollator(a.source, b.source),
            );
      for (let i = 1; i < combined.length; i++) {
        const before = combined[i - 1] as Source;
        const source = combined[i] as Source;
        if (source.policy === before.policy) {
          if (source.source.startsWith(before.source)) source.keep = false;
        } else if (pathPartMatch(before.source, source.source)) {
          source.keep = true;
        }
      }
      const kept = combined.filter((source) => source.keep);
      // After the first of several policies, a source stays only if a later one allows it.
      if (index === 0 && clean.length > 1) for (const source of kept) source.keep = false;
      lists.set(directive, kept);
    }
  });
  const directives = new Map<string, Set<string>>();
  for (const [directive, sources] of lists) {
    directives.set(
      directive,
      new Set(sources.length > 0 ? sources.map((source) => source.source) : ["'none'"]),
    );
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
