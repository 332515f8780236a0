/**
 * Error → HTTP translation: the one place that knows which NetdiagError code is which status.
 * @module
 */
import { type ErrorCode, isNetdiagError, publicErrorMessage } from '@netdiag/core';

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  TARGET_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  UPSTREAM_ERROR: 502,
  UPSTREAM_THROTTLED: 503,
  UPSTREAM_TIMEOUT: 504,
  ABORTED: 499,
  CONFIG_ERROR: 500,
};

/** Human text for each status we answer with (used by the OpenAPI document). */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request: a parameter is missing or malformed; the message says which and the expected form.',
  403: 'Target not allowed: the probe target is a private, reserved or internal address.',
  404: 'Not found.',
  405: 'Method not allowed.',
  413: 'Request body larger than 16 KiB.',
  429: 'Rate limit exceeded; see Retry-After.',
  431: "Request header fields too large: the request line and headers exceed Node's 16 KiB limit.",
  500: 'Internal server error (a bug); logged with the request id.',
  502: 'An upstream (DNS, RDAP, WHOIS, breach database) failed.',
  503: 'An upstream is throttling us; see Retry-After.',
  504: 'An upstream timed out.',
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface ErrorReply {
  status: number;
  message: string;
  headers: Record<string, string>;
  /** True when this is a bug that must be logged with its stack. */
  internal: boolean;
}

/** Maps anything thrown by a route or middleware to a status, message and headers. */
export function toErrorReply(error: unknown): ErrorReply {
  if (error instanceof HttpError) {
    return {
      status: error.status,
      message: error.message,
      headers: error.headers,
      internal: false,
    };
  }
  if (isNetdiagError(error) && error.code !== 'CONFIG_ERROR') {
    const headers: Record<string, string> = {};
    if (error.code === 'UPSTREAM_THROTTLED') {
      headers['Retry-After'] = String(Math.max(1, Math.ceil(error.retryAfterS ?? 60)));
    }
    return {
      status: STATUS_BY_CODE[error.code],
      message: publicErrorMessage(error),
      headers,
      internal: false,
    };
  }
  // body-parser and router errors (a body too large or unreadable, a path parameter with broken
  // %-encoding) carry a 4xx status of their own.
  const candidate = error as { status?: unknown; type?: unknown };
  if (candidate instanceof URIError || (candidate as { name?: unknown })?.name === 'URIError') {
    return {
      status: 400,
      message: 'The URL has malformed percent-encoding',
      headers: {},
      internal: false,
    };
  }
  if (candidate && typeof candidate.status === 'number') {
    if (candidate.status === 413) {
      return {
        status: 413,
        message: 'Request body too large: the limit is 16 KiB',
        headers: {},
        internal: false,
      };
    }
    if (candidate.status >= 400 && candidate.status < 500) {
      return {
        status: 400,
        message:
          'The request body could not be read; send JSON with Content-Type: application/json',
        headers: {},
        internal: false,
      };
    }
  }
  return { status: 500, message: 'Internal server error', headers: {}, internal: true };
}
