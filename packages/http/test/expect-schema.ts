/**
 * `expectMatchesSchema(operationId, body)`: a success answer is the envelope of CONTRACT §2
 * around a `data` that parses with the operation's core schema. The data schemas are strict
 * objects, so an undocumented field fails too (CONTRACT §2: added fields must be documented).
 */
import {
  ENDPOINT_SCHEMAS,
  type EndpointData,
  type OperationId,
  successEnvelope,
} from '@netdiag/core';
import { ROUTES } from '../src/routes/index.js';

export function expectMatchesSchema<Op extends OperationId>(
  operationId: Op,
  body: unknown,
): EndpointData<Op> {
  const result = successEnvelope(ENDPOINT_SCHEMAS[operationId].data).safeParse(body);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 10)
      .map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('\n');
    throw new Error(
      `${operationId}: the answer does not match its schema\n${issues}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
  return result.data.data as EndpointData<Op>;
}

/** The operationId of the enveloped route that serves `url` (a path with an optional query). */
export function operationIdOf(url: string, method = 'get'): OperationId {
  const path = url.split('?')[0]!.toLowerCase().replace(/\/$/, '');
  const route = ROUTES.find(
    (r) =>
      !r.raw &&
      r.method === method.toLowerCase() &&
      new RegExp(`^${r.path.toLowerCase().replace(/:[a-z_]+/g, '[^/]+')}$`).test(path),
  );
  if (!route || !(route.operationId in ENDPOINT_SCHEMAS)) {
    throw new Error(`No enveloped route serves ${method} ${url}`);
  }
  return route.operationId as OperationId;
}
