/**
 * Requests Node's HTTP parser rejects before any route runs: headers over the 16 KiB limit
 * (`HPE_HEADER_OVERFLOW`) or bytes that are not HTTP. Node's default answer is a bare 431/400
 * with no body and no CORS header, which a browser reports as "Failed to fetch"; this answers
 * with the JSON envelope and the same CORS and security headers as every other response.
 * @module
 */
import type { Duplex } from 'node:stream';
import { EXPOSED_HEADERS } from './cors.js';

interface ParserError extends Error {
  code?: string;
}

function reply(status: number, reason: string, message: string): string {
  const body = JSON.stringify({ success: false, error: message });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Access-Control-Allow-Origin: *',
    `Access-Control-Expose-Headers: ${EXPOSED_HEADERS}`,
    'X-Content-Type-Options: nosniff',
    'Cache-Control: no-store',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** A `clientError` listener for `http.Server` / `https.Server` (startServer installs it). */
export function answerClientError(error: ParserError, socket: Duplex): void {
  // A reset or timed-out socket has no one to answer (Node's own handler does the same).
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const text =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? reply(
          431,
          'Request Header Fields Too Large',
          'Request header fields too large: the request line and headers must fit in 16 KiB (a query that long is not a valid request to this API)',
        )
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? reply(408, 'Request Timeout', 'Request timeout: the request did not arrive in time')
        : reply(
            400,
            'Bad Request',
            `Bad request: not a valid HTTP/1.1 request${error.code ? ` (${error.code})` : ''}`,
          );
  socket.end(text);
}
