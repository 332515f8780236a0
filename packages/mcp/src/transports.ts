/**
 * The two transports of the MCP face: stdio (`netdiag mcp`) and streamable HTTP (mounted by the
 * HTTP server at `/mcp`). HTTP runs stateless — a fresh server and transport per request, JSON
 * answers instead of an event stream — so any instance behind a load balancer can answer any
 * request and nothing is held between requests (MCP 2025-06-18, "Streamable HTTP").
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Netdiag } from '@netdiag/core';
import { type CreateMcpServerOptions, createMcpServer } from './server.js';

/**
 * Answers one MCP request over streamable HTTP. `body` is the parsed JSON-RPC message (or
 * batch). The caller's checks (Origin, rate limits, body size) come first, in the HTTP face.
 */
export async function handleMcpHttpRequest(
  engine: Netdiag,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  options: CreateMcpServerOptions = {},
): Promise<void> {
  const server = createMcpServer(engine, options);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

/**
 * Serves the tools over stdin/stdout until stdin closes. Nothing else may write to stdout: logs
 * belong on stderr.
 */
export async function serveStdio(
  engine: Netdiag,
  options: CreateMcpServerOptions = {},
): Promise<{ close(): Promise<void> }> {
  const server = createMcpServer(engine, options);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  return { close: () => server.close() };
}
