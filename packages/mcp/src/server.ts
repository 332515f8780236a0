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
 * What the SDK is given as a tool's input schema. The SDK checks a call's arguments against it
 * before the handler and refuses in zod's words ("Invalid input at ip"), while the tool reads and
 * checks them itself as the HTTP route does (core's `parseParams`, then the capability), in the
 * API's words. So the SDK gets a schema that admits any object, listed to agents as the tool's
 * own: zod writes `.meta()` into the JSON Schema, over the empty object's keys. Made once per
 * tool: the HTTP transport builds a server per request.
 */
const inputSchemas = new WeakMap<z.ZodType, z.ZodType<Record<string, unknown>>>();
function listedInput(input: z.ZodType): z.ZodType<Record<string, unknown>> {
  let schema = inputSchemas.get(input);
  if (schema === undefined) {
    schema = z.looseObject({}).meta(toJsonSchema(input, { io: 'input' }));
    inputSchemas.set(input, schema);
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
        ...(isObjectSchema(tool.output) ? { outputSchema: tool.output } : {}),
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
