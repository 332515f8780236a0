/**
 * JSON request bodies (CONTRACT §6): the content type, the nesting depth (before parsing) and
 * the object shape are checked here, the fields by the capability's parameter schema.
 * @module
 */
import { InvalidInputError, MAX_BODY_DEPTH } from '@netdiag/core';
import type { Request } from 'express';

/** The deepest `[`/`{` nesting of JSON text, strings skipped; one linear pass. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** A JSON object body, read from the raw body; 400 with a clear message when it is not one. */
export function readJsonBody(req: Request): Record<string, unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new InvalidInputError(
      `Send the body as JSON with Content-Type: application/json (got ${type ? `"${type}"` : 'no Content-Type'})`,
      'body',
    );
  }
  const raw: unknown = req.body;
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : '';
  if (text.trim() === '') {
    throw new InvalidInputError(
      'The request body is empty: send {"ips": ["8.8.8.8", ...]}',
      'body',
    );
  }
  const depth = jsonDepth(text);
  if (depth > MAX_BODY_DEPTH) {
    throw new InvalidInputError(
      `The request body nests ${depth} levels deep: at most ${MAX_BODY_DEPTH} levels are accepted ({"ips": ["8.8.8.8", ...]} needs 2)`,
      'body',
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(
      `The request body is not valid JSON (${(error as Error).message})`,
      'body',
    );
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidInputError(
      'The body must be a JSON object with an "ips" array: {"ips": ["8.8.8.8", ...]}',
      'ips',
    );
  }
  return body as Record<string, unknown>;
}
