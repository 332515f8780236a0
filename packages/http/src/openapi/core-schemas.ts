/**
 * OpenAPI schemas from core's zod schemas: every schema, parameter description and required
 * flag comes from the core schema of the operation (its descriptor, or `ENDPOINT_SCHEMAS` for
 * the routes the HTTP face keeps: the header echo, health).
 * @module
 */

import type { Capability } from '@netdiag/core';
import { ENDPOINT_SCHEMAS, type JsonSchema, type OperationId, toJsonSchema } from '@netdiag/core';
import type { ParamDef } from '../routes/types.js';

/** The `data` of an operation's success envelope. */
export function dataSchema(op: OperationId): JsonSchema {
  return toJsonSchema(ENDPOINT_SCHEMAS[op].data);
}

/**
 * The parameters of an operation (its parameter schema), in the schema's order. `path` names the path
 * segments (`/api/v1/dns/:domain` → `['domain']`); the rest are query parameters.
 */
export function paramsOf(
  schema: Capability['params'],
  examples: Record<string, unknown> = {},
  options: { path?: readonly string[] } = {},
): ParamDef[] {
  const object = toJsonSchema(schema, { io: 'input' });
  const required = new Set((object['required'] as string[] | undefined) ?? []);
  const properties = object['properties'] as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, property]) => {
    // The description belongs to the parameter object in OpenAPI.
    const { description, ...schema } = property;
    const inPath = options.path?.includes(name) ?? false;
    return {
      name,
      in: inPath ? 'path' : 'query',
      required: inPath || required.has(name),
      description: String(description ?? ''),
      schema,
      ...(examples[name] !== undefined ? { example: examples[name] } : {}),
    };
  });
}
