/**
 * What the access log may write of a request URL (CONTRACT: no email address in any log).
 *
 * Redaction works on what the routes see, not on the URL's spelling: each path segment and
 * each query key and value is decoded once, as Express and the route parameters decode it,
 * and any part that then holds an `@` (or a still-encoded `%40`, for double encoding) is
 * replaced. So `%65mail=`, `email[]=`, `/api/breach/<address>` and `sender=` are all covered
 * without a list of parameter names to keep in step with the routes.
 * @module
 */

const REDACTED = '[redacted]';
const ADDRESS_SIGN = /@|%40/i;

function decodeOnce(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part; // malformed escapes: judge the raw text
  }
}

function redactPart(part: string): string {
  return ADDRESS_SIGN.test(part) || ADDRESS_SIGN.test(decodeOnce(part)) ? REDACTED : part;
}

/** `originalUrl` with every part that could carry an email address replaced. */
export function redactUrl(url: string): string {
  // Fast path: no '@' and no '%' anywhere means nothing can decode to an address.
  if (!url.includes('@') && !url.includes('%')) return url;
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const safePath = path.split('/').map(redactPart).join('/');
  if (mark === -1) return safePath;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return redactPart(pair);
      return `${redactPart(pair.slice(0, eq))}=${redactPart(pair.slice(eq + 1))}`;
    })
    .join('&');
  return `${safePath}?${query}`;
}
