/**
 * `gradeSecurityHeaders`: the MDN HTTP Observatory checks and score table, plus netdiag's
 * Permissions-Policy and information disclosure, over the URL (https assumed) and, for the
 * redirection test, the http:// URL of the same host and path, fetched concurrently through the
 * SSRF guard with an `Origin` of our own for the CORS check.
 * @module
 */

import type { z } from 'zod';
import { isNetdiagError } from '../errors.js';
import { hostOfUrl, parseProbeUrl } from '../net/guard.js';
import { type SafeFetchOptions, type SafeFetchResponse, safeFetch } from '../net/safe-fetch.js';
import { negotiateAlpn, siteTls } from '../tls/site-facts.js';
import { CHECKS } from './checks/index.js';
import { cookieJar } from './checks/set-cookie.js';
import type { CapturedResponse, CheckOutcome, ScanInput } from './checks/types.js';
import { gradeScore } from './grade.js';
import { HTML_TYPES, scanHtml } from './html.js';
import { runChecks } from './run-checks.js';
import type { headerFindingSchema, securityHeadersDataSchema } from './schema.js';
import {
  ALGORITHM_VERSION,
  NETDIAG_TEST_TITLES,
  OBSERVATORY_TESTS,
  SCORE_TABLE,
} from './score-table.js';

/**
 * The Origin sent for the CORS test: a name under `.invalid` (RFC 2606 §2), so it can never
 * belong to a real site; a server that echoes it echoes anything.
 */
export const CORS_PROBE_ORIGIN = 'https://cors-probe.netdiag.invalid';

export interface GradeSecurityHeadersOptions
  extends Pick<
    SafeFetchOptions,
    'resolver' | 'allowedTargets' | 'signal' | 'timeout' | 'connectTimeout' | 'ca' | 'maxBytes'
  > {
  /** Probe the http:// URL for the redirection test. @default true */
  checkRedirection?: boolean;
  /** Port of that http:// probe (RFC 9110 §4.2.1: http's default). @default 80 */
  httpPort?: number;
  /** Clock for `checked_at`. @default Date.now */
  now?: () => number;
}

/** One graded test: a header (or cookies, redirects, scripts) and its verdict. */
export type HeaderFinding = z.output<typeof headerFindingSchema>;

/** `GET /api/security-headers` data: netdiag's grade, the Observatory's own, one entry per test. */
export type SecurityHeadersResult = z.output<typeof securityHeadersDataSchema>;

/**
 * Grades a site's security headers (`url`: a URL or a host name; with no scheme and no https
 * answer, the http answer is graded and `note` says so). Errors: `InvalidInputError` (URL),
 * `TargetNotAllowedError` (any hop not public), DNS `NotFoundError`/`UpstreamError`,
 * `ProbeError` / `ProbeTimeoutError` when the site cannot be fetched.
 */
