/**
 * zod → JSON Schema 2020-12 (the dialect of OpenAPI 3.1), tidied for embedding in a larger
 * document such as the OpenAPI description or an MCP tool definition.
 * @module
 */
import { z } from 'zod';
import { documentedForms } from './param.js';

/** A JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

export interface ToJsonSchemaOptions {
  /**
   * `input`: what a client may send (defaults are optional, as parameters need); `output`: what
   * the server answers. @default 'output'
   */
  io?: 'input' | 'output';
  /**
   * Keep `additionalProperties: false` of strict objects in output schemas. Off by default:
   * answers may gain documented fields (CONTRACT §2), so clients must not reject unknown ones;
   * the zod schemas stay strict for the tests. @default false
   */
  strict?: boolean;
}

/**
 * `z.toJSONSchema` with the options every consumer here needs: draft 2020-12, no `$schema`
 * key, every reused piece inlined (each result stands alone; a `#/$defs/…` reference would
 * resolve against the root of an enclosing OpenAPI document), nullable types written as
 * `type: [T, "null"]`, and no safe-integer bounds that zod adds to every `z.int()`.
 */
export function toJsonSchema(schema: z.ZodType, options: ToJsonSchemaOptions = {}): JsonSchema {
  const io = options.io ?? 'output';
  const raw = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    reused: 'inline',
    unrepresentable: 'throw',
    // A parameter is published in its documented form, not as the text rule that parses it.
    override: ({ zodSchema, jsonSchema }) => {
      const form = documentedForms.get(zodSchema) as z.ZodType | undefined;
      if (form === undefined) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
      Object.assign(jsonSchema, toJsonSchema(form, { io: 'input' }));
    },
  }) as JsonSchema;
  return tidy(raw, io === 'output' && options.strict !== true);
}

/** Keywords whose value is one schema, a list of schemas, or a map of name → schema. */
const ONE = new Set([
  'items',
  'additionalProperties',
  'propertyNames',
  'not',
  'contains',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
const LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const MAP = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `dropClosed`: remove `additionalProperties: false`. */
function tidy(node: JsonSchema, dropClosed: boolean): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (ONE.has(key) && isObject(value)) out[key] = tidy(value, dropClosed);
    else if (LIST.has(key) && Array.isArray(value)) {
      out[key] = value.map((v) => (isObject(v) ? tidy(v, dropClosed) : v));
    } else if (MAP.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, v]) => [name, isObject(v) ? tidy(v, dropClosed) : v]),
      );
    } else out[key] = value;
  }
  if (out['type'] === 'integer') {
    if (out['minimum'] === Number.MIN_SAFE_INTEGER) delete out['minimum'];
    if (out['maximum'] === Number.MAX_SAFE_INTEGER) delete out['maximum'];
  }
  if (dropClosed && out['additionalProperties'] === false) {
    delete out['additionalProperties'];
  }
  // Object keys are always strings in JSON.
  const names = out['propertyNames'];
  if (isObject(names) && Object.keys(names).length === 1 && names['type'] === 'string') {
    delete out['propertyNames'];
  }
  return collapseNullable(out);
}

/** `anyOf: [T, {type: "null"}]` → `type: [T, "null"]`, when T is a plain typed schema. */
function collapseNullable(node: JsonSchema): JsonSchema {
  const anyOf = node['anyOf'];
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return node;
  const nullIndex = anyOf.findIndex(
    (s) => isObject(s) && Object.keys(s).length === 1 && s['type'] === 'null',
  );
  if (nullIndex === -1) return node;
  const other = anyOf[1 - nullIndex];
  if (
    !isObject(other) ||
    typeof other['type'] !== 'string' ||
    ['anyOf', 'oneOf', 'allOf', 'not', '$ref'].some((k) => k in other)
  ) {
    return node;
  }
  const { anyOf: _, ...outer } = node;
  const merged: JsonSchema = { ...other, ...outer, type: [other['type'], 'null'] };
  if (Array.isArray(other['enum'])) merged['enum'] = [...other['enum'], null];
  if ('const' in other) {
    merged['enum'] = [other['const'], null];
    delete merged['const'];
  }
  return merged;
}
