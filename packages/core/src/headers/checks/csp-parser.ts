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
    for (const entry of policy.split(';')) {
      const [directiveEntry, ...valueEntries] = entry.trim().split(/\s+/);
      if (!directiveEntry) continue;
      const directive = directiveEntry.toLowerCase();
      if (seen.has(directive)) {
        if (!DUPLICATES_ALLOWED.has(directive)) {
          throw new InvalidInputError(`Duplicate directive ${directive} in policy ${policyIndex}`);
        }
        duplicateWarnings.add(directive);
      } else {
        seen.add(directive);
      }
      const keep = policyIndex === 0;
      const values: Source[] = valueEntries.length
        ? valueEntries.map((raw) => ({
            source: raw.trim().toLocaleLowerCase(),
            index: policyIndex,
            keep,
          }))
        : directive.endsWith('-src')
          ? [{ source: "'none'", index: policyIndex, keep }]
          : [];
      const combined = policyIndex === 0 ? [...values] : [...(csp.get(directive) ?? []), ...values];
      combined.sort((a, b) => compare(a.source, b.source));
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
