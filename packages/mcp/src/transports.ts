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
import {
  capFrames,
  INVALID_REQUEST,
  jsonRpcError,
  MAX_FRAME_BYTES,
  oversizedFrameError,
  PARSE_ERROR,
} from './stdio-frames.js';

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
 * belong on stderr. A line longer than `MAX_FRAME_BYTES` is answered with a JSON-RPC error and
 * skipped, as is a line that is not JSON or not a JSON-RPC message; reading goes on.
 */
export async function serveStdio(
  engine: Netdiag,
  options: CreateMcpServerOptions = {},
): Promise<{ close(): Promise<void> }> {
  const server = createMcpServer(engine, options);
  // Our answers to lines the SDK never sees (or cannot read) bypass it: each is one write, so
  // they never interleave with its messages.
  const answer = (text: string) => void process.stdout.write(text);
  const stdin = process.stdin.pipe(
    capFrames(MAX_FRAME_BYTES, (start) => answer(oversizedFrameError(start))),
  );
  const transport = new StdioServerTransport(stdin, process.stdout);
  // The SDK reports an unreadable line to onerror and answers nothing (server.connect keeps
  // this handler and calls its own after it); JSON-RPC 2.0 §5 asks for an answer with id null.
  transport.onerror = (error) => {
    if (error instanceof SyntaxError) {
      answer(jsonRpcError(PARSE_ERROR, 'Parse error: the line is not JSON'));
    } else if (error.name === 'ZodError') {
      answer(
        jsonRpcError(INVALID_REQUEST, 'Invalid Request: the line is not a JSON-RPC 2.0 message'),
      );
    }
  };
  await server.connect(transport);
  return { close: () => server.close() };
}
