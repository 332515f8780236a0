/**
 * The typed error family of netdiag. Core throws only these; adapters (HTTP, CLI) map
 * `code` to a status or an exit code. Core knows nothing of HTTP.
 * @module
 */

/** Stable machine-readable error codes. */
export type ErrorCode =
  /** A parameter is missing or malformed. */
  | 'INVALID_INPUT'
  /** A probe target resolves to a private, reserved or internal address (CONTRACT §4). */
  | 'TARGET_NOT_ALLOWED'
  /** The thing asked about does not exist (domain not in RDAP, unknown AS, …). */
  | 'NOT_FOUND'
  /** An upstream (DNS, RDAP, WHOIS, breach database) answered with a failure. */
  | 'UPSTREAM_ERROR'
  /** An upstream did not answer in time. */
  | 'UPSTREAM_TIMEOUT'
  /** An upstream asked us to slow down; `retryAfterS` says for how long. */
  | 'UPSTREAM_THROTTLED'
  /** The caller aborted through its own `signal`. */
  | 'ABORTED'
  /** A configuration value or a dataset is unusable. */
  | 'CONFIG_ERROR';

export interface NetdiagErrorOptions {
  cause?: unknown;
  /** Which upstream failed, for UPSTREAM_* codes (`rdap`, `whois`, `dns`, …). */
  upstream?: string;
  /** Seconds the caller should wait, for UPSTREAM_THROTTLED. */
  retryAfterS?: number;
  /** The offending parameter, for INVALID_INPUT. */
  param?: string;
  /**
   * The upstream endpoint involved (`ip:port` of a DNS server, a host name), kept out of the
   * message: an API client must not learn the server's resolver address, a local CLI user may.
   */
  server?: string;
}

/** Base class of every error netdiag throws on purpose. */
export class NetdiagError extends Error {
  override name = 'NetdiagError';
  readonly code: ErrorCode;
  readonly upstream: string | undefined;
  readonly retryAfterS: number | undefined;
  readonly param: string | undefined;
  /** See {@link NetdiagErrorOptions.server}. */
  readonly server: string | undefined;

  constructor(code: ErrorCode, message: string, options: NetdiagErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.upstream = options.upstream;
    this.retryAfterS = options.retryAfterS;
    this.param = options.param;
    this.server = options.server;
  }
}

/** Bad input from the caller. The message says which parameter and the expected form. */
export class InvalidInputError extends NetdiagError {
  override name = 'InvalidInputError';
  constructor(message: string, param?: string, cause?: unknown) {
    super('INVALID_INPUT', message, { param, cause });
  }
}

/** The message required by SPEC §7 for a malformed IP parameter. */
export const INVALID_IP_MESSAGE =
  'Invalid IP address format: a valid IPv4 or IPv6 address is required.';

export class InvalidIpError extends InvalidInputError {
  override name = 'InvalidIpError';
  constructor(param = 'ip') {
    super(INVALID_IP_MESSAGE, param);
  }
}

export class TargetNotAllowedError extends NetdiagError {
  override name = 'TargetNotAllowedError';
  constructor(reason: string) {
    super('TARGET_NOT_ALLOWED', `Target not allowed: ${reason}`);
  }
}

export class NotFoundError extends NetdiagError {
  override name = 'NotFoundError';
  constructor(message: string, upstream?: string) {
    super('NOT_FOUND', message, { upstream });
  }
}

export class UpstreamError extends NetdiagError {
  override name = 'UpstreamError';
  /** `server`: the endpoint that failed, kept out of `message` (see NetdiagErrorOptions). */
  constructor(upstream: string, message: string, cause?: unknown, server?: string) {
    super('UPSTREAM_ERROR', `[netdiag] [${upstream}] ${message}`, { upstream, cause, server });
  }
}

export class TimeoutError extends NetdiagError {
  override name = 'TimeoutError';
  readonly timeoutMs: number;
  constructor(upstream: string, timeoutMs: number) {
    super('UPSTREAM_TIMEOUT', `[netdiag] [${upstream}] no answer within ${timeoutMs} ms`, {
      upstream,
    });
    this.timeoutMs = timeoutMs;
  }
}

export class ThrottledError extends NetdiagError {
  override name = 'ThrottledError';
  constructor(upstream: string, retryAfterS: number) {
    super(
      'UPSTREAM_THROTTLED',
      `[netdiag] [${upstream}] the upstream is rate limiting us; retry in ${retryAfterS} s`,
      { upstream, retryAfterS },
    );
  }
}

export class AbortedError extends NetdiagError {
  override name = 'AbortedError';
  constructor(cause?: unknown) {
    super('ABORTED', 'The operation was aborted by the caller', { cause });
  }
}

export class ConfigError extends NetdiagError {
  override name = 'ConfigError';
  constructor(message: string, cause?: unknown) {
    super('CONFIG_ERROR', message, { cause });
  }
}

/**
 * True for any netdiag error, optionally of one code. Checks the shape rather than
 * `instanceof`, so it also works across realms and duplicated package copies.
 */
export function isNetdiagError(error: unknown, code?: ErrorCode): error is NetdiagError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { code?: unknown; name?: unknown };
  if (typeof candidate.code !== 'string' || typeof candidate.name !== 'string') return false;
  if (!/Error$/.test(candidate.name)) return false;
  return code === undefined ? ERROR_CODES.has(candidate.code) : candidate.code === code;
}

const ERROR_CODES = new Set<string>([
  'INVALID_INPUT',
  'TARGET_NOT_ALLOWED',
  'NOT_FOUND',
  'UPSTREAM_ERROR',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_THROTTLED',
  'ABORTED',
  'CONFIG_ERROR',
]);

/**
 * The message a client of any face sees for a netdiag error: the `[netdiag] [x] ` prefix meant
 * for logs and library users becomes `Upstream x failed: …`. The HTTP API's error bodies and the
 * MCP face's tool errors both use it, so both say the same thing.
 */
export function publicErrorMessage(error: NetdiagError): string {
  const match = /^\[netdiag\] \[([^\]]+)\] (.*)$/s.exec(error.message);
  return match ? `Upstream ${match[1]} failed: ${match[2]}` : error.message;
}
