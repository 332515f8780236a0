/**
 * Content-Security-Policy check (Observatory `src/analyzer/tests/csp.js`): the policy from
 * headers and `<meta http-equiv>` is parsed, then judged from the worst finding down:
 * unsafe inline/broad script or object sources, insecure schemes on an https page,
 * 'unsafe-eval', insecure passive content, unsafe styles; `default-src 'none'` earns the most.
 * @module
 */
import { META_DISALLOWED, parseCsp, parseCspMeta } from './csp-parser.js';
import { SourceList } from './source-list.js';
import { inCodeUnitOrder } from './source-order.js';
import { type CheckOutcome, headerValues, type ScanInput, shownValue } from './types.js';

const DANGEROUSLY_BROAD = new Set([
  'ftp:',
  'http:',
  'https:',
  '*',
  'http://*',
  'http://*.*',
  'https://*',
  'https://*.*',
]);
const UNSAFE_INLINE = new Set(["'unsafe-inline'", 'data:']);
const BROAD_OR_INLINE = new Set([...DANGEROUSLY_BROAD, ...UNSAFE_INLINE]);
const PASSIVE_DIRECTIVES = ['img-src', 'media-src'];
const NONCES_HASHES = ["'sha256-", "'sha384-", "'sha512-", "'nonce-"];
const INSECURE_SCHEMES = ['http:', 'ftp:'];

/** Results that count as a pass. */
const PASSING = [
  'csp-implemented-with-no-unsafe',
  'csp-implemented-with-no-unsafe-default-src-none',
  'csp-implemented-with-unsafe-inline-in-style-src-only',
  'csp-implemented-with-insecure-scheme-in-passive-content-only',
];

export interface CspOutcome extends CheckOutcome {
  /** The effective policy (directive → sorted sources), null when none applies. */
  policy: Record<string, string[]> | null;
}

/** Header policies split on commas (RFC 9110 §5.3 combined fields; CSP3 §2.2 policy lists). */
function splitPolicies(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(',').map((s) => s.trim()));
}

/**
 * Whether any source of any of the lists passes `test`. Loops rather than copies: spreading
 * and flat-mapping the lists of a 1 MiB policy (200,000 sources, read several times) took
 * ~80 ms of the check, and `push(...list)` overflowed the stack from some 130,000 on.
 */
function some(lists: Iterable<Iterable<string>>, test: (source: string) => boolean): boolean {
  for (const list of lists) for (const source of list) if (test(source)) return true;
  return false;
}

/** A directive's sources, or what stands for a missing one (`*`, or none). */
type Sources = SourceList | ReadonlySet<string> | readonly string[];

/**
 * Whether any of the lists has one of `members`: a lookup of each member in each list, which a
 * `SourceList` answers by binary search. Testing every source instead (as upstream) made the
 * check of a 1 MiB policy of 210,000 distinct sources ~7 times as long as its parse: a dozen
 * passes over them, each a call per source (BENCHMARKS.md, issue 20 item 1).
 */
function hasAnyOf(lists: readonly Sources[], members: ReadonlySet<string>): boolean {
  for (const list of lists) {
    for (const member of members) {
      if (Array.isArray(list) ? list.includes(member) : (list as ReadonlySet<string>).has(member))
        return true;
    }
  }
  return false;
}

/** Whether a source of any of the lists starts with one of `prefixes` (see `hasAnyOf`). */
function hasPrefixIn(lists: readonly Sources[], prefixes: readonly string[]): boolean {
  for (const list of lists) {
    for (const prefix of prefixes) {
      const found =
        list instanceof SourceList
          ? list.hasPrefix(prefix)
          : some([list], (source) => source.startsWith(prefix));
      if (found) return true;
    }
  }
  return false;
}

const hasNonceOrHash = (sources: Sources) => hasPrefixIn([sources], NONCES_HASHES);

