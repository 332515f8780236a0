/**
 * The OpenAPI document takes every schema from the core zod schemas (issue 14 item 3), and what
 * it shows holds: every example validates against the published JSON Schema (ajv, draft
 * 2020-12) and against the strict zod schema it came from.
 */
import { ENDPOINT_SCHEMAS, type JsonSchema, successEnvelope, toJsonSchema } from '@netdiag/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { buildOpenApi } from '../src/openapi/document.js';
import { ROUTES } from '../src/routes/index.js';
import { expectMatchesSchema } from './expect-schema.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

const document = buildOpenApi(ROUTES, { version: 'test' }) as {
  paths: Record<string, Record<string, Operation>>;
};

interface Operation {
  operationId: string;
  parameters: {
    name: string;
    in: string;
    required: boolean;
    description: string;
    schema: JsonSchema;
    example?: unknown;
  }[];
  requestBody?: { content: { 'application/json': { schema: JsonSchema; example?: unknown } } };
  responses: Record<
    string,
    { content?: Record<string, { schema: JsonSchema; example?: unknown }> }
  >;
}

const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
const enveloped = ROUTES.filter((route) => !route.raw);
type Schemas = (typeof ENDPOINT_SCHEMAS)[keyof typeof ENDPOINT_SCHEMAS] & {
  params?: (typeof ENDPOINT_SCHEMAS)['dnsLookup']['params'];
  body?: (typeof ENDPOINT_SCHEMAS)['bulkLookup']['body'];
};

function validate(schema: JsonSchema, value: unknown): string[] {
  const check = ajv.compile(schema);
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe('every schema of the document comes from core', () => {
  test('each enveloped route has core schemas, and nothing else does', () => {
    expect(Object.keys(ENDPOINT_SCHEMAS).sort()).toEqual(
      enveloped.map((route) => route.operationId).sort(),
    );
  });

  for (const route of enveloped) {
    const op = operations.find((o) => o.operationId === route.operationId)!;
    const schemas = ENDPOINT_SCHEMAS[route.operationId as keyof typeof ENDPOINT_SCHEMAS] as Schemas;

    test(`${route.operationId}: data, parameters and body are the core schemas`, () => {
      const success = op.responses['200']!.content!['application/json']!.schema;
      expect((success['properties'] as Record<string, JsonSchema>)['data']).toEqual(
        toJsonSchema(schemas.data),
      );
      const input = schemas.params ? toJsonSchema(schemas.params, { io: 'input' }) : undefined;
      const properties = (input?.['properties'] ?? {}) as Record<string, JsonSchema>;
      const required = (input?.['required'] ?? []) as string[];
      expect(op.parameters.map((p) => p.name)).toEqual(Object.keys(properties));
      for (const p of op.parameters) {
        expect({ ...p.schema, description: p.description }).toEqual(properties[p.name]);
        expect(p.required, p.name).toBe(p.in === 'path' || required.includes(p.name));
      }
      expect(op.requestBody?.content['application/json'].schema).toEqual(
        schemas.body ? toJsonSchema(schemas.body, { io: 'input' }) : undefined,
      );
    });

    test(`${route.operationId}: every example validates against its schema`, () => {
      const success = op.responses['200']!.content!['application/json']!;
      if (success.example !== undefined) {
        expect(validate(success.schema, success.example)).toEqual([]);
        const parsed = successEnvelope(schemas.data).safeParse(success.example);
        expect(parsed.error?.issues ?? []).toEqual([]);
      }
      for (const p of op.parameters) {
        expect(p.example, `${p.name} has an example`).toBeDefined();
        expect(validate(p.schema, p.example), p.name).toEqual([]);
        const parsed = schemas.params!.shape[p.name as 'domain'].safeParse(p.example);
        expect(parsed.error?.issues ?? [], p.name).toEqual([]);
      }
      const body = op.requestBody?.content['application/json'];
      if (body) {
        expect(validate(body.schema, body.example)).toEqual([]);
        expect(schemas.body!.safeParse(body.example).success).toBe(true);
      }
    });
  }

  test('every enveloped route documents a data schema with fields and an example', () => {
    for (const route of enveloped) {
      const data = toJsonSchema(ENDPOINT_SCHEMAS[route.operationId as 'health'].data);
      expect(data['properties'] ?? data['oneOf'], route.operationId).toBeDefined();
      if (route.operationId !== 'health') expect(route.example, route.operationId).toBeDefined();
    }
  });
});

describe('expectMatchesSchema', () => {
  const data = { method: 'GET', url: 'http://x/api/v1/headers', headers: { a: 'b' }, ip: '::1' };
  test('passes the documented shape and returns data', () => {
    expect(expectMatchesSchema('echoHeaders', { success: true, data })).toEqual(data);
  });
  test.each([
    ['an undocumented field', { success: true, data: { ...data, extra: 1 } }, /extra/],
    ['a wrong type', { success: true, data: { ...data, ip: 1 } }, /ip: /],
    ['an error envelope', { success: false, error: 'nope' }, /success/],
  ])('fails on %s, naming the path', (_name, body, message) => {
    expect(() => expectMatchesSchema('echoHeaders', body)).toThrow(message);
  });
});
