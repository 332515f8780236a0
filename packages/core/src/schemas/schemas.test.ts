/**
 * The JSON Schema helper over the answer schemas. The answer types need no check against the
 * schemas any more: they are the schemas' output types (`z.output`); the tests that parse real
 * answers with the strict schemas are in packages/http (`expectMatchesSchema`).
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ENDPOINT_SCHEMAS } from './index.js';
import { toJsonSchema } from './json-schema.js';

describe('toJsonSchema', () => {
  test('draft 2020-12 without $schema, nullable as a type list, no safe-integer bounds', () => {
    const schema = z.strictObject({
      n: z.int().nullable().describe('a number'),
      m: z.int().min(0),
      e: z.enum(['a', 'b']).describe('inner').nullable(),
      l: z.literal('x').nullable(),
    });
    expect(toJsonSchema(schema)).toEqual({
      type: 'object',
      properties: {
        n: { type: ['integer', 'null'], description: 'a number' },
        m: { type: 'integer', minimum: 0 },
        e: { type: ['string', 'null'], enum: ['a', 'b', null], description: 'inner' },
        l: { type: ['string', 'null'], enum: ['x', null] },
      },
      required: ['n', 'm', 'e', 'l'],
    });
  });

  test('answers stay open to added fields unless asked; inputs keep defaults optional', () => {
    const schema = z.strictObject({ a: z.string() });
    expect(toJsonSchema(schema)).not.toHaveProperty('additionalProperties');
    expect(toJsonSchema(schema, { strict: true }).additionalProperties).toBe(false);
    const params = z.object({ t: z.enum(['A', 'MX']).default('A') });
    expect(toJsonSchema(params, { io: 'input' })).toEqual({
      type: 'object',
      properties: { t: { type: 'string', enum: ['A', 'MX'], default: 'A' } },
    });
  });

  test('every endpoint schema converts; reused pieces are inlined, never $ref', () => {
    for (const [op, schemas] of Object.entries(ENDPOINT_SCHEMAS)) {
      const all = [
        toJsonSchema(schemas.data),
        ...('params' in schemas ? [toJsonSchema(schemas.params, { io: 'input' })] : []),
        ...('body' in schemas ? [toJsonSchema(schemas.body, { io: 'input' })] : []),
      ];
      for (const json of all) {
        const text = JSON.stringify(json);
        expect(text, op).not.toContain('$ref');
        expect(text, op).not.toContain('$schema');
        expect(text, op).not.toContain('9007199254740991');
      }
    }
  });
});
