/**
 * `POST /mcp`: the MCP tools (`@netdiag/mcp`) over streamable HTTP, stateless. The HTTP face
 * does what it does for every route first — the `Origin` check the MCP specification asks for,
 * the body limits, the per-client rate limits (for a `tools/call`, the limit core's tool table
 * gives the tool, which is also its HTTP route's), metrics — and hands the JSON-RPC message to
 * the MCP face. Batches are refused.
 * @module
 */
import {
  findTool,
  InvalidInputError,
  MAX_BODY_DEPTH,
  NETDIAG_TOOLS,
  type RateLimitKind,
} from '@netdiag/core';
import { MCP_OLDER_PROTOCOL_VERSIONS, MCP_PROTOCOL_VERSION } from '@netdiag/mcp/protocol';
import type { Request, Response } from 'express';
import { callerConnection } from '../caller.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import { JSON_RPC_ERROR, JSON_RPC_REQUEST, JSON_RPC_RESPONSE } from '../openapi/json-rpc.js';
import type { Limiter } from '../rate-limit.js';
import { jsonDepth } from './body.js';
import type { RouteDef } from './types.js';

type McpModule = typeof import('@netdiag/mcp');
let mcpModule: Promise<McpModule> | undefined;
/** Loaded on the first MCP request: a server that never sees one does not load the SDK. */
const loadMcp = () => {
  mcpModule ??= import('@netdiag/mcp');
  return mcpModule;
};

/**
 * MCP 2025-06-18 §"Security Warning": servers MUST validate `Origin` to stop DNS rebinding — a
 * page on evil.example whose name is rebound to this server's address would otherwise reach it
 * from the victim's browser. Same host is not enough (that is exactly the rebinding case); only
 * configured origins pass. Requests without `Origin` come from agents, not browsers.
 */
function checkOrigin(req: Request, allowed: readonly string[]): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  if (allowed.includes(origin)) return;
  throw new HttpError(
    403,
    `Origin ${origin} may not use /mcp; allow it with NETDIAG_MCP_ALLOWED_ORIGINS`,
  );
}

/** The JSON-RPC message (or a batch, refused later), with the body checks of `POST /api/bulk`. */
function parseBody(req: Request): unknown {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new InvalidInputError(
      'Send MCP messages as JSON with Content-Type: application/json',
      'body',
    );
  }
  const text = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  if (jsonDepth(text) > MAX_BODY_DEPTH) {
    throw new InvalidInputError(
      `The request body nests deeper than ${MAX_BODY_DEPTH} levels`,
      'body',
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidInputError(
      `The request body is not valid JSON (${(error as Error).message})`,
      'body',
    );
  }
}

/**
 * A batch (a JSON array of messages) is refused as a whole rather than counted call by call:
 * MCP 2025-06-18 removed JSON-RPC batching (its changelog, PR #416; its Streamable HTTP POST
 * carries one message), the SDK's client never sends one, and a refusal leaves no second way
 * through the limits. JSON-RPC 2.0 §5.1: an error tied to no request has `id: null`; -32600 is
 * "Invalid Request".
 */
function refuseBatch(res: Response): void {
  res.status(400).json({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32600,
      message:
        'JSON-RPC batches are not accepted: send one message per POST (MCP 2025-06-18 removed batching)',
    },
  });
}

/** The rate limit a message counts against: its tool's for a `tools/call`, else the general one. */
function limitOf(message: unknown): RateLimitKind {
  const m = message as { method?: unknown; params?: { name?: unknown } } | null;
  if (m?.method !== 'tools/call' || typeof m.params?.name !== 'string') return 'general';
  return findTool(m.params.name)?.limit ?? 'general';
}

/** Runs a limiter; false when it answered 429. */
async function allowed(limiter: Limiter, req: Request, res: Response): Promise<boolean> {
  return await limiter(req, res);
}

async function handleMcp(ctx: AppContext, req: Request, res: Response): Promise<void> {
  checkOrigin(req, ctx.config.mcpAllowedOrigins);
  const body = parseBody(req);
  const limits = ctx.services.get('limits') as { all: Limiter; tool: Limiter } | undefined;
  if (limits && !(await allowed(limits.all, req, res))) return;
  if (Array.isArray(body)) return refuseBatch(res);
  if (limits && limitOf(body) === 'tool' && !(await allowed(limits.tool, req, res))) return;
  const { handleMcpHttpRequest } = await loadMcp();
  await handleMcpHttpRequest(ctx.engine, req, res, body, {
    caller: callerConnection(req),
    onInternalError: (error, tool) =>
      ctx.logger.error(
        { err: error, tool, req_id: res.getHeader('X-Request-Id') },
        'MCP tool failed',
      ),
  });
}

const toolLimited = NETDIAG_TOOLS.filter((tool) => tool.limit === 'tool').map((tool) => tool.name);

export const mcpRoutes: RouteDef[] = [
  {
    method: 'post',
    path: '/mcp',
    operationId: 'mcp',
    tag: 'MCP',
    summary: 'Model Context Protocol: every capability as a tool for AI agents',
    description:
      `Streamable HTTP transport of the Model Context Protocol, revision ${MCP_PROTOCOL_VERSION} ` +
      `(an \`initialize\` that asks for ${MCP_OLDER_PROTOCOL_VERSIONS.join(', ')} gets that ` +
      'revision), stateless: each POST carries one JSON-RPC message and a request is answered ' +
      'with JSON, a notification with 202 and no body. `Accept` must name both ' +
      'application/json and text/event-stream, as the transport requires of clients, or the ' +
      'answer is 406. A batch (a JSON array) is refused with 400 and a JSON-RPC error ' +
      '(-32600), as MCP 2025-06-18 removed batching. ' +
      `${NETDIAG_TOOLS.length} tools: ${NETDIAG_TOOLS.map((tool) => tool.name).join(', ')}; ` +
      "each returns the HTTP API's `data` for the same input as structured content. Every " +
      'request counts against the per-client rate limit, and a call of ' +
      `${toolLimited.join(', ')} against the tool limit too, as their HTTP routes do. A ` +
      'request with an `Origin` header not listed in NETDIAG_MCP_ALLOWED_ORIGINS is refused ' +
      'with 403 (DNS rebinding protection). NETDIAG_MCP=off removes the route. GET (a ' +
      'server-sent event stream) is not offered: 405.',
    raw: {
      contentType: 'application/json',
      description: 'The JSON-RPC 2.0 answer to the request',
      schema: JSON_RPC_RESPONSE,
      statuses: {
        202: { description: 'A notification was accepted; no body' },
        400: {
          description:
            'The body is not sent as application/json, is not JSON or nests deeper than ' +
            `${MAX_BODY_DEPTH} levels (the error envelope); or it is a batch, not a JSON-RPC ` +
            'message, or the ' +
            'Mcp-Protocol-Version header names a revision the server does not speak (a ' +
            'JSON-RPC error with `id: null`)',
          schema: { anyOf: [{ $ref: '#/components/schemas/Error' }, JSON_RPC_ERROR] },
        },
        406: {
          description: 'Accept does not name both application/json and text/event-stream',
          schema: JSON_RPC_ERROR,
        },
      },
    },
    body: {
      schema: JSON_RPC_REQUEST,
      example: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    },
    errors: [400, 403, 413, 429],
    handle({ ctx, req, res }) {
      return handleMcp(ctx, req, res);
    },
  },
];