/** The check's verdict and the policy it judged (after its edits; null when none applies). */
interface CspAnalysis {
  outcome: CheckOutcome;
  directives: ReadonlyMap<string, SourceList> | null;
}

/**
 * Each scan's analysis, made once: the grade asks for it twice (this test, and X-Frame-Options,
 * which a `frame-ancestors` directive supersedes), and each parse of a 1 MiB `<meta>` policy
 * is tens of milliseconds. A `ScanInput` is a snapshot of one scan: nothing changes it after it
 * is made, so an analysis of it stays true.
 */
const analyses = new WeakMap<ScanInput, CspAnalysis>();

/** The CSP analysis of a scan (see `analyses`). */
export function analyseCsp(input: ScanInput): CspAnalysis {
  let analysis = analyses.get(input);
  if (analysis === undefined) {
    analysis = analyse(input);
    analyses.set(input, analysis);
  }
  return analysis;
}

/**
 * The CSP test as the grade runs it: the verdict without the reported policy, which the grade
 * does not show. Writing that policy out (every source as a string, in code-unit order) was
 * a fifth of the grade's time on a page of a 1 MiB policy of host sources, done twice (profile;
 * BENCHMARKS.md, issue 20 item 1).
 */
export function cspVerdict(input: ScanInput): CheckOutcome {
  return analyseCsp(input).outcome;
}

/**
 * The CSP test (Observatory `contentSecurityPolicyTest`), with the effective policy as upstream
 * reports it (every source a string, in code-unit order). For the tests that hold the analysis
 * to upstream's output: the grade runs `cspVerdict`, and nothing exported runs this on what a
 * server sent (on a hostile 1 MiB policy the reported policy takes as long again as the parse).
 */
export function checkCsp(input: ScanInput): CspOutcome {
  const { outcome, directives } = analyseCsp(input);
  if (directives === null) return { ...outcome, policy: null };
  const policy: Record<string, string[]> = {};
  // Code-unit order, as `[...sources].sort()`: from the source order the lists are in, by a
  // radix sort when the two orders differ on their code units (source-order.ts; the default
  // sort of 200,000 sources took ~65 ms).
  for (const [directive, sources] of directives) {
    policy[directive] = inCodeUnitOrder(sources.toArray());
  }
  return { ...outcome, policy };
}

