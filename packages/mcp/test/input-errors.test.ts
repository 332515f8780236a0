/**
 * A bad argument to a tool is a tool error in the HTTP API's words: the same input to the tool
 * and to its route gets the same message (which parameter, and the form it takes), not the SDK's
 * schema wording ("Input validation error: … Invalid input at ip").
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createNetdiag, type Netdiag } from '@netdiag/core';
import { createApp } from '@netdiag/http';
import { type LoopbackUpstreams, startLoopbackUpstreams, tempDir } from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMcpServer } from '../src/index.js';

let upstreams: LoopbackUpstreams;
let engine: Netdiag;
let app: ReturnType<typeof createApp>;
let client: Client;

beforeAll(async () => {
  upstreams = await startLoopbackUpstreams();
  engine = createNetdiag({ ...upstreams.config, cacheDir: tempDir('netdiag-mcp-input-') });
  app = createApp({ logLevel: 'silent', env: false, engine });
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

/** A tool's arguments and the HTTP request asking the same. */
const cases: [tool: string, args: Record<string, unknown>, http: string][] = [
  ['lookup_ip', { ip: 'not-an-ip' }, '/api/lookup?ip=not-an-ip'],
  ['lookup_ip', {}, '/api/lookup'],
  ['reverse_dns', { ip: '1.2.3' }, '/api/rdns?ip=1.2.3'],
  [
    'check_email_auth',
    { domain: 'example.test', ip: 'bad' },
    '/api/email-auth?domain=example.test&ip=bad',
  ],
  ['dns_lookup', { domain: 'exa mple.test' }, '/api/v1/dns/exa%20mple.test'],
  ['dns_lookup', { domain: 'example.test', type: 'BOGUS' }, '/api/v1/dns/example.test?type=BOGUS'],
  ['dns_lookup', { domain: 'example.test', dnssec: 'yes' }, '/api/v1/dns/example.test?dnssec=yes'],
  ['whois', { domain: '192.0.2.1' }, '/api/whois?domain=192.0.2.1'],
  ['whois', { domain: '' }, '/api/whois?domain='],
  ['check_tls', { host: 'example.test', port: '99999' }, '/api/tls?host=example.test&port=99999'],
  ['check_tls', { host: 'example.test', port: '44x' }, '/api/tls?host=example.test&port=44x'],
  ['scan_ports', { host: '127.0.0.2', ports: '0-5' }, '/api/ports?host=127.0.0.2&ports=0-5'],
  ['check_site', { url: 'ftp://example.test/' }, '/api/down?url=ftp://example.test/'],
  ['check_breach', { email: 'nope' }, '/api/breach?email=nope'],
  ['search_asn', { q: 'x'.repeat(2049) }, `/api/asn?q=${'x'.repeat(2049)}`],
];

describe('tool input errors', () => {
  test.each(cases)('%s %j: the message of the HTTP API', async (tool, args, path) => {
    const http = await request(app).get(path);
    expect(http.status).toBe(400);
    const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: http.body.error }]);
  });

  test('the invalid-IP sentence, and a missing argument named with its form', async () => {
    const ip = (await client.callTool({
      name: 'check_blacklist',
      arguments: { ip: '999.1.1.1' },
    })) as CallToolResult;
    expect(ip.content[0]).toEqual({
      type: 'text',
      text: 'Invalid IP address format: a valid IPv4 or IPv6 address is required.',
    });
    const missing = (await client.callTool({
      name: 'dns_lookup',
      arguments: {},
    })) as CallToolResult;
    expect(missing.content[0]).toMatchObject({
      text: expect.stringMatching(/^Missing required parameter "domain": a domain name/),
    });
  });

  test('an argument that is not text is named with its form; a bulk list that is not a list as over HTTP', async () => {
    const number = (await client.callTool({
      name: 'lookup_ip',
      arguments: { ip: 8 },
    })) as CallToolResult;
    expect(number.isError).toBe(true);
    expect(number.content[0]).toMatchObject({
      text: expect.stringMatching(/^"ip" must be text: an IPv4 or IPv6 address/),
    });
    const bulk = (await client.callTool({
      name: 'bulk_lookup',
      arguments: { ips: '8.8.8.8' },
    })) as CallToolResult;
    const http = await request(app).post('/api/bulk').send({ ips: '8.8.8.8' });
    expect(http.status).toBe(400);
    expect(bulk.content).toEqual([{ type: 'text', text: http.body.error }]);
  });
});
