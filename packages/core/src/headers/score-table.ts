/**
 * Every number of the security-header grade, apart from the checks as upstream does: from
 * mdn/mdn-http-observatory @94042bb `src/grader/charts.js` and `src/grader/grader.js` (algorithm
 * version 6), compared with the upstream copy by a conformance test. The points of the netdiag
 * additions (marked so) are our own choice, documented in docs/probes.md.
 * @module
 */

/**
 * Points added to the score (positive ones are extra credit, see `gradeScore`), what the result
 * means, and what to change (`""` when nothing needs to change).
 */
const entry = (modifier: number, description: string, recommendation = '') => ({
  modifier,
  description,
  recommendation,
});

const CSP_FIX =
  "Set a Content-Security-Policy without 'unsafe-inline'/'unsafe-eval', with script-src and object-src restricted (start from default-src 'none').";
const COOKIE_FIX =
  'Set Secure on every cookie, HttpOnly on session cookies, and SameSite=Lax or Strict.';

export const SCORE_TABLE: Readonly<Record<string, ReturnType<typeof entry>>> = {
  // --- Content-Security-Policy ---
  'csp-implemented-with-no-unsafe-default-src-none': entry(
    10,
    "CSP with default-src 'none' and no unsafe sources.",
  ),
  'csp-implemented-with-no-unsafe': entry(
    5,
    "CSP without 'unsafe-inline' or 'unsafe-eval'.",
    "Tighten further with default-src 'none'.",
  ),
  'csp-implemented-with-unsafe-inline-in-style-src-only': entry(
    0,
    'CSP allows unsafe sources in style-src only.',
    "Remove 'unsafe-inline', data: and broad sources from style-src (use nonces or hashes).",
  ),
  'csp-implemented-with-insecure-scheme-in-passive-content-only': entry(
    -10,
    'CSP lets an HTTPS site load images or media over HTTP.',
    'Allow only https: sources in img-src and media-src.',
  ),
  'csp-implemented-with-unsafe-eval': entry(
    -10,
    "CSP allows 'unsafe-eval'.",
    "Remove 'unsafe-eval' from script-src and style-src.",
  ),
  'csp-implemented-with-unsafe-inline': entry(
    -20,
    "CSP allows 'unsafe-inline' or data: in script-src, broad sources in script-src/object-src, or does not restrict them.",
    CSP_FIX,
  ),
  'csp-implemented-with-insecure-scheme': entry(
    -20,
    'CSP lets an HTTPS site load active content over HTTP.',
    'Remove http: and ftp: sources.',
  ),
  'csp-header-invalid': entry(
    -25,
    'The Content-Security-Policy header cannot be parsed.',
    'Fix the policy syntax (no repeated directives, no stray characters).',
  ),
  'csp-not-implemented': entry(-25, 'No Content-Security-Policy header.', CSP_FIX),
  'csp-not-implemented-but-reporting-enabled': entry(
    -25,
    'Only Content-Security-Policy-Report-Only is set.',
    'Enforce the policy with a Content-Security-Policy header.',
  ),
  'csp-implemented-but-duplicate-directives': entry(
    0,
    'CSP is sound but repeats report-uri/report-to.',
    'Keep one report-uri and one report-to directive.',
  ),
  // --- Cookies ---
  'cookies-secure-with-httponly-sessions-and-samesite': entry(
    5,
    'Every cookie is Secure, session cookies HttpOnly, all with SameSite.',
  ),
  'cookies-secure-with-httponly-sessions': entry(
    0,
    'Every cookie is Secure and session cookies are HttpOnly.',
    'Add SameSite=Lax or Strict to every cookie.',
  ),
  'cookies-not-found': entry(0, 'No cookies were set.'),
  'cookies-without-secure-flag-but-protected-by-hsts': entry(
    -5,
    'Cookies without Secure, but HSTS keeps them off HTTP.',
    COOKIE_FIX,
  ),
  'cookies-session-without-secure-flag-but-protected-by-hsts': entry(
    -10,
    'A session cookie without Secure, but HSTS keeps it off HTTP.',
    COOKIE_FIX,
  ),
  'cookies-without-secure-flag': entry(
    -20,
    'Cookies without the Secure flag, or set over HTTP.',
    COOKIE_FIX,
  ),
  'cookies-samesite-flag-invalid': entry(
    -20,
    'A SameSite value other than Strict, Lax or None (or None without Secure).',
    'Use SameSite=Strict or Lax (None only together with Secure).',
  ),
  'cookies-anticsrf-without-samesite-flag': entry(
    -20,
    'An anti-CSRF cookie without SameSite.',
    'Set SameSite=Strict on anti-CSRF cookies.',
  ),
  'cookies-session-without-httponly-flag': entry(
    -30,
    'A session cookie readable by scripts (no HttpOnly).',
    'Set HttpOnly on session cookies.',
  ),
  'cookies-session-without-secure-flag': entry(
    -40,
    'A session cookie without Secure, or set over HTTP.',
    COOKIE_FIX,
  ),
  // --- CORS ---
  'cross-origin-resource-sharing-not-implemented': entry(0, 'No cross-origin access is granted.'),
  'cross-origin-resource-sharing-implemented-with-public-access': entry(
    0,
    'Access-Control-Allow-Origin: * (public, no credentials).',
  ),
  'cross-origin-resource-sharing-implemented-with-restricted-access': entry(
    0,
    'Cross-origin access is limited to specific origins.',
  ),
  'cross-origin-resource-sharing-implemented-with-universal-access': entry(
    -50,
    'Any origin is reflected with credentials allowed: cross-site request forgery and data theft.',
    'Never reflect arbitrary Origin values together with Access-Control-Allow-Credentials: true; allow-list origins.',
  ),
  // --- Redirection ---
  'redirection-all-redirects-preloaded': entry(
    0,
    'Every host redirected through is HSTS-preloaded.',
  ),
  'redirection-to-https': entry(0, 'HTTP redirects to HTTPS on the same host first.'),
  'redirection-not-needed-no-http': entry(0, 'The site does not answer over HTTP.'),
  'redirection-off-host-from-http': entry(
    -5,
    'HTTP redirects straight to HTTPS on another host, so HSTS for this host is never set.',
    'Redirect http://host/ to https://host/ first, then elsewhere.',
  ),
  'redirection-not-to-https-on-initial-redirection': entry(
    -10,
    'The first redirect goes to another HTTP URL.',
    'Make the first redirect go to HTTPS on the same host.',
  ),
  'redirection-not-to-https': entry(
    -20,
    'HTTP redirects, but not to HTTPS.',
    'Redirect every HTTP request to HTTPS.',
  ),
  'redirection-missing': entry(
    -20,
    'HTTP does not redirect to HTTPS.',
    'Answer HTTP requests with a 301 to the HTTPS URL.',
  ),
  'redirection-invalid-cert': entry(
    -20,
    'The HTTPS redirect target has an untrusted certificate.',
    'Install a certificate chain that browsers trust.',
  ),
  // --- Referrer-Policy ---
  'referrer-policy-private': entry(
    5,
    'Referrer-Policy keeps URLs private (no-referrer, same-origin, strict-origin[-when-cross-origin]).',
  ),
  'referrer-policy-not-implemented': entry(
    0,
    'No Referrer-Policy (browsers default to strict-origin-when-cross-origin).',
    'Set Referrer-Policy: strict-origin-when-cross-origin (or stricter).',
  ),
  'referrer-policy-unsafe': entry(
    -5,
    'Referrer-Policy leaks full URLs (origin, origin-when-cross-origin, unsafe-url, no-referrer-when-downgrade).',
    'Use strict-origin-when-cross-origin or no-referrer.',
  ),
  'referrer-policy-header-invalid': entry(
    -5,
    'Referrer-Policy has no recognised value.',
    'Use strict-origin-when-cross-origin or no-referrer.',
  ),
  // --- Strict-Transport-Security ---
  'hsts-preloaded': entry(5, 'The host is on the HSTS preload list.'),
  'hsts-implemented-max-age-at-least-six-months': entry(
    0,
    'HSTS with max-age of at least six months.',
    'Consider includeSubDomains and preload.',
  ),
  'hsts-implemented-max-age-less-than-six-months': entry(
    -10,
    'HSTS max-age is under six months.',
    'Set Strict-Transport-Security: max-age=63072000; includeSubDomains.',
  ),
  'hsts-not-implemented': entry(
    -20,
    'No Strict-Transport-Security header over HTTPS.',
    'Set Strict-Transport-Security: max-age=63072000; includeSubDomains.',
  ),
  'hsts-header-invalid': entry(
    -20,
    'The Strict-Transport-Security header cannot be parsed.',
    'Send exactly one header with max-age=<seconds>.',
  ),
  'hsts-not-implemented-no-https': entry(
    -20,
    'The site is not available over HTTPS, so HSTS cannot be set.',
    'Serve the site over HTTPS.',
  ),
  'hsts-invalid-cert': entry(
    -20,
    'The certificate is not trusted, so HSTS cannot take effect.',
    'Install a certificate chain that browsers trust.',
  ),
  // --- Subresource Integrity ---
  'sri-implemented-and-all-scripts-loaded-securely': entry(
    5,
    'Scripts use SRI and come from the same origin.',
  ),
  'sri-implemented-and-external-scripts-loaded-securely': entry(
    5,
    'External scripts use SRI and HTTPS.',
  ),
  'sri-not-implemented-response-not-html': entry(0, 'Not HTML, SRI does not apply.'),
  'sri-not-implemented-but-no-scripts-loaded': entry(0, 'No script tags.'),
  'sri-not-implemented-but-all-scripts-loaded-from-secure-origin': entry(
    0,
    'Scripts come from the same origin or site.',
  ),
  'sri-not-implemented-but-external-scripts-loaded-securely': entry(
    -5,
    'External scripts over HTTPS without SRI.',
    'Add integrity="sha384-…" and crossorigin to external scripts.',
  ),
  'sri-implemented-but-external-scripts-not-loaded-securely': entry(
    -20,
    'External scripts with SRI but over HTTP or protocol-relative URLs.',
    'Load external scripts over https://.',
  ),
  'sri-not-implemented-and-external-scripts-not-loaded-securely': entry(
    -50,
    'External scripts over HTTP or protocol-relative URLs, without SRI.',
    'Load external scripts over https:// with integrity attributes.',
  ),
  // --- X-Content-Type-Options ---
  'x-content-type-options-nosniff': entry(0, 'X-Content-Type-Options: nosniff.'),
  'x-content-type-options-not-implemented': entry(
    -5,
    'No X-Content-Type-Options header.',
    'Set X-Content-Type-Options: nosniff.',
  ),
  'x-content-type-options-header-invalid': entry(
    -5,
    'X-Content-Type-Options has a value other than nosniff.',
    'Set X-Content-Type-Options: nosniff (once).',
  ),
  // --- X-Frame-Options ---
  'x-frame-options-implemented-via-csp': entry(5, 'Framing is controlled by CSP frame-ancestors.'),
  'x-frame-options-sameorigin-or-deny': entry(
    5,
    'X-Frame-Options: DENY or SAMEORIGIN.',
    "Consider CSP frame-ancestors 'none' as well.",
  ),
  'x-frame-options-allow-from-origin': entry(
    0,
    'X-Frame-Options: ALLOW-FROM (ignored by modern browsers).',
    'Use CSP frame-ancestors to allow specific origins.',
  ),
  'x-frame-options-not-implemented': entry(
    -20,
    'Nothing stops other sites from framing this page (clickjacking).',
    "Set CSP frame-ancestors 'none' (or 'self'), and X-Frame-Options: DENY for old browsers.",
  ),
  'x-frame-options-header-invalid': entry(
    -20,
    'X-Frame-Options has an unrecognised value.',
    'Use X-Frame-Options: DENY or SAMEORIGIN.',
  ),
  // --- Cross-Origin-Resource-Policy ---
  'corp-header-invalid': entry(
    -5,
    'Cross-Origin-Resource-Policy has an unrecognised value.',
    'Use same-origin, same-site or cross-origin.',
  ),
  'corp-implemented-with-cross-origin': entry(0, 'CORP: cross-origin (the default behaviour).'),
  'corp-implemented-with-same-origin': entry(10, 'CORP: same-origin.'),
  'corp-implemented-with-same-site': entry(10, 'CORP: same-site.'),
  'corp-not-implemented': entry(
    0,
    'No Cross-Origin-Resource-Policy.',
    'Set Cross-Origin-Resource-Policy: same-origin where possible.',
  ),
  // --- Cross-Origin-Embedder-Policy ---
  'coep-implemented-with-require-corp': entry(10, 'COEP: require-corp.'),
  'coep-implemented-with-credentialless': entry(10, 'COEP: credentialless.'),
  'coep-implemented-with-unsafe-none': entry(0, 'COEP: unsafe-none (the default).'),
  'coep-not-implemented': entry(
    0,
    'No Cross-Origin-Embedder-Policy.',
    'Set Cross-Origin-Embedder-Policy: require-corp or credentialless if the page can.',
  ),
  'coep-header-invalid': entry(
    -5,
    'Cross-Origin-Embedder-Policy cannot be recognised (one lower-case token).',
    'Send one header: require-corp, credentialless or unsafe-none.',
  ),
  // --- Cross-Origin-Opener-Policy ---
  'coop-implemented-with-same-origin': entry(10, 'COOP: same-origin.'),
  'coop-implemented-with-same-origin-allow-popups': entry(10, 'COOP: same-origin-allow-popups.'),
  'coop-implemented-with-noopener-allow-popups': entry(10, 'COOP: noopener-allow-popups.'),
  'coop-implemented-with-unsafe-none': entry(0, 'COOP: unsafe-none (the default).'),
  'coop-not-implemented': entry(
    0,
    'No Cross-Origin-Opener-Policy.',
    'Set Cross-Origin-Opener-Policy: same-origin.',
  ),
  'coop-header-invalid': entry(
    -5,
    'Cross-Origin-Opener-Policy cannot be recognised (one lower-case token).',
    'Send one header: same-origin, same-origin-allow-popups or unsafe-none.',
  ),
  'html-not-parseable': entry(-20, 'Claims to be HTML but cannot be parsed.'),
  // --- netdiag additions (not part of the Observatory score) ---
  'permissions-policy-implemented': entry(
    5,
    'Permissions-Policy restricts browser features (netdiag).',
  ),
  'permissions-policy-not-implemented': entry(
    -5,
    'No Permissions-Policy header (netdiag).',
    'Set Permissions-Policy to turn off features the site does not use, e.g. camera=(), microphone=(), geolocation=().',
  ),
  'permissions-policy-header-invalid': entry(
    -5,
    'Permissions-Policy is not a valid structured-field dictionary (netdiag).',
    'Use the RFC 8941 dictionary syntax: camera=(), geolocation=(self).',
  ),
  'information-disclosure-none': entry(
    0,
    'No header names the server software version or framework (netdiag).',
  ),
  'information-disclosure-technology': entry(
    -5,
    'Headers name the framework or platform, without versions (netdiag).',
    'Remove X-Powered-By, X-Generator and similar headers.',
  ),
  'information-disclosure-version': entry(
    -10,
    'Headers reveal software versions, which helps attackers pick exploits (netdiag).',
    'Remove version numbers from Server and drop X-Powered-By, X-AspNet-Version, X-AspNetMvc-Version and X-Generator.',
  ),
};

