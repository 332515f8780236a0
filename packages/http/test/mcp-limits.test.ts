/**
 * `POST /mcp` and the rate limits (issue 41 item 5): every tool call counts against the limit of
 * its HTTP route, one call per POST, and a JSON-RPC batch cannot carry calls past the limit.
 * Every input here is refused before anything reaches the network (missing parameters, loopback
 * targets), and the engine's upstreams are loopback fixtures besides.
 */
import { NETDIAG_TOOLS } from '@netdiag/core';
import { type LoopbackUpstreams, startLoopbackUpstreams, tempDir } from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CreateAppOptions, createApp } from '../src/app.js';
import { closeContext } from '../src/context.js';
import { ROUTES } from '../src/routes/index.js';

let upstreams: LoopbackUpstreams;
const apps: ReturnType<typeof createApp>[] = [];

beforeAll(async () => {
  upstreams = await startLoopbackUpstreams();
}, 60_000);

afterAll(async () => {
  for (const app of apps) await closeContext(app.locals.netdiag);
  await upstreams?.close();
});

/** An app whose clients are told apart by `X-Forwarded-For` (each case its own counters). */
function app(options: CreateAppOptions) {
  const made = createApp({
    logLevel: 'silent',
    env: false,
    ...upstreams.config,
    cacheDir: tempDir('netdiag-mcp-limits-'),
    trustProxy: 'loopback',
    // No probe target is allowed: a scan of 127.0.0.1 is refused by the SSRF guard, unsent.
    allowedTargets: [],
    ...options,
  });
  apps.push(made);
  return made;
}

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

let nextId = 1;
const toolCall = (name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** Over MCP the caller is 127.0.0.x: `scan_ports` without a host is refused (SSRF guard). */
const postMcp = (server: ReturnType<typeof createApp>, client: string, body: object) =>
  request(server).post('/mcp').set(MCP_HEADERS).set('X-Forwarded-For', client).send(body);

describe('POST /mcp and the rate limits', () => {
  test('every tool counts against the same limit as its HTTP route', async () => {
    // A tool limit of 1 and a general one far away: the second request of a client is refused
    // exactly when the tool limit applies to it.
    const server = app({ rateLimit: 10_000, toolRateLimit: 1 });
    let client = 0;
    const observed = async (send: (ip: string) => Promise<request.Response>) => {
      const ip = `127.0.0.${++client}`;
      expect((await send(ip)).status, ip).not.toBe(429);
      return (await send(ip)).status === 429 ? 'tool' : 'general';
    };
    const walked: { tool: string; rest: string; mcp: string; declared: string }[] = [];
    for (const tool of NETDIAG_TOOLS) {
      if (!tool.operationId) continue;
      const route = ROUTES.find((r) => r.operationId === tool.operationId);
      expect(route, `${tool.name}: no route for ${tool.operationId}`).toBeDefined();
      if (!route) continue;
      // No parameters (a 400 or a refused caller address), or an invalid path segment.
      const path = route.path.replace(/:\w+$/, '-');
      const rest = await observed((ip) =>
        route.method === 'post'
          ? request(server).post(path).set('X-Forwarded-For', ip)
          : request(server).get(path).set('X-Forwarded-For', ip),
      );
      const mcp = await observed((ip) => postMcp(server, ip, toolCall(tool.name)));
      walked.push({ tool: tool.name, rest, mcp, declared: tool.limit });
    }
    expect(walked).toHaveLength(NETDIAG_TOOLS.filter((t) => t.operationId).length);
    // What was observed over MCP is what was observed on the route, tool by tool ...
    expect(walked.map(({ tool, mcp }) => ({ tool, mcp }))).toEqual(
      walked.map(({ tool, rest }) => ({ tool, mcp: rest })),
    );
    // ... and both are the limit core's tool table gives the tool.
    expect(walked.map(({ tool, declared }) => ({ tool, declared }))).toEqual(
      walked.map(({ tool, rest }) => ({ tool, declared: rest })),
    );
    // The tool endpoints of SPEC §8 and of docs/tls.md and docs/dnssec.md.
    expect(walked.filter((row) => row.rest === 'tool').map((row) => row.tool)).toEqual([
      'grade_security_headers',
      'scan_ports',
      'check_tls',
      'validate_dnssec',
    ]);
  }, 60_000);

  test('validate_dnssec counts against the tool limit, as GET /api/dnssec does', async () => {
    const server = app({ rateLimit: 10_000, toolRateLimit: 3 });
    for (let i = 0; i < 3; i++) {
      expect((await postMcp(server, '127.0.1.1', toolCall('validate_dnssec'))).status).toBe(200);
    }
    const past = await postMcp(server, '127.0.1.1', toolCall('validate_dnssec'));
    expect(past.status).toBe(429);
    expect(past.body.error).toBe('Rate limit exceeded: maximum 3 requests per minute');
    expect(past.headers['retry-after']).toBeDefined();
    for (let i = 0; i < 3; i++) {
      const res = await request(server).get('/api/dnssec').set('X-Forwarded-For', '127.0.1.2');
      expect(res.status).toBe(400);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
    }
    expect(
      (await request(server).get('/api/dnssec').set('X-Forwarded-For', '127.0.1.2')).status,
    ).toBe(429);
  });

  test('a batch of 25 scan_ports calls against a tool limit of 20 runs none past the limit', async () => {
    const server = app({ rateLimit: 10_000, toolRateLimit: 20 });
    const batch = Array.from({ length: 25 }, () => toolCall('scan_ports', { host: '127.0.0.1' }));
    const res = await postMcp(server, '127.0.2.1', batch);
    // Either the calls past 20 are refused one by one, or the batch as a whole.
    const answers: { id?: unknown; result?: unknown; error?: { code: number } }[] = Array.isArray(
      res.body,
    )
      ? res.body
      : [res.body];
    const ran = answers.filter((a) => a.result !== undefined).length;
    expect(ran).toBeLessThanOrEqual(20);
    // This server refuses batches: one JSON-RPC error, Invalid Request, id null.
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(res.body.error.message).toMatch(/batch/i);
    // The refusal spent none of the client's tool budget: 20 single calls still go through.
    for (let i = 0; i < 20; i++) {
      const one = await postMcp(server, '127.0.2.1', toolCall('scan_ports', { host: '127.0.0.1' }));
      expect(one.status).toBe(200);
      expect(one.body.result.isError).toBe(true);
    }
    const past = await postMcp(server, '127.0.2.1', toolCall('scan_ports', { host: '127.0.0.1' }));
    expect(past.status).toBe(429);
  });

  test('a batch of anything is refused, a single message goes on', async () => {
    const server = app({ rateLimit: 10_000, toolRateLimit: 20 });
    for (const batch of [[], [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]]) {
      const res = await postMcp(server, '127.0.3.1', batch);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
    const list = await postMcp(server, '127.0.3.1', {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
    });
    expect(list.status).toBe(200);
    expect(list.body.result.tools).toHaveLength(NETDIAG_TOOLS.length);
  });
});
