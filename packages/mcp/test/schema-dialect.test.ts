/**
 * What `tools/list` shows agents: every input and output schema in JSON Schema 2020-12 (MCP
 * 2025-11-25's default dialect, SEP-1613), declared in `$schema`, valid against the 2020-12
 * meta-schema, and the schema the OpenAPI document shows (core's `toJsonSchema`). And the MCP
 * revisions `@netdiag/mcp/protocol` names are the SDK's.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { createNetdiag, findTool, type Netdiag, toJsonSchema } from '@netdiag/core';
import { MCP_OLDER_PROTOCOL_VERSIONS, MCP_PROTOCOL_VERSION } from '@netdiag/mcp/protocol';
import { type LoopbackUpstreams, startLoopbackUpstreams, tempDir } from '@netdiag/test-utils';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMcpServer } from '../src/index.js';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

let upstreams: LoopbackUpstreams;
let engine: Netdiag;
let client: Client;

beforeAll(async () => {
  upstreams = await startLoopbackUpstreams();
  engine = createNetdiag({ ...upstreams.config, cacheDir: tempDir('netdiag-mcp-dialect-') });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(engine).connect(serverSide);
  client = new Client({ name: 'netdiag-test', version: '1.0.0' });
  await client.connect(clientSide);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await engine?.close();
  await upstreams?.close();
});

describe('tool schemas are JSON Schema 2020-12', () => {
  test('every listed schema declares 2020-12, passes its meta-schema and is core’s', async () => {
    // validateSchema: a draft-07 `items: [...]` or `definitions` would fail the 2020-12 one.
    const ajv = new Ajv2020({ strict: false, validateSchema: true });
    const { tools } = await client.listTools();
    let outputs = 0;
    for (const tool of tools) {
      const definition = findTool(tool.name)!;
      expect(tool.inputSchema['$schema'], tool.name).toBe(DIALECT);
      expect(ajv.validateSchema(tool.inputSchema), tool.name).toBe(true);
      expect(tool.inputSchema, tool.name).toMatchObject(
        toJsonSchema(definition.input, { io: 'input' }),
      );
      if (tool.outputSchema === undefined) continue;
      outputs++;
      expect(tool.outputSchema['$schema'], tool.name).toBe(DIALECT);
      expect(ajv.validateSchema(tool.outputSchema), tool.name).toBe(true);
      expect(tool.outputSchema, tool.name).toMatchObject(toJsonSchema(definition.output));
    }
    // search_asn answers a union, which MCP's object-only output schemas cannot hold.
    expect(outputs).toBe(tools.length - 1);
  });

  test('a real answer validates against the listed output schema under 2020-12', async () => {
    const { tools } = await client.listTools();
    const listed = tools.find((tool) => tool.name === 'lookup_ip')!.outputSchema!;
    const result = (await client.callTool({
      name: 'lookup_ip',
      arguments: { ip: '8.8.8.8' },
    })) as CallToolResult;
    const validate = new Ajv2020({ strict: false }).compile(listed);
    expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...result.structuredContent, ip: 8 })).toBe(false);
  });

  test('the SDK still checks an answer against the zod schema: a wrong one is a tool error', async () => {
    const lookup = findTool('lookup_ip')!;
    const broken = { ...lookup, run: async () => ({ ip: 8 }), summary: () => 'wrong' };
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(engine, { tools: [broken] }).connect(serverSide);
    const other = new Client({ name: 'netdiag-test', version: '1.0.0' });
    await other.connect(clientSide);
    const result = (await other.callTool({ name: 'lookup_ip', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/Output validation error.*ip/);
    await other.close();
  });
});

describe('@netdiag/mcp/protocol', () => {
  test('names the SDK’s latest revision and the older ones it accepts', () => {
    expect(MCP_PROTOCOL_VERSION).toBe(LATEST_PROTOCOL_VERSION);
    expect([MCP_PROTOCOL_VERSION, ...MCP_OLDER_PROTOCOL_VERSIONS]).toEqual(
      SUPPORTED_PROTOCOL_VERSIONS,
    );
  });
});
