/**
 * Real answers of every operation of the OpenAPI document, recorded from an app whose upstreams
 * are loopback fixtures (`startLoopbackUpstreams`): successes of every operation, the three
 * shapes of `/api/asn`, the MCP messages a client sends, and a few errors.
 */
import type { LoopbackUpstreams } from '@netdiag/test-utils';
import type { OpenApiDocument } from './openapi-tools.js';

export interface Call {
  operationId: string;
  /** Instead of the operation's method (a 405 of its path). */
  method?: string;
  path?: Record<string, string>;
  query?: Record<string, string>;
  /** JSON, or the exact text of a body that is not. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The status the fixture gets. @default 200 */
  status?: number;
}

export interface Answer {
  call: Call;
  /** The path as the document writes it, e.g. `/api/v1/dns/{domain}`. */
  template: string;
  method: string;
  status: number;
  /** The `Content-Type` sent, undefined with no body. */
  contentType: string | undefined;
  /** Parsed JSON, the text, or undefined when the body is empty. */
  body: unknown;
}

/** What an MCP client sends: Streamable HTTP asks it to accept both (MCP "Transports"). */
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
const rpc = (id: number, method: string, params?: unknown) => ({
  operationId: 'mcp',
  headers: MCP_HEADERS,
  body: { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) },
});

export function calls(upstreams: LoopbackUpstreams): Call[] {
  const site = `${upstreams.siteUrl}/`;
  return [
    { operationId: 'callerIp' },
    { operationId: 'callerIpV1' },
    { operationId: 'callerScore' },
    { operationId: 'checkBreach', query: { email: 'someone@example.com' } },
    { operationId: 'lookupIp', query: { ip: '8.8.8.8' } },
    { operationId: 'lookupIpV1', path: { address: '8.8.8.8' } },
    { operationId: 'bulkLookup', body: { ips: ['8.8.8.8', '1.1.1.1'] } },
    { operationId: 'searchAsn', query: { q: 'AS15169' } },
    { operationId: 'searchAsn', query: { q: '8.8.8.8' } },
    { operationId: 'searchAsn', query: { q: 'google' } },
    { operationId: 'dnsLookup', query: { domain: 'example.test', type: 'MX' } },
    { operationId: 'dnsLookupV1', path: { domain: 'example.test' }, query: { type: 'MX' } },
    { operationId: 'reverseDns', query: { ip: '8.8.8.8' } },
    { operationId: 'blacklist', query: { ip: '8.8.8.8' } },
    // The loopback DNS signs nothing: an answer without a chain of trust.
    { operationId: 'validateDnssec', query: { domain: 'example.test' } },
    { operationId: 'whois', query: { domain: 'example.com' } },
    { operationId: 'whoisV1', path: { domain: 'example.com' } },
    { operationId: 'checkSite', query: { url: site } },
    { operationId: 'gradeSecurityHeaders', query: { url: site } },
    { operationId: 'scanPorts', query: { host: '127.0.0.2', ports: String(upstreams.sitePort) } },
    {
      operationId: 'checkTls',
      query: { host: '127.0.0.2', port: String(upstreams.secureSitePort) },
    },
    { operationId: 'checkEmailAuth', query: { domain: 'example.test', ip: '127.0.0.9' } },
    { operationId: 'echoHeaders' },
    // An unknown revision: the server answers with the one it prefers.
    rpc(1, 'initialize', {
      protocolVersion: '1900-01-01',
      capabilities: {},
      clientInfo: { name: 'netdiag-test', version: '1.0.0' },
    }),
    {
      operationId: 'mcp',
      headers: MCP_HEADERS,
      body: { jsonrpc: '2.0', method: 'notifications/initialized' },
      status: 202,
    },
    rpc(2, 'tools/list'),
    rpc(3, 'tools/call', { name: 'lookup_ip', arguments: { ip: '8.8.8.8' } }),
    rpc(4, 'tools/call', { name: 'lookup_ip', arguments: { ip: 'nope' } }),
    rpc(5, 'ping'),
    rpc(6, 'no/such/method'),
    { ...rpc(7, 'tools/list'), headers: { accept: 'application/json' }, status: 406 },
    { ...rpc(8, 'tools/list'), body: [rpc(8, 'tools/list').body], status: 400 },
    {
      operationId: 'mcp',
      headers: { ...MCP_HEADERS, 'content-type': 'text/plain' },
      body: 'tools/list',
      status: 400,
    },
    { operationId: 'health' },
    { operationId: 'metrics' },
    { operationId: 'openapi' },
    { operationId: 'page' },
    { operationId: 'page', headers: { accept: 'text/html' } },
    { operationId: 'plainIp' },
    { operationId: 'plainCountry' },
    { operationId: 'plainCity' },
    { operationId: 'plainAsn' },
    { operationId: 'pageAsset', path: { file: 'app.js' } },
    { operationId: 'pageAsset', path: { file: 'app.css' } },
    { operationId: 'pageAsset', path: { file: 'docs.js' } },
    { operationId: 'docs' },
    { operationId: 'docsAsset', path: { file: 'swagger-ui.css' } },
    { operationId: 'docsAsset', path: { file: 'swagger-ui-bundle.js' } },
    // Errors, each in the error envelope.
    { operationId: 'lookupIp', query: { ip: 'nope' }, status: 400 },
    { operationId: 'lookupIp', query: { IP: '8.8.8.8' }, status: 400 },
    { operationId: 'callerIp', method: 'post', status: 405 },
    // The SSRF guard refuses it before any connection.
    { operationId: 'checkSite', query: { url: 'http://169.254.169.254/' }, status: 403 },
    { operationId: 'pageAsset', path: { file: 'nope.js' }, status: 404 },
  ];
}

/** The path template and method of an operation in the document. */
export function operationOf(document: OpenApiDocument, operationId: string) {
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (operation.operationId === operationId) return { template, method, operation };
    }
  }
  throw new Error(`no operation ${operationId} in the document`);
}

/** Sends each call to `base` and keeps what came back. */
export async function record(
  base: string,
  document: OpenApiDocument,
  list: readonly Call[],
): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const call of list) {
    const { template, method } = operationOf(document, call.operationId);
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(call.path?.[name] ?? ''),
    );
    const query = call.query ? `?${new URLSearchParams(call.query)}` : '';
    const text = typeof call.body === 'string' ? call.body : undefined;
    const res = await fetch(base + path + query, {
      method: (call.method ?? method).toUpperCase(),
      headers: {
        ...(call.body !== undefined && text === undefined
          ? { 'content-type': 'application/json' }
          : {}),
        ...call.headers,
      },
      body: text ?? (call.body === undefined ? undefined : JSON.stringify(call.body)),
      signal: AbortSignal.timeout(30_000),
    });
    const raw = await res.text();
    const contentType = res.headers.get('content-type') ?? undefined;
    answers.push({
      call,
      template,
      method,
      status: res.status,
      contentType: raw === '' ? undefined : contentType,
      body: raw === '' ? undefined : contentType?.includes('json') ? JSON.parse(raw) : raw,
    });
  }
  return answers;
}
