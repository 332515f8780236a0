/**
 * Query and path parameter coercion. Every failure is an `InvalidInputError` whose message
 * names the parameter and the expected form.
 * @module
 */
import { InvalidInputError } from '@netdiag/core';
import type { Request } from 'express';

/**
 * A single string query parameter. A repeated parameter (`?ip=a&ip=b`) is a 400: silently
 * picking one would hide a client bug.
 */
export function queryParam(req: Request, name: string, expected: string, required: true): string;
export function queryParam(
  req: Request,
  name: string,
  expected: string,
  required?: false,
): string | undefined;
export function queryParam(
  req: Request,
  name: string,
  expected: string,
  required = false,
): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (value === undefined || value === '') {
    if (required) {
      throw new InvalidInputError(`Missing required query parameter "${name}": ${expected}`, name);
    }
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new InvalidInputError(
      `Query parameter "${name}" must be given once, as ${expected}`,
      name,
    );
  }
  if (value.length > 2048) {
    throw new InvalidInputError(
      `Query parameter "${name}" is too long (at most 2048 characters)`,
      name,
    );
  }
  return value;
}

/** A path parameter (always present when the route matched). */
export function pathParam(req: Request, name: string): string {
  const value = (req.params as Record<string, string | undefined>)[name];
  return value ?? '';
}
