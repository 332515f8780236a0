/**
 * A connection failure to an upstream in words, for the message a face shows: the errno or
 * undici code named in plain terms, never the text Node attaches (`connect ECONNREFUSED
 * 127.0.0.1:4301` repeats the address and port). The error itself stays the `cause`.
 * @module
 */
import { isNetdiagError } from '../errors.js';

const NO_NAME = 'its host name does not resolve';
const NAME_FAILED = 'its host name could not be resolved (DNS failed)';

/** errno, getaddrinfo and undici codes in words. */
const SOCKET_FAILURES: Record<string, string> = {
  ENETUNREACH: 'network unreachable',
  EHOSTUNREACH: 'host unreachable',
  ECONNREFUSED: 'connection refused (nothing listens on that port)',
  ECONNRESET: 'connection reset',
  EADDRNOTAVAIL: 'address not available on this machine',
  EACCES: 'not permitted',
  EPERM: 'not permitted (a firewall or sandbox refused it)',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'timed out',
  ENOTFOUND: NO_NAME,
  EAI_AGAIN: NAME_FAILED,
  // undici (lib/core/errors.js)
  UND_ERR_SOCKET: 'the connection closed before the answer was complete',
  UND_ERR_CLOSED: 'the connection closed before the answer was complete',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer headers in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stalled',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the answer was cut short',
};

/** OpenSSL and Node TLS codes (CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, …). */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_)/;

/**
 * The failure behind `error` in words: the first code of its cause chain that has words (a
 * guarded lookup throws netdiag errors), else "network error"; an error without any code is
 * one of ours: its text, without any address in it.
 */
export function failureInWords(error: unknown): string {
  let coded = false;
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (isNetdiagError(e)) {
      return e.code === 'NOT_FOUND' ? NO_NAME : NAME_FAILED;
    }
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      coded = true;
      const words = SOCKET_FAILURES[code];
      if (words) return words;
      if (TLS_CODE.test(code)) return 'the TLS handshake failed (certificate or protocol refused)';
      if (code.startsWith('HPE_')) return 'the answer is not valid HTTP';
    }
    e = (e as { cause?: unknown }).cause;
  }
  const message = (error as Error | undefined)?.message;
  if (coded || !message) return 'network error';
  return message.replace(/\s*\[?[0-9a-f:.]+\]?:\d+\b/gi, '').trim() || 'network error';
}
