/**
 * Set-Cookie parsing (RFC 6265 §5.2, SameSite from RFC 6265bis §5.6.7), only the attributes the
 * grade reads; an invalid SameSite is ignored, as browsers and tough-cookie do.
 * @module
 */
import type { Cookie } from './types.js';

/** Parses one Set-Cookie value; null when it has no name (nothing a browser would store). */
export function parseSetCookie(header: string): Cookie | null {
  const parts = header.split(';');
  const pair = parts[0] as string;
  const eq = pair.indexOf('=');
  const name = (eq === -1 ? '' : pair.slice(0, eq)).trim();
  if (name === '') return null;
  const cookie: Cookie = {
    name,
    secure: false,
    httpOnly: false,
    sameSite: undefined,
    domain: null,
    path: null,
  };
  for (let i = 1; i < parts.length; i++) {
    const attribute = parts[i] as string;
    // An empty attribute sets nothing.
    if (attribute === '') continue;
    const at = attribute.indexOf('=');
    const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at === -1 ? '' : attribute.slice(at + 1).trim();
    if (key === 'secure') cookie.secure = true;
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'samesite') {
      const lower = value.toLowerCase();
      if (lower === 'strict' || lower === 'lax' || lower === 'none') cookie.sameSite = lower;
    } else if (key === 'domain') cookie.domain = value.replace(/^\./, '').toLowerCase() || null;
    else if (key === 'path') cookie.path = value || null;
  }
  return cookie;
}

/**
 * A browser-like jar of every Set-Cookie seen: one cookie per (name, domain, path), the last
 * one set wins (RFC 6265 §5.3 step 11).
 */
export function cookieJar(headers: readonly string[]): Cookie[] {
  const jar = new Map<string, Cookie>();
  for (const header of headers) {
    const cookie = parseSetCookie(header);
    if (cookie)
      jar.set(`${cookie.name}\u0000${cookie.domain ?? ''}\u0000${cookie.path ?? ''}`, cookie);
  }
  return [...jar.values()];
}

/** True when a raw Set-Cookie has a SameSite attribute that is empty or not Strict/Lax/None. */
export function hasInvalidSameSite(header: string): boolean {
  for (const part of header.trim().split(';')) {
    const [key = '', value] = part.trim().split('=');
    if (key.trim().toLowerCase() !== 'samesite') continue;
    if (!value) return true;
    if (!['lax', 'strict', 'none'].includes(value.trim().toLowerCase())) return true;
  }
  return false;
}
