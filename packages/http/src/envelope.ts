/** The response envelope (SPEC 2.1): `{success, data}` or `{success, error}`. */
import type { Response } from 'express';

/** Sends data with the status the handler set (200 unless it chose another). */
export function sendData(res: Response, data: unknown): void {
  writeJson(res, JSON.stringify({ success: true, data }));
}

export function sendError(res: Response, status: number, message: string): void {
  res.statusCode = status;
  writeJson(res, JSON.stringify({ success: false, error: message }));
}

/**
 * What `res.json` does for these bodies, written directly: the same headers, but the body
 * stays a string, so Node sends headers and body in one write instead of two (Express turns
 * the string into a Buffer first, which makes Node write them separately). A `HEAD` response
 * gets the headers only (Node drops the body of a HEAD response by itself).
 */
function writeJson(res: Response, body: string): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
