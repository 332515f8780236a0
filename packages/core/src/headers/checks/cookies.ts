/**
 * Cookies (Observatory `cookies.js`): Secure (RFC 6265 §4.1.2.5), session cookies HttpOnly
 * (§4.1.2.6), anti-CSRF ones with SameSite, None only with Secure (RFC 6265bis §5.6.7.1). HSTS
 * softens a missing Secure: the browser never sends the cookie over HTTP then.
 * @module
 */
import { hasInvalidSameSite } from './set-cookie.js';
import { checkHsts } from './strict-transport-security.js';
import {
  type CheckOutcome,
  headerValues,
  onlyIfWorse,
  outcome,
  type ScanInput,
  shownValue,
} from './types.js';

/** Best first. */
const ORDER = [
  'cookies-without-secure-flag-but-protected-by-hsts',
  'cookies-without-secure-flag',
  'cookies-session-without-secure-flag-but-protected-by-hsts',
  'cookies-samesite-flag-invalid',
  'cookies-anticsrf-without-samesite-flag',
  'cookies-session-without-httponly-flag',
  'cookies-session-without-secure-flag',
];

/** Heroku's load-balancer cookie is outside the site's control (mozilla/http-observatory#282). */
const IGNORED = ['heroku-session-affinity'];

export function checkCookies(input: ScanInput): CheckOutcome {
  const hsts = checkHsts(input).pass;
  let result: string | null = null;
  const worse = (candidate: string) => {
    result = onlyIfWorse(candidate, result, ORDER);
  };
  for (const raw of headerValues(input.auto, 'set-cookie')) {
    if (hasInvalidSameSite(raw)) worse('cookies-samesite-flag-invalid');
  }
  const cookies = input.cookies.filter((c) => c.name && !IGNORED.includes(c.name));
  if (cookies.length === 0) return outcome('cookies-not-found', true, false, null);
  let missingSameSite = false;
  for (const cookie of cookies) {
    const key = cookie.name.toLowerCase();
    const session = key.includes('login') || key.includes('sess');
    const antiCsrf = key.includes('csrf');
    if (!cookie.secure && cookie.sameSite === 'none') worse('cookies-samesite-flag-invalid');
    if (!cookie.secure) {
      worse(
        hsts ? 'cookies-without-secure-flag-but-protected-by-hsts' : 'cookies-without-secure-flag',
      );
    }
    if (antiCsrf && !cookie.sameSite) worse('cookies-anticsrf-without-samesite-flag');
    if (session && !cookie.secure) {
      worse(
        hsts
          ? 'cookies-session-without-secure-flag-but-protected-by-hsts'
          : 'cookies-session-without-secure-flag',
      );
    }
    if (session && !cookie.httpOnly) worse('cookies-session-without-httponly-flag');
    if (!cookie.sameSite) missingSameSite = true;
  }
  // Every result of ORDER fails; only the two secure ones pass.
  const secure = missingSameSite
    ? 'cookies-secure-with-httponly-sessions'
    : 'cookies-secure-with-httponly-sessions-and-samesite';
  return outcome(result ?? secure, result === null, true, shownValue(cookies.map((c) => c.name)));
}
