/**
 * Content-Security-Policy check (Observatory `src/analyzer/tests/csp.js`): the policy of the
 * headers and `<meta http-equiv>`, judged from the worst finding down.
 * @module
 */
import { META_DISALLOWED, parseCsp, parseCspMeta } from './csp-parser.js';
import { type CheckOutcome, headerValues, type ScanInput, shownValue } from './types.js';

/**
 * Most bytes of `<meta http-equiv="Content-Security-Policy">` content, all tags together; more
 * is an invalid policy (headers stop at undici's 16 KiB). Upstream has no cap: a deliberate
 * difference, for hostile pages only (docs/probes.md).
 */
export const MAX_META_POLICY_BYTES = 64 * 1024;

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

/** Results that count as a pass. */
const PASSING = [
  'csp-implemented-with-no-unsafe',
  'csp-implemented-with-no-unsafe-default-src-none',
  'csp-implemented-with-unsafe-inline-in-style-src-only',
  'csp-implemented-with-insecure-scheme-in-passive-content-only',
];

export interface CspOutcome extends CheckOutcome {
  /** The effective policy (directive → sources in code-unit order), null when none applies. */
  policy: Record<string, string[]> | null;
}

/** Header policies split on commas (RFC 9110 §5.3 combined fields; CSP3 §2.2 policy lists). */
const splitPolicies = (values: readonly string[]) =>
  values.flatMap((v) => v.split(',').map((s) => s.trim()));

const hasNonceOrHash = (sources: Iterable<string>) =>
  [...sources].some((s) => NONCES_HASHES.some((prefix) => s.startsWith(prefix)));

/**
 * Directives of the header policies plus those of the `<meta>` policies, each side parsed alone
 * and none when invalid (upstream); `all`, the parse of both, serves when one side is empty.
 */
function directiveCount(http: string[], meta: string[], all: Map<string, Set<string>>): number {
  if (meta.length === 0) return all.size;
  if (http.length === 0) return [...all.keys()].filter((d) => !META_DISALLOWED.includes(d)).length;
  const size = (parse: () => { directives: Map<string, Set<string>> }) => {
    try {
      return parse().directives.size;
    } catch {
      return 0;
    }
  };
  return size(() => parseCsp(http)) + size(() => parseCspMeta(meta));
}

export function checkCsp(input: ScanInput): CspOutcome {
  const response = input.auto;
  const headerValuesRaw = headerValues(response, 'content-security-policy');
  const metaValues = response?.httpEquiv['content-security-policy'] ?? [];
  const present = headerValuesRaw.length > 0 || metaValues.length > 0;
  const value = shownValue(headerValuesRaw);
  const out = (result: string, policy: CspOutcome['policy'] = null): CspOutcome => ({
    result,
    pass: PASSING.includes(result),
    present,
    value,
    policy,
  });
  if (!response || !input.url) return out('csp-not-implemented');

  const httpPolicies = splitPolicies(headerValuesRaw);
  const metaPolicies = splitPolicies(metaValues);
  const metaBytes = metaValues.reduce((sum, v) => sum + Buffer.byteLength(v), 0);
  if (metaBytes > MAX_META_POLICY_BYTES) return out('csp-header-invalid');
  let csp: Map<string, Set<string>>;
  let duplicates: Set<string>;
  try {
    const parsed = parseCsp([...httpPolicies, ...metaPolicies]);
    csp = parsed.directives;
    duplicates = parsed.duplicateWarnings;
  } catch {
    return out('csp-header-invalid');
  }
  if (directiveCount(httpPolicies, metaPolicies, csp) === 0) {
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
  const active = [...csp]
    .filter(([directive]) => !PASSIVE_DIRECTIVES.includes(directive) && directive !== 'script-src')
    .map(([, sources]) => sources);
  active.push(scriptSrc);
  const passive = PASSIVE_DIRECTIVES.map(
    (d) => csp.get(d) ?? csp.get('default-src') ?? new Set<string>(),
  );
  const https = input.url.protocol === 'https:';
  const insecure = (lists: Set<string>[]) =>
    lists.some((list) => [...list].some((s) => s.startsWith('http:') || s.startsWith('ftp:')));

  if (
    [...scriptSrc].some((s) => BROAD_OR_INLINE.has(s)) ||
    [...objectSrc].some((s) => DANGEROUSLY_BROAD.has(s))
  ) {
    worst('csp-implemented-with-unsafe-inline');
  }
  if (https && insecure(active)) worst('csp-implemented-with-insecure-scheme');
  if (scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'"))
    worst('csp-implemented-with-unsafe-eval');
  if (https && insecure(passive))
    worst('csp-implemented-with-insecure-scheme-in-passive-content-only');
  if ([...styleSrc].some((s) => BROAD_OR_INLINE.has(s)))
    worst('csp-implemented-with-unsafe-inline-in-style-src-only');
  const defaultSrc = csp.get('default-src');
  if (defaultSrc?.has("'none'") && defaultSrc.size === 1)
    worst('csp-implemented-with-no-unsafe-default-src-none');
  else worst('csp-implemented-with-no-unsafe');

  const policy: Record<string, string[]> = {};
  for (const [directive, sources] of csp) policy[directive] = [...sources].sort();
  const final = result as unknown as string;
  if (PASSING.includes(final) && duplicates.size > 0) {
    return { ...out('csp-implemented-but-duplicate-directives', policy), pass: true };
  }
  return out(final, policy);
}
