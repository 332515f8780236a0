/**
 * The OpenAPI 3.1 document, generated from the route table that mounts the routes.
 * @module
 */
import { errorEnvelopeSchema, type JsonSchema, toJsonSchema } from '@netdiag/core';
import { STATUS_TEXT } from '../errors.js';
import type { RouteDef } from '../routes/types.js';

export interface OpenApiOptions {
  version: string;
}

const ATTRIBUTION = 'IP geolocation by DB-IP (https://db-ip.com), CC BY 4.0.';

/** One line per tag of the route table; a tag without one is listed with its name. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Caller: "The caller's own address, its score, and an echo of the request.",
  Breach: 'Email breach check against the XposedOrNot breach database.',
  'IP intelligence':
    'Geolocation, network and privacy flags of any address, bulk lookup and ASN search.',
  DNS: 'DNS records, reverse DNS and DNS blocklists.',
  WHOIS: 'Domain registration data from RDAP, with classic WHOIS as fallback.',
  Probes:
    'Outbound checks of a public target: site up/down, security-header grade, TCP port scan, TLS inspection. Private, reserved and internal targets are refused with 403.',
  Email: 'Email authentication of a domain: MX, SPF, DMARC, DKIM, MTA-STS, TLS-RPT, BIMI.',
  Operations: 'Health, metrics and this document; not rate limited.',
  MCP: 'The Model Context Protocol endpoint for AI agents: every capability as a tool.',
  Page: 'The page for people at /, plain-text answers for curl, and the API reference at /docs.',
};

/** On every `/api` answer (CONTRACT §3), success or error. */
const RATE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Window': { $ref: '#/components/headers/X-RateLimit-Window' },
};

/** Extra words for the shared error responses, beyond STATUS_TEXT. */
const STATUS_NOTES: Record<number, string> = {
  400:
    ' Also a query parameter the operation does not list (names are case-sensitive: `TYPE` is ' +
    'not `type`), except `_` (a cache-buster, ignored everywhere) and on /api/v1/headers, which ' +
    'echoes any query; a path with malformed percent-encoding; and a request that is not valid HTTP (answered ' +
    'by the server before any route, with the envelope and CORS headers, then the connection closes).',
  431: ' Answered by the server before any route, with the envelope and CORS headers; the connection closes.',
  405: ' The path exists with other methods: Allow lists them (RFC 9110 §15.5.6).',
};

/**
 * The success envelope around `data` (CONTRACT §2). The `const` keeps its `type`: a generator
 * that reads only `type` (orval) typed a bare `const: true` as the string "true".
 */
function successEnvelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { success: { type: 'boolean', const: true }, data },
    required: ['success', 'data'],
  };
}

/**
 * A JSON answer of a `raw` route that names no schema. Open (`additionalProperties`): a bare
 * `type: object` is generated as an object with no keys at all (openapi-typescript's
 * `Record<string, never>`).
 */
const ANY_OBJECT: JsonSchema = { type: 'object', additionalProperties: true };

/** The 200 content of a `raw` route: one entry per media type it answers with. */
function rawContent(raw: NonNullable<RouteDef['raw']>): Record<string, { schema: JsonSchema }> {
  const types = typeof raw.contentType === 'string' ? [raw.contentType] : raw.contentType;
  return Object.fromEntries(
    types.map((type) => [
      type,
      { schema: type.includes('json') ? (raw.schema ?? ANY_OBJECT) : { type: 'string' } },
    ]),
  );
}

export function buildOpenApi(routes: readonly RouteDef[], options: OpenApiOptions): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    paths[path] ??= {};
    const limited = route.path.startsWith('/api/') && route.path !== '/api/openapi.json';
    // Every route can meet a malformed request (400), another method (405) and oversized headers
    // (431); every /api route the rate limit.
    const statuses = [
      ...new Set([...route.errors, 400, 405, 431, ...(limited ? [429] : []), 500]),
    ].sort();
    const responses: Record<string, unknown> = {
      '200': route.raw
        ? { description: route.raw.description, content: rawContent(route.raw) }
        : {
            description: 'Success envelope',
            ...(limited ? { headers: RATE_HEADERS } : {}),
            content: {
              'application/json': {
                schema: successEnvelope(route.data ?? { type: 'object' }),
                ...(route.example ? { example: { success: true, data: route.example } } : {}),
              },
            },
          },
    };
    for (const status of statuses) {
      responses[String(status)] = { $ref: `#/components/responses/E${status}` };
    }
    // What a raw route writes itself replaces the shared error answer of that status.
    for (const [status, answer] of Object.entries(route.raw?.statuses ?? {})) {
      responses[status] = {
        description: answer.description,
        ...(answer.schema ? { content: { 'application/json': { schema: answer.schema } } } : {}),
      };
    }
    for (const [status, description] of Object.entries(route.dataStatuses ?? {})) {
      responses[status] = {
        description,
        content: {
          'application/json': { schema: successEnvelope(route.data ?? { type: 'object' }) },
        },
      };
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
  return {
    openapi: '3.1.0',
    info: {
      title: 'netdiag: public IP, DNS and network diagnostics API',
      version: '1.1.0',
      description:
        'Free, keyless JSON API. Every response is an envelope `{success, data}` or `{success: false, error}` ' +
        'and carries `Access-Control-Allow-Origin: *` and `Access-Control-Expose-Headers` naming the ' +
        'rate-limit headers, Retry-After and X-Request-Id (so pages on other origins can read them); ' +
        'preflights allow the request headers they ask for and are cached 24 h. Every `/api` response carries X-RateLimit-Limit, ' +
        'X-RateLimit-Remaining and X-RateLimit-Window (seconds): 60 requests per 60 s per client IP over all ' +
        '`/api` routes, 20 on /api/ports and /api/security-headers (those headers then describe the stricter ' +
        'limit); IPv6 clients are counted per /56. An `/api` operation takes the parameters it lists ' +
        'and no others: an unknown or wrongly cased name (`?TYPE=MX`) is a 400 naming the ones it ' +
        'takes, so that a typo is not answered as if it were absent. `_` (the cache-busting parameter ' +
        'jQuery adds) is ignored everywhere, and /api/v1/headers echoes any query. ' +
        `${ATTRIBUTION} Server version ${options.version}.`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    // No authentication of any kind (SPEC §5).
    security: [],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({
      name,
      description: TAG_DESCRIPTIONS[name] ?? name,
    })),
    paths,
    components: {
      schemas: {
        Error: toJsonSchema(errorEnvelopeSchema),
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
        Allow: {
          description: 'The methods this path answers to, e.g. "GET, HEAD, OPTIONS"',
          schema: { type: 'string' },
        },
      },
      responses: {
        ...Object.fromEntries(
          errorStatuses.map((status) => [
            `E${status}`,
            {
              description: `${STATUS_TEXT[status]}${STATUS_NOTES[status] ?? ''}`,
              headers: {
                ...RATE_HEADERS,
                ...(status === 429 || status === 503
                  ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
                  : {}),
                ...(status === 405 ? { Allow: { $ref: '#/components/headers/Allow' } } : {}),
              },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
            },
          ]),
        ),
      },
    },
  };
}