/** Every grade of the chart, best first. */
export const SECURITY_GRADES = [
  'A+',
  'A',
  'A-',
  'B+',
  'B',
  'B-',
  'C+',
  'C',
  'C-',
  'D+',
  'D',
  'D-',
  'F',
] as const;
export type SecurityGrade = (typeof SECURITY_GRADES)[number];

/** Grade per score, in steps of 5 (Observatory GRADE_CHART; scores above 100 stay A+). */
export const GRADE_CHART: Readonly<Record<number, SecurityGrade>> = Object.fromEntries(
  (
    [
      ['A+', 100],
      ['A', 95, 90],
      ['A-', 85],
      ['B+', 80],
      ['B', 75, 70],
      ['B-', 65],
      ['C+', 60],
      ['C', 55, 50],
      ['C-', 45],
      ['D+', 40],
      ['D', 35, 30],
      ['D-', 25],
      ['F', 20, 15, 10, 5, 0],
    ] as const
  ).flatMap(([grade, ...scores]) => scores.map((score) => [score, grade])),
);

/** Bonus points count only when the score without them is at least this (Observatory). */
export const MINIMUM_SCORE_FOR_EXTRA_CREDIT = 90;

/** Every grade starts from here. */
export const STARTING_SCORE = 100;

/** Observatory algorithm version the table follows. */
export const ALGORITHM_VERSION = 6;

