/**
 * The MCP face through the SDK's own client, over both transports: streamable HTTP (`/mcp` on
 * the HTTP app) and stdio (the built `netdiag mcp`). Every tool is called against loopback
 * fixtures; every answer is checked against core's schema, and where the answer does not depend
 * on the moment it must equal the HTTP API's `data` for the same input.
 */

import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { findTool, NETDIAG_TOOLS } from '@netdiag/core';
import { type CreateAppOptions, createApp, type NetdiagApp } from '@netdiag/http';
import {
  type LoopbackUpstreams,
  prerequisite,
  startLoopbackUpstreams,
  tempDir,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

let upstreams: LoopbackUpstreams;
const cacheDir = tempDir('netdiag-mcp-');

beforeAll(async () => {
  upstreams = await startLoopbackUpstreams();
}, 60_000);

afterAll(() => upstreams?.close());

/** The engine configuration both transports get: every upstream on loopback. */
const engineOptions = (): CreateAppOptions => ({ ...upstreams.config, cacheDir });

/** One input per tool, and the HTTP request answering the same question. */
function calls(): {
  tool: string;
  args: Record<string, unknown>;
  http?: string;
  stable: boolean;
}[] {
  return [
    { tool: 'lookup_ip', args: { ip: '8.8.8.8' }, http: '/api/lookup?ip=8.8.8.8', stable: true },
    { tool: 'bulk_lookup', args: { ips: ['8.8.8.8', '1.1.1.1'] }, stable: true },
    { tool: 'search_asn', args: { q: 'AS15169' }, http: '/api/asn?q=AS15169', stable: true },
    {
      tool: 'dns_lookup',
      args: { domain: 'example.test', type: 'MX' },
      http: '/api/v1/dns/example.test?type=MX',
      stable: true,
    },
    { tool: 'reverse_dns', args: { ip: '8.8.8.8' }, http: '/api/rdns?ip=8.8.8.8', stable: true },
    { tool: 'check_blacklist', args: { ip: '8.8.8.8' }, stable: false },
    {
      tool: 'whois',
      args: { domain: 'example.com' },
      http: '/api/whois?domain=example.com',
      stable: true,
    },
    { tool: 'check_site', args: { url: `${upstreams.siteUrl}/` }, stable: false },
    { tool: 'grade_security_headers', args: { url: `${upstreams.siteUrl}/` }, stable: false },
    {
      tool: 'scan_ports',
      args: { host: '127.0.0.2', ports: String(upstreams.sitePort) },
      stable: false,
    },
    {
      tool: 'check_tls',
      args: { host: '127.0.0.2', port: String(upstreams.secureSitePort) },
      stable: false,
    },
    // The loopback DNS fixture signs nothing: no root DNSKEY, so no chain (bogus or indeterminate).
    { tool: 'validate_dnssec', args: { domain: 'example.test' }, stable: false },
    { tool: 'check_email_auth', args: { domain: 'example.test', ip: '127.0.0.9' }, stable: false },
    { tool: 'evaluate_spf', args: { domain: 'example.test', ip: '127.0.0.9' }, stable: true },
    { tool: 'check_breach', args: { email: 'someone@example.com' }, stable: false },
  ];
}

async function everyToolAnswers(client: Client, http?: string): Promise<void> {
  const listed = await client.listTools();
  expect(listed.tools.map((t) => t.name).sort()).toEqual(NETDIAG_TOOLS.map((t) => t.name).sort());
  const planned = calls();
  expect(planned.map((c) => c.tool).sort()).toEqual(NETDIAG_TOOLS.map((t) => t.name).sort());
  for (const { tool, args, http: path, stable } of planned) {
    const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
    expect(result.isError, `${tool}: ${JSON.stringify(result.content)}`).toBeFalsy();
    const definition = findTool(tool);
    expect(definition?.output.safeParse(result.structuredContent).success, tool).toBe(true);
    const text = result.content[0];
    expect(text?.type === 'text' && text.text.length > 0, tool).toBe(true);
    if (http && path && stable) {
      const answer = (await (await fetch(`${http}${path}`)).json()) as { data: unknown };
      expect(result.structuredContent, tool).toEqual(answer.data);
    }
  }
  // evaluate_spf is check_email_auth's spf.evaluation for the same input.
  const spf = (await client.callTool({
    name: 'evaluate_spf',
    arguments: { domain: 'example.test', ip: '127.0.0.9' },
  })) as CallToolResult;
  const whole = (await client.callTool({
    name: 'check_email_auth',
    arguments: { domain: 'example.test', ip: '127.0.0.9' },
  })) as CallToolResult;
  expect(spf.structuredContent).toEqual(
    (whole.structuredContent as { spf: { evaluation: unknown } }).spf.evaluation,
  );
  expect((spf.structuredContent as { result: string }).result).toBe('pass');
}

describe('streamable HTTP at /mcp', () => {
  let app: NetdiagApp;
  let base: string;
  let close: () => Promise<void>;

  async function listen(options: CreateAppOptions) {
    const started = createApp({ logLevel: 'silent', env: false, ...engineOptions(), ...options });
    const server = started.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    return {
      app: started,
      base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        await started.locals.netdiag.engine.close();
      },
    };
  }

  async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'netdiag-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }),
    );
    return client;
  }

  beforeAll(async () => {
    ({ app, base, close } = await listen({ rateLimit: 100_000, toolRateLimit: 100_000 }));
  });
  afterAll(() => close?.());

  test('initialize → list → every tool; answers equal the HTTP data', async () => {
    const client = await connect(base);
    expect(client.getServerVersion()?.name).toBe('netdiag');
    await everyToolAnswers(client, base);
    await client.close();
  }, 60_000);

  test('annotations: read-only everywhere, open-world except the embedded-data lookups', async () => {
    const client = await connect(base);
    const { tools } = await client.listTools();
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.annotations?.openWorldHint).toBe(
        !['lookup_ip', 'bulk_lookup', 'search_asn'].includes(tool.name),
      );
    }
    await client.close();
  });

  test('each input schema is the OpenAPI parameters (or body) of its route', async () => {
    const client = await connect(base);
    const { tools } = await client.listTools();
    const openapi = (await (await fetch(`${base}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, OpenApiOperation>>;
    };
    const operations = new Map<string, OpenApiOperation>();
    for (const methods of Object.values(openapi.paths)) {
      for (const operation of Object.values(methods))
        operations.set(operation.operationId, operation);
    }
    let compared = 0;
    for (const tool of tools) {
      const operationId = findTool(tool.name)?.operationId;
      if (!operationId) continue;
      const operation = operations.get(operationId);
      expect(operation, operationId).toBeDefined();
      const schema = tool.inputSchema as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      const body = operation?.requestBody?.content?.['application/json']?.schema;
      const expected = body
        ? { names: Object.keys(body.properties ?? {}), required: body.required ?? [] }
        : {
            names: (operation?.parameters ?? []).map((p) => p.name),
            required: (operation?.parameters ?? []).filter((p) => p.required).map((p) => p.name),
          };
      expect(Object.keys(schema.properties ?? {}).sort(), tool.name).toEqual(expected.names.sort());
      expect([...(schema.required ?? [])].sort(), tool.name).toEqual([...expected.required].sort());
      compared++;
    }
    expect(compared).toBe(NETDIAG_TOOLS.filter((t) => t.operationId).length);
    await client.close();
  });

  test('a refused probe target is a tool error with the HTTP message', async () => {
    const client = await connect(base);
    const result = (await client.callTool({
      name: 'check_site',
      arguments: { url: 'http://169.254.169.254/latest/meta-data/' },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    const http = (await (
      await fetch(
        `${base}/api/down?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`,
      )
    ).json()) as { error: string };
    expect(result.content[0]).toEqual({ type: 'text', text: http.error });
    expect(http.error).toMatch(/^Target not allowed: 169\.254\.169\.254/);
    await client.close();
  });

  test('a probe tool call past the tool limit is refused with 429; other tools go on', async () => {
    const limited = await listen({ rateLimit: 1000, toolRateLimit: 2 });
    try {
      const client = await connect(limited.base);
      const scan = () =>
        client.callTool({
          name: 'scan_ports',
          arguments: { host: '127.0.0.2', ports: String(upstreams.sitePort) },
        });
      await scan();
      await scan();
      await expect(scan()).rejects.toThrow(/429|Rate limit exceeded/);
      const lookup = (await client.callTool({
        name: 'lookup_ip',
        arguments: { ip: '8.8.8.8' },
      })) as CallToolResult;
      expect(lookup.isError).toBeFalsy();
      await client.close();
    } finally {
      await limited.close();
    }
  });

  test('a browser Origin that is not allowed gets 403 (DNS rebinding); an allowed one passes', async () => {
    const refused = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'http://rebound.example',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /NETDIAG_MCP_ALLOWED_ORIGINS/,
    );
    const allowedApp = await listen({ mcpAllowedOrigins: ['https://app.example'] });
    try {
      const client = await connect(allowedApp.base, { origin: 'https://app.example' });
      expect((await client.listTools()).tools.length).toBe(NETDIAG_TOOLS.length);
      await client.close();
    } finally {
      await allowedApp.close();
    }
  });

  test('NETDIAG_MCP=off removes the route', async () => {
    const off = await listen({ mcp: false });
    try {
      const res = await fetch(`${off.base}/mcp`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(404);
    } finally {
      await off.close();
    }
  });

  test('requests are counted in the metrics under the /mcp route', async () => {
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/route="\/mcp"/);
    expect(app.locals.netdiag).toBeDefined();
  });
});

interface OpenApiOperation {
  operationId: string;
  parameters?: { name: string; required?: boolean }[];
  requestBody?: {
    content?: Record<
      string,
      { schema?: { properties?: Record<string, unknown>; required?: string[] } }
    >;
  };
}

const cliBin = fileURLToPath(new URL('../../cli/bin.js', import.meta.url));
const builtCli = prerequisite(
  'the built CLI (packages/cli/dist) and MCP face (packages/mcp/dist)',
  existsSync(fileURLToPath(new URL('../../cli/dist/index.js', import.meta.url))) &&
    existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url))),
  'run `pnpm build` first',
);

describe.skipIf(!builtCli)('stdio: netdiag mcp', () => {
  test('initialize → list → every tool, nothing but protocol on stdout', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliBin, 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        // CI's --throw-deprecation reaches the child (.ci/run).
        NODE_OPTIONS: process.env.NODE_OPTIONS ?? '',
        TMPDIR: process.env.TMPDIR ?? '',
        ...upstreams.env,
        NETDIAG_CACHE_DIR: cacheDir,
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'netdiag-test', version: '1.0.0' });
    await client.connect(transport);
    await everyToolAnswers(client);
    // Over stdio there is no caller address to scan by default.
    const noHost = (await client.callTool({ name: 'scan_ports', arguments: {} })) as CallToolResult;
    expect(noHost.isError).toBe(true);
    expect(noHost.content[0]).toMatchObject({ text: expect.stringMatching(/Missing "host"/) });
    await client.close();
  }, 90_000);
});
