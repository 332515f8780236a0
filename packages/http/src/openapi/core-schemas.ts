/**
 * Route schemas from the one source, `ENDPOINT_SCHEMAS` in @netdiag/core (issue 14 item 3): the
 * routes keep their summaries, descriptions, examples and errors; every schema, parameter
 * description and required flag comes from the core zod schema of the operation.
 * @module
 */
import { ENDPOINT_SCHEMAS, type JsonSchema, type OperationId, toJsonSchema } from '@netdiag/core';
import type { ParamDef } from '../routes/types.js';

/** The `data` of an operation's success envelope. */
export function dataSchema(op: OperationId): JsonSchema {
  return toJsonSchema(ENDPOINT_SCHEMAS[op].data);
}

type WithBody = {
  [K in OperationId]: (typeof ENDPOINT_SCHEMAS)[K] extends { body: unknown } ? K : never;
}[OperationId];
type WithParams = {
  [K in OperationId]: (typeof ENDPOINT_SCHEMAS)[K] extends { params: unknown } ? K : never;
}[OperationId];

/** The JSON request body of a POST operation. */
export function bodySchema(op: WithBody): JsonSchema {
  return toJsonSchema(ENDPOINT_SCHEMAS[op].body, { io: 'input' });
}

/**
 * The parameters of an operation, in the order of its core schema. `path` names the path
 * segments (`/api/v1/dns/:domain` → `['domain']`); the rest are query parameters.
 */
export function paramsOf(
  op: WithParams,
  examples: Record<string, unknown> = {},
  options: { path?: readonly string[] } = {},
): ParamDef[] {
  const object = toJsonSchema(ENDPOINT_SCHEMAS[op].params, { io: 'input' });
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