/** The 12 Observatory tests, with their titles. */
export const OBSERVATORY_TESTS: Readonly<Record<string, string>> = {
  'content-security-policy': 'Content Security Policy (CSP)',
  cookies: 'Cookies',
  'cross-origin-resource-sharing': 'Cross Origin Resource Sharing (CORS)',
  'cross-origin-embedder-policy': 'Cross Origin Embedder Policy',
  'cross-origin-opener-policy': 'Cross Origin Opener Policy',
  'cross-origin-resource-policy': 'Cross Origin Resource Policy',
  redirection: 'Redirection',
  'referrer-policy': 'Referrer Policy',
  'strict-transport-security': 'Strict Transport Security (HSTS)',
  'subresource-integrity': 'Subresource Integrity',
  'x-content-type-options': 'X-Content-Type-Options',
  'x-frame-options': 'X-Frame-Options',
};

/** Titles of the netdiag additions, the tests left out of `observatory`. */
export const NETDIAG_TEST_TITLES: Readonly<Record<string, string>> = {
  'permissions-policy': 'Permissions Policy (netdiag)',
  'information-disclosure': 'Information disclosure (netdiag)',
};

/** HSTS max-age counted as "six months": 15552000 s (180 days), as the Observatory does. */
export const HSTS_SIX_MONTHS_S = 15_552_000;
