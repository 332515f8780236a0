/**
 * `checkSite` (SPEC 2.12, `/api/down`): is a web site up? GET through the SSRF guard with
 * redirects followed; up means an HTTP answer below 500. A site that is down is a successful
 * result with `is_up: false` and a `note` saying why (DNS, refused, timeout, TLS, 5xx, …);
 * only bad input (400), a forbidden target (403) and the caller's abort are errors.
 * @module
 */
import type { z } from 'zod';
import { isNetdiagError, NetdiagError } from '../errors.js';
import { parseProbeUrl } from '../net/guard.js';
import {
  headerValue,
  MAX_BODY_BYTES,
  type SafeFetchOptions,
  type SafeFetchResponse,
  safeFetch,
  TOTAL_TIMEOUT_MS,
} from '../net/safe-fetch.js';
import type { TlsFacts } from '../net/safe-fetch-connect.js';
import { ProbeError, ProbeTimeoutError } from '../net/safe-fetch-errors.js';
import { negotiateAlpn, siteTls } from '../tls/site-facts.js';
import type { siteCheckDataSchema } from './schema.js';

export interface CheckSiteOptions
  extends Pick<
    SafeFetchOptions,
    'resolver' | 'allowedTargets' | 'signal' | 'timeout' | 'connectTimeout' | 'ca' | 'maxBytes'
  > {
  /** Clock for `checked_at` and certificate `days_left`. @default Date.now */
  now?: () => number;
}

export type { SiteTls } from '../tls/site-facts.js';

/** `GET /api/down` data (SPEC 2.12, with netdiag's additions `final_url`, `redirects`, `ip`, `tls`). */
export type SiteCheckResult = z.output<typeof siteCheckDataSchema>;

/** Checks whether a site is up; `url` is a URL or a host name (no scheme: https, then http). */
export async function checkSite(
  url: string,
  options: CheckSiteOptions = {},
): Promise<SiteCheckResult> {
  const now = options.now ?? Date.now;
  const checkedAt = new Date(now()).toISOString();
  const schemeGiven = /^\s*https?:\/\//i.test(url);
  const target = parseProbeUrl(url, { defaultScheme: 'https' });
  const budget = options.timeout === undefined ? TOTAL_TIMEOUT_MS : options.timeout;
  const started = performance.now();
  const { resolver, allowedTargets, signal, connectTimeout, ca, maxBytes } = options;
  const picked = { resolver, allowedTargets, signal, connectTimeout, ca, maxBytes };
  const fetchOptions = (timeout: number | false): SafeFetchOptions => ({
    ...picked,
    timeout,
    tlsPolicy: 'verify',
    now,
  });

  let attempt = await settle(safeFetch(target, fetchOptions(budget)));
  let checked = target;
  let fallbackNote: string | null = null;
  if (!schemeGiven && !attempt.ok && cannotConnect(attempt.error)) {
    // SPEC 2.12: protocol optional — https first, then http when https cannot connect.
    const left = budget === false ? false : Math.max(1, budget - (performance.now() - started));
    const http = new URL(target.href);
    http.protocol = 'http:';
    fallbackNote = `HTTPS did not answer (${reasonOf(attempt.error)}); checked over HTTP`;
    checked = http;
    attempt = await settle(safeFetch(http, fetchOptions(left)));
  }
  if (attempt.ok) {
    const alpn = attempt.value.tls
      ? await negotiateAlpn(new URL(attempt.value.url), attempt.value.address, options.signal)
      : null;
    return upResult(attempt.value, checked, fallbackNote, checkedAt, options.maxBytes, alpn);
  }
  return downResult(attempt.error, checked, fallbackNote, checkedAt);
}

type Settled = { ok: true; value: SafeFetchResponse } | { ok: false; error: unknown };

async function settle(promise: Promise<SafeFetchResponse>): Promise<Settled> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    // Bad input, a forbidden target and the caller's abort are the caller's business.
    if (
      !isNetdiagError(error) ||
      error.code === 'INVALID_INPUT' ||
      error.code === 'TARGET_NOT_ALLOWED' ||
      error.code === 'ABORTED'
    ) {
      throw error;
    }
    return { ok: false, error };
  }
}