export async function gradeSecurityHeaders(
  url: string,
  options: GradeSecurityHeadersOptions = {},
): Promise<SecurityHeadersResult> {
  const { checkRedirection, httpPort, now = Date.now, ...fetched } = options;
  const checkedAt = new Date(now()).toISOString();
  const schemeGiven = /^\s*https?:\/\//i.test(url);
  const target = parseProbeUrl(url, { defaultScheme: 'https' });
  const probeHttp = checkRedirection !== false && target.protocol === 'https:';
  const httpUrl = new URL(target.href);
  httpUrl.protocol = 'http:';
  httpUrl.port = String(httpPort ?? 80); // the URL drops http's default port itself
  // Both requests carry the probe Origin: either may end up being the one graded. Grade what
  // browsers would see, and report an untrusted chain instead of failing.
  const withOrigin: SafeFetchOptions = {
    ...fetched,
    tlsPolicy: 'report',
    headers: { origin: CORS_PROBE_ORIGIN },
  };
  const [main, http] = await Promise.allSettled([
    safeFetch(target, withOrigin),
    probeHttp ? safeFetch(httpUrl, withOrigin) : Promise.resolve(null),
  ]);
  // A forbidden hop anywhere is a refusal, not a finding.
  for (const settled of [main, http]) {
    if (settled.status === 'rejected' && isNetdiagError(settled.reason, 'TARGET_NOT_ALLOWED')) {
      throw settled.reason;
    }
  }
  const notes: string[] = [];
  let auto: SafeFetchResponse;
  let httpChain: SafeFetchResponse | null = http.status === 'fulfilled' ? http.value : null;
  if (main.status === 'fulfilled') {
    auto = main.value;
    if (target.protocol === 'http:') httpChain = main.value;
  } else if (!schemeGiven && httpChain && isConnectFailure(main.reason)) {
    auto = httpChain;
    notes.push(
      `HTTPS did not answer (${shortReason(main.reason)}); the HTTP answer was graded instead`,
    );
  } else {
    throw main.reason;
  }

  // The page is decoded once: the <meta> policies and SRI both read it.
  const page = isHtml(auto) ? auto.body.toString('utf8') : null;
  const capture = (response: SafeFetchResponse, html: string | null): CapturedResponse => ({
    status: response.status,
    headers: response.headers,
    httpEquiv: html === null ? {} : scanHtml(html).httpEquiv,
    verified: response.tls ? response.tls.authorized : true,
  });
  const autoCaptured = capture(auto, page);
  const finalUrl = new URL(auto.url);
  const input: ScanInput = {
    hostname: hostOfUrl(target).host,
    url: finalUrl,
    auto: autoCaptured,
    https: finalUrl.protocol === 'https:' ? autoCaptured : null,
    http: httpChain ? capture(httpChain, null) : null,
    cors: { ...autoCaptured, requestOrigin: CORS_PROBE_ORIGIN },
    httpRedirects: httpChain
      ? httpChain.hops.map((hop) => ({ url: hop.url, status: hop.status }))
      : [],
    cookies: cookieJar([
      ...(httpChain && httpChain !== auto ? httpChain.setCookies : []),
      ...auto.setCookies,
    ]),
    body: page,
  };

  const outcomes = await runChecks(input, CHECKS, options.signal);
  const headers: HeaderFinding[] = CHECKS.map((check, i) => {
    const outcome = outcomes[i] as CheckOutcome;
    const entry = SCORE_TABLE[outcome.result];
    return {
      test: check.test,
      title: OBSERVATORY_TESTS[check.test] ?? NETDIAG_TEST_TITLES[check.test] ?? check.test,
      header: check.header,
      present: outcome.present,
      value: outcome.value,
      result: outcome.result,
      pass: outcome.pass,
      score_modifier: entry?.modifier ?? 0,
      description: entry?.description ?? '',
      recommendation: entry?.recommendation ?? '',
    };
  });
  const observatoryRows = headers.filter((row) => !Object.hasOwn(NETDIAG_TEST_TITLES, row.test));
  if (auto.status >= 400 && auto.status !== 401 && auto.status !== 403) {
    notes.push(`the site answered HTTP ${auto.status}; an error page may carry other headers`);
  }
  const hsts = headers.find((row) => row.test === 'strict-transport-security');
  if (hsts?.present && hsts.result === 'hsts-not-implemented-no-https') {
    notes.push(
      'Strict-Transport-Security was sent over plain HTTP, where browsers ignore it (RFC 6797 §8.1)',
    );
  }
  if (auto.tls && !auto.tls.authorized) {
    notes.push(`the certificate is not trusted (${auto.tls.authorizationError})`);
  }
  if (auto.bodyTruncated) {
    notes.push(
      auto.bodyTruncated === 'max-bytes'
        ? 'only the first 1 MiB of the page was read'
        : 'the page was still arriving when time ran out; only what arrived was read',
    );
  }
  const summary = (rows: HeaderFinding[]) => {
    const passed = rows.filter((row) => row.pass).length;
    return {
      ...gradeScore(rows.map((row) => row.score_modifier)),
      tests_passed: passed,
      tests_failed: rows.length - passed,
      tests_quantity: rows.length,
    };
  };
  const tls = auto.tls
    ? siteTls(auto.tls, await negotiateAlpn(new URL(auto.url), auto.address, options.signal))
    : null;
  return {
    url: auto.url,
    status_code: auto.status,
    ...summary(headers),
    observatory: { ...summary(observatoryRows), algorithm_version: ALGORITHM_VERSION },
    redirects: auto.redirects,
    note: notes.length > 0 ? `${notes.join('; ')}.` : null,
    tls,
    headers,
    checked_at: checkedAt,
  };
}

function isHtml(response: SafeFetchResponse): boolean {
  const type = (response.headers['content-type']?.[0] ?? '').split(';')[0]?.trim().toLowerCase();
  // No Content-Type: sniffing would decide; treat as HTML like the Observatory does.
  return !type || HTML_TYPES.has(type);
}

const isConnectFailure = (error: unknown) =>
  isNetdiagError(error, 'UPSTREAM_ERROR') || isNetdiagError(error, 'UPSTREAM_TIMEOUT');

const shortReason = (error: unknown) =>
  (error as Error).message.replace(/^\[netdiag\] \[[^\]]+\] /, '');
