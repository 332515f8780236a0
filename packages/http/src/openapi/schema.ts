/**
 * Tiny JSON Schema (2020-12, as used by OpenAPI 3.1) builders, so route definitions stay short.
 * @module
 */
export type JsonSchema = Record<string, unknown>;

export const str = (description?: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  ...(description ? { description } : {}),
  ...extra,
});
export const num = (description?: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'number',
  ...(description ? { description } : {}),
  ...extra,
});
export const int = (description?: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'integer',
  ...(description ? { description } : {}),
  ...extra,
});
export const bool = (description?: string): JsonSchema => ({
  type: 'boolean',
  ...(description ? { description } : {}),
});
export const nullable = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  type: [schema.type as string, 'null'],
});
export const arr = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
});
export const enumOf = (values: readonly string[], description?: string): JsonSchema => ({
  type: 'string',
  enum: [...values],
  ...(description ? { description } : {}),
});
/** An object whose listed properties are all required unless named in `optional`. */
export const obj = (
  properties: Record<string, JsonSchema>,
  options: { optional?: string[]; description?: string; additional?: JsonSchema | boolean } = {},
): JsonSchema => ({
  type: 'object',
  ...(options.description ? { description: options.description } : {}),
  properties,
  required: Object.keys(properties).filter((k) => !options.optional?.includes(k)),
  ...(options.additional !== undefined ? { additionalProperties: options.additional } : {}),
});
