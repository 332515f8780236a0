/**
 * The JSON-RPC 2.0 messages of `POST /mcp` as JSON Schemas, for the OpenAPI document: what the
 * body holds and what the answers hold (JSON-RPC 2.0 §4 and §5; MCP "Base Protocol": a
 * request's id is a string or an integer, never null). A method's `params` and `result` are
 * MCP's own and stay open objects here; the tools' schemas are in `tools/list`.
 * @module
 */
import type { JsonSchema } from '@netdiag/core';

const version: JsonSchema = { type: 'string', const: '2.0', description: 'Always "2.0"' };

/** The body: one request or notification. */
export const JSON_RPC_REQUEST: JsonSchema = {
  type: 'object',
  description:
    'One JSON-RPC 2.0 message: a request (with `id`) or a notification (without `id`, answered ' +
    '202 with no body). No batches.',
  properties: {
    jsonrpc: version,
    id: { type: ['string', 'integer'], description: 'Echoed in the answer' },
    method: {
      type: 'string',
      description:
        'The MCP method: `initialize`, `ping`, `tools/list`, `tools/call`, or a notification ' +
        'such as `notifications/initialized`',
    },
    params: {
      type: 'object',
      additionalProperties: true,
      description: "The method's parameters, e.g. `{name, arguments}` for `tools/call`",
    },
  },
  required: ['jsonrpc', 'method'],
};

/** An error answer, to a request or to a message that could not be read (`id: null`). */
export const JSON_RPC_ERROR: JsonSchema = {
  type: 'object',
  description: 'A JSON-RPC 2.0 error',
  properties: {
    jsonrpc: version,
    id: {
      type: ['string', 'integer', 'null'],
      description: "The request's id; null when the message could not be read",
    },
    error: {
      type: 'object',
      properties: {
        code: {
          type: 'integer',
          description:
            '-32700 parse error, -32600 invalid request, -32601 method not found, -32602 ' +
            'invalid params, -32000 refused by the transport (the message says why)',
        },
        message: { type: 'string', description: 'What went wrong' },
        data: { description: 'More about the error, when there is more' },
      },
      required: ['code', 'message'],
    },
  },
  required: ['jsonrpc', 'id', 'error'],
};

/** A request's answer: its result, or an error (an unknown method is answered 200 too). */
export const JSON_RPC_RESPONSE: JsonSchema = {
  oneOf: [
    {
      type: 'object',
      description: 'A JSON-RPC 2.0 result',
      properties: {
        jsonrpc: version,
        id: { type: ['string', 'integer'], description: "The request's id" },
        result: {
          type: 'object',
          additionalProperties: true,
          description:
            '`initialize`: protocolVersion, capabilities, serverInfo, instructions; ' +
            '`tools/list`: tools (name, title, description, inputSchema, outputSchema, ' +
            'annotations); `tools/call`: content (a one-line text), structuredContent (the ' +
            "HTTP API's `data`) and isError; `ping`: an empty object",
        },
      },
      required: ['jsonrpc', 'id', 'result'],
    },
    JSON_RPC_ERROR,
  ],
};