/** https "cannot connect": nothing listens, no route, connect timeout, or no TLS at all. */
function cannotConnect(error: unknown): boolean {
  if (error instanceof ProbeTimeoutError) return error.phase === 'connect';
  if (!(error instanceof ProbeError)) return false;
  if (error.kind === 'tls') return !(error as ProbeError & { tls?: TlsFacts }).tls;
  return error.kind === 'refused' || error.kind === 'unreachable' || error.kind === 'reset';
}

function upResult(
  response: SafeFetchResponse,
  checked: URL,
  fallbackNote: string | null,
  checkedAt: string,
  maxBytes: number | undefined,
  alpn: string | null,
): SiteCheckResult {
  const notes = fallbackNote ? [fallbackNote] : [];
  const isUp = response.status < 500;
  if (!isUp) notes.push(`server error: HTTP ${response.status} ${response.statusText}`.trim());
  if (response.bodyTruncated === 'max-bytes') {
    notes.push(`body larger than ${formatBytes(maxBytes ?? MAX_BODY_BYTES)}; stopped reading`);
  } else if (response.bodyTruncated === 'timeout') {
    notes.push('body still arriving when the time budget ran out; stopped reading');
  }
  return {
    url: checked.href,
    is_up: isUp,
    status_code: response.status,
    status_text: response.statusText,
    response_time_ms: Math.round(response.responseMs),
    server: headerValue(response.headers, 'server') ?? '',
    content_type: headerValue(response.headers, 'content-type') ?? '',
    powered_by: headerValue(response.headers, 'x-powered-by'),
    note: notes.length > 0 ? notes.join('; ') : null,
    checked_at: checkedAt,
    final_url: response.url,
    redirects: response.redirects,
    ip: response.address,
    tls: response.tls ? siteTls(response.tls, alpn) : null,
  };
}

function downResult(
  error: unknown,
  checked: URL,
  fallbackNote: string | null,
  checkedAt: string,
): SiteCheckResult {
  const facts = (error as { tls?: TlsFacts }).tls;
  const lastStatus = error instanceof ProbeError ? error.lastStatus : undefined;
  // A redirect loop got answers: say how far it went and where it was connected.
  const chain = error instanceof ProbeError ? error.chain : undefined;
  const note = [fallbackNote, describeFailure(error)].filter(Boolean).join('; then ');
  return {
    url: checked.href,
    is_up: false,
    status_code: lastStatus ?? null,
    status_text: '',
    response_time_ms: null,
    server: '',
    content_type: '',
    powered_by: null,
    note,
    checked_at: checkedAt,
    final_url: chain?.url ?? checked.href,
    redirects: chain?.redirects ?? 0,
    ip: chain?.address ?? null,
    tls: facts ? siteTls(facts) : null,
  };
}

/** One line on why the site is down. */
function describeFailure(error: unknown): string {
  if (error instanceof ProbeTimeoutError) return `timeout: ${reasonOf(error)}`;
  if (error instanceof ProbeError) {
    const prefix: Record<ProbeError['kind'], string> = {
      refused: 'connection refused',
      reset: 'connection reset',
      unreachable: 'host unreachable',
      tls: 'TLS error',
      protocol: 'not an HTTP answer',
      redirects: 'redirect loop',
    };
    return `${prefix[error.kind]}: ${reasonOf(error)}`;
  }
  if (isNetdiagError(error) && error.upstream === 'dns') {
    return error.code === 'UPSTREAM_TIMEOUT'
      ? `DNS timeout: ${reasonOf(error)}`
      : `DNS failure: ${reasonOf(error)}`;
  }
  if (error instanceof NetdiagError) return reasonOf(error);
  return String(error);
}

function reasonOf(error: unknown): string {
  return ((error as Error)?.message ?? String(error)).replace(/^\[netdiag\] \[[^\]]+\] /, '');
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
