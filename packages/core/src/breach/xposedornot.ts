/**
 * The XposedOrNot breach-analytics provider: the request, the answer's shape and its mapping
 * to SPEC 2.6.
 *
 * Endpoint: `GET {base}/v1/breach-analytics?email=…`, no key. Source of every field name below:
 * XposedOrNot/XposedOrNot-API `api/v1/breaches.py` (route and rate limit
 * "2 per second;25 per hour;100 per day") and `services/analytics.py` (`get_breaches`,
 * `get_breaches_data`, `calculate_risk_score`). An address in no breach answers 200 with
 * `ExposedBreaches: null`, `BreachMetrics: null`; older deployments answer 404
 * `{"Error":"Not found"}` instead, and both mean "no breach". Throttling answers 429 with
 * `Retry-After` (or, for "request dropped due to violation history", without it).
 * @module
 */
import type { z } from 'zod';
import { UpstreamError } from '../errors.js';
import { parseRetryAfter, type UpstreamResponse } from '../net/http-client.js';
import type { breachDataSchema } from './schema.js';

export const BREACH_UPSTREAM = 'breach';

/** One entry of `ExposedBreaches.breaches_details`: the fields read (upstream has more). */
interface XonBreachDetail {
  breach: string;
  /** `plaintext`, `easytocrack`, `hardtocrack` or anything else (unknown). */
  password_risk?: string;
}

/** The provider-independent part of SPEC 2.6 (everything but `email` and `status`). */
export type BreachSummary = Omit<z.output<typeof breachDataSchema>, 'email' | 'status'>;

/** The answer for an address that is in no breach. */
export function emptySummary(): BreachSummary {
  return {
    breaches: 0,
    services: [],
    passwords: { plain_text: 0, weak_hash: 0, strong_hash: 0, unknown: 0, total: 0 },
    risk: { score: 0, level: 'low' },
  };
}

/** The request URL for one (already normalised) address. */
export function breachAnalyticsUrl(baseUrl: string, email: string): string {
  const url = new URL('v1/breach-analytics', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  url.searchParams.set('email', email);
  return url.toString();
}

/**
 * Seconds to wait from a 429: the `Retry-After` header, else the body's
 * `detail.retry_after` (XposedOrNot's `custom_limiter.py` sends both), else 60.
 */
export function retryAfterFrom(response: UpstreamResponse, now = Date.now()): number {
  if (response.headers['retry-after']) return parseRetryAfter(response.headers['retry-after'], now);
  try {
    const body = JSON.parse(response.body.toString('utf8')) as {
      detail?: { retry_after?: unknown };
    };
    const value = body?.detail?.retry_after;
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.ceil(value);
  } catch {
    // Not JSON: fall through to the default.
  }
  return parseRetryAfter(undefined);
}

/**
 * Maps a breach-analytics answer to SPEC 2.6: `services` are the `breach` names of
 * `ExposedBreaches.breaches_details` (in order, once each; else the `;`-separated
 * `BreachesSummary.site`), `passwords` come from `BreachMetrics.passwords_strength[0]` (else
 * from each detail's `password_risk`, as upstream counts them), `risk` from
 * `BreachMetrics.risk[0]`. Throws `UpstreamError` when the answer does not have this shape.
 */
export function mapBreachAnalytics(body: unknown): BreachSummary {
  if (!isObject(body)) malformed('the answer is not a JSON object');
  const answer = body as Record<string, unknown>;
  const exposed = answer['ExposedBreaches'];
  let details: XonBreachDetail[] | undefined;
  if (exposed !== undefined && exposed !== null) {
    if (!isObject(exposed)) malformed('ExposedBreaches is not an object');
    const list = (exposed as Record<string, unknown>)['breaches_details'];
    if (list !== undefined && list !== null) {
      if (!Array.isArray(list)) malformed('ExposedBreaches.breaches_details is not an array');
      details = list.map((entry, index) => {
        if (!isObject(entry) || typeof (entry as { breach?: unknown }).breach !== 'string') {
          malformed(`breaches_details[${index}] has no breach name`);
        }
        return entry as XonBreachDetail;
      });
    }
  }
  const summary = answer['BreachesSummary'];
  const siteText = isObject(summary) ? (summary as { site?: unknown }).site : undefined;
  const names = details
    ? details.map((d) => d.breach.trim())
    : typeof siteText === 'string'
      ? siteText.split(';').map((s) => s.trim())
      : [];
  const services = [...new Set(names.filter(Boolean))];
  if (services.length === 0) return emptySummary();

  const metrics = answer['BreachMetrics'];
  if (metrics !== undefined && metrics !== null && !isObject(metrics)) {
    malformed('BreachMetrics is not an object');
  }
  const metricsObj = (metrics ?? {}) as Record<string, unknown>;
  const passwords = mapPasswords(metricsObj['passwords_strength'], details);
  const risk = mapRisk(metricsObj['risk']);
  return { breaches: services.length, services, passwords, risk };
}

function mapPasswords(
  strength: unknown,
  details: XonBreachDetail[] | undefined,
): BreachSummary['passwords'] {
  const counts = { plain_text: 0, weak_hash: 0, strong_hash: 0, unknown: 0 };
  if (strength !== undefined && strength !== null) {
    const first = Array.isArray(strength) ? strength[0] : undefined;
    if (!isObject(first)) malformed('BreachMetrics.passwords_strength is not [{…}]');
    const s = first as Record<string, unknown>;
    counts.plain_text = count(s['PlainText'], 'PlainText');
    counts.weak_hash = count(s['EasyToCrack'], 'EasyToCrack');
    counts.strong_hash = count(s['StrongHash'], 'StrongHash');
    counts.unknown = count(s['Unknown'], 'Unknown');
  } else {
    for (const detail of details ?? []) {
      const risk = String(detail.password_risk ?? '').toLowerCase();
      if (risk === 'plaintext') counts.plain_text++;
      else if (risk === 'easytocrack') counts.weak_hash++;
      else if (risk === 'hardtocrack') counts.strong_hash++;
      else counts.unknown++;
    }
  }
  const total = counts.plain_text + counts.weak_hash + counts.strong_hash + counts.unknown;
  return { ...counts, total };
}

function mapRisk(risk: unknown): BreachSummary['risk'] {
  if (risk === undefined || risk === null) return { score: 0, level: 'low' };
  const first = Array.isArray(risk) ? risk[0] : undefined;
  if (!isObject(first)) malformed('BreachMetrics.risk is not [{risk_label, risk_score}]');
  const r = first as Record<string, unknown>;
  const score = count(r['risk_score'], 'risk_score');
  const label = r['risk_label'];
  if (label !== undefined && typeof label !== 'string') malformed('risk_label is not a string');
  const level = label?.trim() ? label.trim().toLowerCase() : levelForScore(score);
  return { score, level };
}

/** XposedOrNot's display zones (`calculate_risk_score` in services/analytics.py). */
function levelForScore(score: number): string {
  if (score >= 76) return 'critical';
  if (score >= 51) return 'high';
  if (score >= 26) return 'moderate';
  return 'low';
}

/** A non-negative finite number (numeric strings accepted: the upstream is Python). */
function count(value: unknown, field: string): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
    malformed(`${field} is not a non-negative number`);
  }
  return n as number;
}

const isObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function malformed(what: string): never {
  throw new UpstreamError(BREACH_UPSTREAM, `answered with an unexpected shape: ${what}`);
}