function analyse(input: ScanInput): CspAnalysis {
  const response = input.auto;
  const headerValuesRaw = headerValues(response, 'content-security-policy');
  const present =
    headerValuesRaw.length > 0 || (response?.httpEquiv['content-security-policy']?.length ?? 0) > 0;
  const value = shownValue(headerValuesRaw);
  const out = (
    result: string,
    directives: CspAnalysis['directives'] = null,
    pass = PASSING.includes(result),
  ): CspAnalysis => ({ outcome: { result, pass, present, value }, directives });
  if (!response || !input.url) return out('csp-not-implemented');

  const httpPolicies = splitPolicies(headerValuesRaw);
  const metaPolicies = splitPolicies(response.httpEquiv['content-security-policy'] ?? []);
  let csp: Map<string, SourceList>;
  let duplicates: Set<string>;
  try {
    const parsed = parseCsp([...httpPolicies, ...metaPolicies]);
    csp = parsed.directives;
    duplicates = parsed.duplicateWarnings;
  } catch {
    return out('csp-header-invalid');
  }
  // Only whether the headers or the <meta> tags give any directive matters here. When all the
  // policies come from one of them, its parse is the one above (parseCsp depends on its input
  // alone, parseCspMeta is parseCsp less the header-only directives, and the other parse is
  // of nothing): parsing a 1 MiB <meta> policy a second time doubled the time of this check.
  let directiveCount: number;
  if (metaPolicies.length === 0) directiveCount = csp.size;
  else if (httpPolicies.length === 0) {
    directiveCount = [...csp.keys()].filter((d) => !META_DISALLOWED.includes(d)).length;
  } else {
    let headerOnly: Map<string, SourceList>;
    let meta: Map<string, SourceList>;
    try {
      headerOnly = parseCsp(httpPolicies).directives;
    } catch {
      headerOnly = new Map();
    }
    try {
      meta = parseCspMeta(metaPolicies).directives;
    } catch {
      meta = new Map();
    }
    directiveCount = headerOnly.size + meta.size;
  }
  if (directiveCount === 0) {
    const reportOnly = headerValues(response, 'content-security-policy-report-only')[0];
    return out(reportOnly ? 'csp-not-implemented-but-reporting-enabled' : 'csp-not-implemented');
  }

  // The same Set objects as in `csp` on purpose: edits below show in the reported policy,
  // exactly as upstream, so results and data agree with it.
  const objectSrc = csp.get('object-src') ?? csp.get('default-src') ?? new Set(['*']);
  const scriptSrc = csp.get('script-src') ?? csp.get('default-src') ?? new Set(['*']);
  const styleSrc = csp.get('style-src') ?? csp.get('default-src') ?? new Set(['*']);

  // CSP3 §6.7.3.2: 'unsafe-inline' is ignored when a nonce or hash is present.
  for (const list of [scriptSrc, styleSrc]) {
    if (hasNonceOrHash(list) && list.has("'unsafe-inline'")) list.delete("'unsafe-inline'");
  }
  let result: string | null = null;
  const worst = (candidate: string) => {
    if (result === null) result = candidate;
  };
  // CSP3 §8.2: 'strict-dynamic' with a nonce/hash makes host and scheme sources, 'self' and
  // 'unsafe-inline' ignored; without one it blocks every script, which is a broken policy.
  if (hasNonceOrHash(scriptSrc) && scriptSrc.has("'strict-dynamic'")) {
    for (const source of [...scriptSrc]) {
      if (
        [...DANGEROUSLY_BROAD].some((s) => source.startsWith(s)) ||
        source === "'self'" ||
        source === "'unsafe-inline'"
      ) {
        scriptSrc.delete(source);
      }
    }
  } else if (scriptSrc.has("'strict-dynamic'")) {
    worst('csp-header-invalid');
  }

  // Active content: every directive but the passive ones and script-src, then script-src as
  // found above; passive: img-src and media-src, each falling back to default-src.
  const active = [
    ...[...csp.entries()]
      .filter(
        ([directive]) => !PASSIVE_DIRECTIVES.includes(directive) && directive !== 'script-src',
      )
      .map(([, sources]) => sources),
    scriptSrc,
  ];
  const passive = PASSIVE_DIRECTIVES.map((d) => csp.get(d) ?? csp.get('default-src') ?? []);
  const https = input.url.protocol === 'https:';

  if (hasAnyOf([scriptSrc], BROAD_OR_INLINE) || hasAnyOf([objectSrc], DANGEROUSLY_BROAD)) {
    worst('csp-implemented-with-unsafe-inline');
  }
  if (https && hasPrefixIn(active, INSECURE_SCHEMES)) worst('csp-implemented-with-insecure-scheme');
  if (scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'"))
    worst('csp-implemented-with-unsafe-eval');
  if (https && hasPrefixIn(passive, INSECURE_SCHEMES))
    worst('csp-implemented-with-insecure-scheme-in-passive-content-only');
  if (hasAnyOf([styleSrc], BROAD_OR_INLINE))
    worst('csp-implemented-with-unsafe-inline-in-style-src-only');
  const defaultSrc = csp.get('default-src');
  if (defaultSrc?.has("'none'") && defaultSrc.size === 1)
    worst('csp-implemented-with-no-unsafe-default-src-none');
  else worst('csp-implemented-with-no-unsafe');

  const final = result as unknown as string;
  if (PASSING.includes(final) && duplicates.size > 0) {
    return out('csp-implemented-but-duplicate-directives', csp, true);
  }
  return out(final, csp);
}
