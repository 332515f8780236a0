/**
 * The faces are made from core's registry, and read their input alike. Generated from the
 * registry: for every parameter of every capability that has both an HTTP route and a tool, the
 * same values — the example, case variants, surrounding spaces, an empty value, a repeat, an
 * absent one, one too long, out-of-range ports — go to the route and to the tool, and each must
 * either reach the engine with the same input or be refused with the same message. The engine
 * here records the call and fails it (an upstream error), so nothing leaves the process; what a
 * value *means* (an IDN, an IPv4-mapped address) is checked inside the engine, once for every
 * face, and is covered by input-errors.test.ts with the real one.
 *
 * And the registry is complete: every descriptor has its route and its tool, and neither face
 * offers anything else but the routes the HTTP face keeps as its own (listed here).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  CAPABILITIES,
  type Capability,
  createNetdiag,
  type Netdiag,
  UpstreamError,
} from '@netdiag/core';
import { createApp, ROUTES } from '@netdiag/http';
import { tempDir } from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMcpServer } from '../src/index.js';

/** The engine methods the descriptors call: recorded, then failed. */
const METHODS = [
  'lookupIp',
  'lookupIpV1',
  'bulkLookup',
  'searchAsn',
  'dns',
  'dnsV1',
  'reverseDns',
  'blacklist',
  'whois',
  'whoisV1',
  'checkSite',
  'securityHeaders',
  'scanPorts',
  'checkTls',
  'validateDnssec',
  'emailAuth',
  'evaluateSpf',
  'breach',
];

let real: Netdiag;
let engine: Netdiag;
let calls: string[] = [];
let app: ReturnType<typeof createApp>;
let client: Client;

beforeAll(async () => {
  // No upstream is ever asked: every capability method below is replaced.
  real = createNetdiag({ dnsServers: ['127.0.0.1:9'], cacheDir: tempDir('netdiag-faces-') });
  engine = new Proxy(real, {
    get(target, name, receiver) {
      if (typeof name === 'string' && METHODS.includes(name)) {
        return async (input: unknown) => {
          calls.push(`${name} ${JSON.stringify(input)}`);
          throw new UpstreamError('recorder', 'recorded');
        };
      }
      return Reflect.get(target, name, receiver);
    },
  });
  app = createApp({
    logLevel: 'silent',
    env: false,
    engine,
    rateLimit: 1_000_000,
    toolRateLimit: 1_000_000,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  // As over MCP's HTTP transport: the agent's own address is known (scan_ports defaults to it).
  await createMcpServer(engine, { caller: { ip: '127.0.0.1' } }).connect(serverSide);
  client = new Client({ name: 'netdiag-faces-test', version: '1.0.0' });
  await client.connect(clientSide);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await real?.close();
});

type Value = string | string[] | undefined;
type Outcome = { engine: string[] } | { refused: string };

/** The route's request for `args`: path segments filled in, the rest as query or JSON body. */
async function overHttp(capability: Capability, args: Record<string, Value>): Promise<Outcome> {
  const face = capability.http!;
  calls = [];
  let path = face.path;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    if (path.includes(`:${name}`))
      path = path.replace(`:${name}`, encodeURIComponent(value as string));
    else if (value !== undefined) for (const one of [value].flat()) query.append(name, one);
  }
  const response =
    face.method === 'post'
      ? await request(app).post(path).set('Content-Type', 'application/json').send(args)
      : await request(app).get(query.size ? `${path}?${query}` : path);
  if (response.status === 400) return { refused: response.body.error };
  expect(response.status, `${path} ${response.text}`).toBe(502);
  return { engine: calls };
}

async function overMcp(capability: Capability, args: Record<string, Value>): Promise<Outcome> {
  calls = [];
  const result = (await client.callTool({
    name: capability.tool!.name,
    arguments: Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)),
  })) as CallToolResult;
  expect(result.isError, JSON.stringify(result)).toBe(true);
  const text = (result.content[0] as { text: string }).text;
  return calls.length ? { engine: calls } : { refused: text };
}

/** The values each parameter is tried with, from its example. */
function variants(name: string, example: string, inPath: boolean): Value[] {
  const values: Value[] = [
    example,
    example.toUpperCase(),
    example.toLowerCase(),
    ` ${example} `,
    'x'.repeat(2049),
  ];
  if (!inPath) values.push('', undefined, [example, example]);
  if (name === 'port' || name === 'allow_port') values.push('0', '65536', '-1', '1.5', '0443');
  return values;
}

const both = CAPABILITIES.filter((c) => c.http && c.tool && c.http.method === 'get');

describe('the same input, the same answer, over HTTP and MCP', () => {
  for (const capability of both) {
    const examples = capability.http!.paramExamples ?? {};
    for (const [name, example] of Object.entries(examples)) {
      const inPath = capability.http!.path.includes(`:${name}`);
      test(`${capability.id}: ${name}`, async () => {
        let refused = 0;
        for (const value of variants(name, String(example), inPath)) {
          const args = { ...(examples as Record<string, Value>), [name]: value };
          // check_tls: allow_port must repeat port, so the example sets both or neither.
          if (name === 'port' && 'allow_port' in args) delete args['allow_port'];
          const http = await overHttp(capability, args);
          const mcp = await overMcp(capability, args);
          expect(mcp, `${capability.id} ${name}=${JSON.stringify(value)}`).toEqual(http);
          if ('refused' in http) refused++;
        }
        // Each parameter is refused for something (too long at least): the test can fail.
        expect(refused).toBeGreaterThan(0);
      });
    }
  }

  test('bulkLookup: the body list', async () => {
    const bulk = CAPABILITIES.find((c) => c.id === 'bulkLookup')!;
    for (const ips of [['8.8.8.8'], [], '8.8.8.8', Array(51).fill('1.1.1.1'), undefined]) {
      const args = (ips === undefined ? {} : { ips }) as Record<string, Value>;
      expect(await overMcp(bulk, args)).toEqual(await overHttp(bulk, args));
    }
  });
});

/** Routes the HTTP face keeps as its own (the request itself, the page, MCP, operations). */
const HTTP_OWN = [
  'echoHeaders',
  'mcp',
  'health',
  'metrics',
  'openapi',
  'page',
  'plainIp',
  'plainCountry',
  'plainCity',
  'plainAsn',
  'pageAsset',
  'docs',
  'docsAsset',
];

describe('the registry is complete, and the faces offer nothing else', () => {
  test('every descriptor with an HTTP face has its route, and every other route is the face’s own', () => {
    for (const capability of CAPABILITIES.filter((c) => c.http)) {
      const route = ROUTES.find((r) => r.operationId === capability.id);
      expect(route, capability.id).toMatchObject({
        method: capability.http!.method,
        path: capability.http!.path,
      });
    }
    const registered = new Set(CAPABILITIES.map((c) => c.id));
    const others = ROUTES.map((r) => r.operationId).filter((id) => !registered.has(id));
    expect(others.sort()).toEqual([...HTTP_OWN].sort());
  });

  test('the MCP tools are exactly the descriptors with a tool face, in order', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      CAPABILITIES.filter((c) => c.tool).map((c) => c.tool!.name),
    );
  });
});
