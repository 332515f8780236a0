/**
 * `createMcpServer(engine)`: an MCP server (the official SDK's `McpServer`) with one tool per
 * row of core's `NETDIAG_TOOLS`. Input and output schemas are core's zod schemas, the answer is
 * the engine's `data` (as `structuredContent`) with a one-line summary as text, and a failure is
 * a tool error (`isError`) with the message the HTTP API would send, bad arguments included.
 * @module
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  type CallerConnection,
  isNetdiagError,
  NETDIAG_TOOLS,
  type Netdiag,
  publicErrorMessage,
  type ToolDefinition,
  toJsonSchema,
} from '@netdiag/core';
import { z } from 'zod';
import { VERSION } from './version.js';

export interface CreateMcpServerOptions {
  /**
   * The agent's connection when the transport has one (streamable HTTP): `scan_ports` without a
   * host scans it, as `GET /api/ports` does.
   */
  caller?: CallerConnection;
  /** The tools to offer. @default every row of `NETDIAG_TOOLS` */
  tools?: readonly ToolDefinition[];
  /** Told about every failure that is a bug (not bad input or an upstream's failure). */
  onInternalError?: (error: unknown, tool: string) => void;
}

/**
 * MCP requires an output schema to describe an object (`type: "object"`); an answer that is a
 * union of objects (`search_asn`) is still returned as structured content, without a schema.
 */
function isObjectSchema(schema: unknown): boolean {
  return (schema as { _zod?: { def?: { type?: string } } })?._zod?.def?.type === 'object';
}

/**
 * Tool schemas are listed in JSON Schema 2020-12, the dialect MCP 2025-11-25 assumes when a
 * schema names none (SEP-1613), and say so in `$schema` for clients of older revisions. The SDK
 * (1.32) would convert zod to draft-07 and declare that; it writes a schema's `.meta()` over
 * the keys of its conversion, so each tool hands it an empty object carrying core's own
 * 2020-12 schema (`toJsonSchema`, the one the OpenAPI document shows) as its meta.
 */
const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The input schema. The SDK checks a call's arguments against it before the handler and
 * refuses in zod's words ("Invalid input at ip"), while the tool reads and checks them itself as
 * the HTTP route does (core's `parseParams`, then the capability), in the API's words. So the
 * schema the SDK is given admits any object, listed to agents as the tool's own. Made once per
 * tool: the HTTP transport builds a server per request.
 */
const inputSchemas = new WeakMap<z.ZodType, z.ZodType<Record<string, unknown>>>();
function listedInput(input: z.ZodType): z.ZodType<Record<string, unknown>> {
  let schema = inputSchemas.get(input);
  if (schema === undefined) {
    schema = z.looseObject({}).meta({ $schema: DIALECT, ...toJsonSchema(input, { io: 'input' }) });
    inputSchemas.set(input, schema);
  }
  return schema;
}

/**
 * The output schema: listed as core's 2020-12 schema, and still checked by the SDK against the
 * zod schema before an answer goes out (a mismatch becomes a tool error, as before).
 */
const outputSchemas = new WeakMap<z.ZodType, z.ZodType<Record<string, unknown>>>();
function listedOutput(output: z.ZodType): z.ZodType<Record<string, unknown>> {
  let schema = outputSchemas.get(output);
  if (schema === undefined) {
    schema = z
      .looseObject({})
      .check((ctx) => {
        for (const { message, path } of output.safeParse(ctx.value).error?.issues ?? []) {
          ctx.issues.push({ code: 'custom', message, path, input: ctx.value });
        }
      })
      .meta({ $schema: DIALECT, ...toJsonSchema(output) });
    outputSchemas.set(output, schema);
  }
  return schema;
}

export function createMcpServer(engine: Netdiag, options: CreateMcpServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'netdiag', title: 'netdiag network diagnostics', version: VERSION },
    {
      instructions:
        'Public-IP, DNS and network diagnostics. Every tool answers with the same data as the ' +
        'netdiag HTTP API. Probe tools (check_site, grade_security_headers, scan_ports) connect only to public addresses.',
    },
  );
  for (const tool of options.tools ?? NETDIAG_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: listedInput(tool.input),
        ...(isObjectSchema(tool.output) ? { outputSchema: listedOutput(tool.output) } : {}),
        annotations: {
          title: tool.title,
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: tool.openWorld,
        },
      },
      async (input: Record<string, unknown>, extra): Promise<CallToolResult> => {
        try {
          const data = await tool.run(engine, input, {
            signal: extra.signal,
            ...(options.caller ? { caller: options.caller } : {}),
          });
          return {
            content: [{ type: 'text', text: tool.summary(data as never) }],
            structuredContent: data as Record<string, unknown>,
          };
        } catch (error) {
          if (isNetdiagError(error) && error.code !== 'CONFIG_ERROR') {
            return { isError: true, content: [{ type: 'text', text: publicErrorMessage(error) }] };
          }
          options.onInternalError?.(error, tool.name);
          return { isError: true, content: [{ type: 'text', text: 'Internal server error' }] };
        }
      },
    );
  }
  return server;
}
