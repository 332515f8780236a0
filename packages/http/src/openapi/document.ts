/**
 * The OpenAPI 3.1 document, generated from the route table that mounts the routes.
 * @module
 */
import { STATUS_TEXT } from '../errors.js';
import type { RouteDef } from '../routes/types.js';
import { bool, type JsonSchema, obj, str } from './schema.js';

export interface OpenApiOptions {
  version: string;
}

const ATTRIBUTION = 'IP geolocation by DB-IP (https://db-ip.com), CC BY 4.0.';

export function buildOpenApi(routes: readonly RouteDef[], options: OpenApiOptions): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    paths[path] ??= {};
    const limited = route.path.startsWith('/api/') && route.path !== '/api/openapi.json';
    const statuses = [...new Set([...route.errors, ...(limited ? [429] : []), 500])].sort();
    const responses: Record<string, unknown> = {
      '200': route.raw
        ? {
            description: route.raw.description,
            content: {
              [route.raw.contentType]: {
                schema: route.raw.contentType.includes('json')
                  ? { type: 'object' }
                  : { type: 'string' },
              },
            },
          }
        : {
            description: 'Success envelope',
            content: {
              'application/json': {
                schema: obj({ success: { const: true }, data: route.data }),
                ...(route.example ? { example: { success: true, data: route.example } } : {}),
              },
            },
          },
    };
    for (const status of statuses) {
      responses[String(status)] = { $ref: `#/components/responses/E${status}` };
    }
    (paths[path] as Record<string, unknown>)[route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      parameters: (route.params ?? []).map((p) => ({
        name: p.name,
        in: p.in,
        required: p.in === 'path' ? true : (p.required ?? false),
        description: p.description,
        schema: p.schema,
        ...(p.example !== undefined ? { example: p.example } : {}),
      })),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: route.body.schema,
                  ...(route.body.example ? { example: route.body.example } : {}),
                },
              },
            },
          }
        : {}),
      responses,
    };
  }
  const errorStatuses = Object.keys(STATUS_TEXT).map(Number);
  const rateHeaders = {
    'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
    'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
    'X-RateLimit-Window': { $ref: '#/components/headers/X-RateLimit-Window' },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'netdiag: public IP, DNS and network diagnostics API',
      version: '1.1.0',
      description:
        'Free, keyless JSON API. Every response is an envelope `{success, data}` or `{success: false, error}` ' +
        'and carries `Access-Control-Allow-Origin: *`. Every `/api` response carries X-RateLimit-Limit, ' +
        'X-RateLimit-Remaining and X-RateLimit-Window (seconds): 60 requests per 60 s per client IP over all ' +
        '`/api` routes, 20 on /api/ports and /api/security-headers (those headers then describe the stricter ' +
        `limit); IPv6 clients are counted per /56. ${ATTRIBUTION} Server version ${options.version}.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Error: obj(
          { success: { const: false }, error: str('Human-readable message') },
          { description: 'Error envelope' },
        ),
        Success: obj({ success: bool(), data: { type: 'object' } }),
      },
      headers: {
        'X-RateLimit-Limit': {
          description: 'Requests allowed per window',
          schema: { type: 'integer' },
        },
        'X-RateLimit-Remaining': {
          description: 'Requests left in this window',
          schema: { type: 'integer' },
        },
        'X-RateLimit-Window': {
          description: 'Window length in seconds',
          schema: { type: 'integer' },
        },
        'Retry-After': {
          description: 'Seconds to wait before retrying',
          schema: { type: 'integer' },
        },
      },
      responses: Object.fromEntries(
        errorStatuses.map((status) => [
          `E${status}`,
          {
            description: STATUS_TEXT[status],
            headers:
              status === 429 || status === 503
                ? { ...rateHeaders, 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
                : rateHeaders,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
  };
}
