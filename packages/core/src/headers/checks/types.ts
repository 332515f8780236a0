/**
 * What a header check, a pure function, sees: the exchanges of one scan, shaped like the
 * Observatory's `Requests` (`src/types.js`) so that its test cases apply as they are.
 * @module
 */

/** One captured HTTP answer. */
export interface CapturedResponse {
  status: number;
  /** Lower-case header name → every value in order of arrival. */
  headers: Record<string, string[]>;
  /** `<meta http-equiv>` values of an HTML body: lower-case name → contents in document order. */
  httpEquiv: Record<string, string[]>;
  /** The TLS chain was trusted (always true for plain HTTP). */
  verified: boolean;
}

/** A cookie as stored by a browser-like jar. */
export interface Cookie {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  /** Only the valid values; an invalid SameSite attribute is ignored (RFC 6265bis §5.6.7). */
  sameSite: 'strict' | 'lax' | 'none' | undefined;
  domain: string | null;
  path: string | null;
}

export interface ScanInput {
  /** Host name of the site (for SRI's same-site test). */
  hostname: string;
  /** URL of the `auto` response (its scheme matters to CSP and SRI). */
  url: URL | null;
  /** The response graded (https if the site has it, else http). */
  auto: CapturedResponse | null;
  /** The https response (null when the site is not reachable over https). */
  https: CapturedResponse | null;
  /** The http response at the end of the http:// chain (null when http does not connect). */
  http: CapturedResponse | null;
  /** The response to a request that carried an `Origin` header, and that origin. */
  cors: (CapturedResponse & { requestOrigin: string }) | null;
  /** Every hop of the http:// chain, the first request included. */
  httpRedirects: { url: string; status: number }[];
  /** Cookies set anywhere in the scan. */
  cookies: Cookie[];
  /** The raw body of `auto` (HTML for SRI), or null. */
  body: string | null;
}

/** The outcome of one check. */
export interface CheckOutcome {
  /** Result id (a key of SCORE_TABLE). */
  result: string;
  pass: boolean;
  /** Whether the header (or what the test looks at) was there at all. */
  present: boolean;
  /** The value examined (header text, cookie names, redirect route …), or null. */
  value: string | null;
}

export const outcome = (
  result: string,
  pass: boolean,
  present: boolean,
  value: string | null,
): CheckOutcome => ({ result, pass, present, value });

/** All values of a header on a response (`[]` when absent). */
export const headerValues = (response: CapturedResponse | null, name: string): string[] =>
  response?.headers[name.toLowerCase()] ?? [];

/**
 * All values of a header joined with ", " (RFC 9110 §5.3), as the Observatory sees them; null
 * when absent. A header sent twice reads as "a, b", which most checks rightly call invalid.
 */
export function joinedHeader(response: CapturedResponse | null, name: string): string | null {
  const values = headerValues(response, name);
  return values.length > 0 ? values.join(', ') : null;
}

/** Values joined for display, at most 1024 characters; null when there are none. */
export const shownValue = (values: readonly string[], separator = ', ') =>
  values.length > 0 ? values.join(separator).slice(0, 1024) : null;

/** The worse of two results by a goodness order, best first (the Observatory's onlyIfWorse). */
export function onlyIfWorse(
  next: string,
  current: string | null,
  order: readonly string[],
): string {
  if (current === null) return next;
  return order.indexOf(next) > order.indexOf(current) ? next : current;
}
