/**
 * Failures of a probe target (the site, not netdiag): they keep a machine-readable `kind` so
 * that `checkSite` can say why a site is down, and the HTTP layer maps them like any upstream
 * failure (502, or 504 for timeouts).
 * @module
 */
import { TimeoutError, UpstreamError } from '../errors.js';

/** Why a target could not be fetched. */
export type ProbeFailureKind =
  /** The TCP connection was actively refused (RST): nothing listens on that port. */
  | 'refused'
  /** The connection was reset or closed before a complete HTTP answer. */
  | 'reset'
  /** No route to the host or network (ICMP unreachable). */
  | 'unreachable'
  /** The TLS handshake failed or the certificate is not trusted for the name. */
  | 'tls'
  /** The target did not speak valid HTTP/1.1 (garbage, oversized headers, bad redirect). */
  | 'protocol'
  /** More redirects than allowed (a loop, usually). */
  | 'redirects';

/** Upstream name used in messages and logs for user-supplied probe targets. */
export const TARGET_UPSTREAM = 'target';

export class ProbeError extends UpstreamError {
  override name = 'ProbeError';

  constructor(
    readonly kind: ProbeFailureKind,
    message: string,
    cause?: unknown,
    /** The last HTTP status seen before the failure (redirect loops), if any. */
    readonly lastStatus?: number,
    /** Where the chain stood when it failed (redirect loops): redirects followed, last hop. */
    readonly chain?: { redirects: number; url: string; address: string },
  ) {
    super(TARGET_UPSTREAM, message, cause);
  }
}

/** A probe timeout that says which phase ran out of time. */
export class ProbeTimeoutError extends TimeoutError {
  override name = 'ProbeTimeoutError';

  constructor(
    readonly phase: 'connect' | 'response',
    timeoutMs: number,
    detail?: string,
  ) {
    super(TARGET_UPSTREAM, timeoutMs);
    this.message =
      phase === 'connect'
        ? `[netdiag] [${TARGET_UPSTREAM}] no TCP connection${detail ? ` to ${detail}` : ''} within ${timeoutMs} ms`
        : `[netdiag] [${TARGET_UPSTREAM}] no complete answer${detail ? ` from ${detail}` : ''} within ${timeoutMs} ms`;
  }
}

/** Maps a socket error code to a probe failure. */
export function socketFailure(error: unknown, where: string): ProbeError {
  const err = error as NodeJS.ErrnoException & { library?: string; reason?: string };
  const code = err?.code ?? '';
  if (code === 'ECONNREFUSED')
    return new ProbeError('refused', `connection refused by ${where}`, error);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') {
    return new ProbeError('unreachable', `${where} is unreachable (${code})`, error);
  }
  if (['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code)) {
    return new ProbeError('reset', `${where} closed the connection (${code})`, error);
  }
  if (
    code.startsWith('ERR_SSL') ||
    code.startsWith('ERR_TLS') ||
    code === 'EPROTO' ||
    err?.library === 'SSL routines' ||
    /certificate|handshake|ssl|tls/i.test(err?.message ?? '')
  ) {
    return new ProbeError(
      'tls',
      `TLS failed with ${where}: ${err?.reason ?? err?.message ?? code}`,
      error,
    );
  }
  if (code.startsWith('HPE_') || code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'UND_ERR_INFO') {
    return new ProbeError('protocol', `${where} did not answer with valid HTTP (${code})`, error);
  }
  return new ProbeError('reset', `${where}: ${err?.message ?? String(error)}`, error);
}
