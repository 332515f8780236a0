/**
 * `POST /mcp`: the MCP tools (`@netdiag/mcp`) over streamable HTTP, stateless. The HTTP face
 * does what it does for every route first — the `Origin` check the MCP specification asks for,
 * the body limits, the per-client rate limits (the stricter tool limit for a call of a probe
 * tool), metrics — and hands the JSON-RPC message to the MCP face.
 * @module
 */
import { findTool, InvalidInputError } from '@netdiag/core';
import type { Request, Response } from 'express';
import { callerConnection } from '../caller.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../errors.js';
import type { Limiter } from '../rate-limit.js';
import { jsonDepth, MAX_BODY_DEPTH } from './ip.js';
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

/** The JSON-RPC message or batch, with the body checks of `POST /api/bulk`. */
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

/** Whether the message (or batch) calls a probe tool: those count against the tool limit. */
function callsProbeTool(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const m = message as { method?: unknown; params?: { name?: unknown } } | null;
    return (
      m?.method === 'tools/call' &&
      typeof m.params?.name === 'string' &&
      findTool(m.params.name)?.probe === true
    );
  });
}

/** Runs a limiter; false when it answered 429. */
async function allowed(limiter: Limiter, req: Request, res: Response): Promise<boolean> {
  return await limiter(req, res);
}

async function handleMcp(ctx: AppContext, req: Request, res: Response): Promise<void> {
  checkOrigin(req, ctx.config.mcpAllowedOrigins);
  const body = parseBody(req);
  const limits = ctx.services.get('limits') as { all: Limiter; tool: Limiter } | undefined;
  if (limits) {
    if (!(await allowed(limits.all, req, res))) return;
    if (callsProbeTool(body) && !(await allowed(limits.tool, req, res))) return;
  }
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

export const mcpRoutes: RouteDef[] = [
  {
    method: 'post',
    path: '/mcp',
    operationId: 'mcp',
    tag: 'MCP',
    summary: 'Model Context Protocol: every capability as a tool for AI agents',
    description:
      'Streamable HTTP transport of the Model Context Protocol (2025-06-18), stateless: each ' +
      'POST carries one JSON-RPC message or batch and is answered with JSON. Tools: lookup_ip, ' +
      'bulk_lookup, search_asn, dns_lookup, reverse_dns, check_blacklist, whois, check_site, ' +
      'grade_security_headers, scan_ports, check_email_auth, evaluate_spf, check_breach; each ' +
      "returns the HTTP API's `data` for the same input as structured content. Requests count " +
      'against the per-client rate limit, and a call of a probe tool (check_site, ' +
      'grade_security_headers, scan_ports) against the tool limit too. A request with an ' +
      '`Origin` header not listed in NETDIAG_MCP_ALLOWED_ORIGINS is refused with 403 (DNS ' +
      'rebinding protection). NETDIAG_MCP=off removes the route. GET (a server-sent event ' +
      'stream) is not offered: 405.',
    raw: {
      contentType: 'application/json',
      description: 'A JSON-RPC 2.0 response (or batch of responses), as MCP specifies',
    },
    body: {
      schema: {
        type: ['object', 'array'],
        description: 'A JSON-RPC 2.0 request, notification or batch (MCP messages)',
      },
      example: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    },
    errors: [400, 403, 413],
    handle({ ctx, req, res }) {
      return handleMcp(ctx, req, res);
    },
  },
];
