/**
 * Property tests over every endpoint (issue 8 "Fuzz"): random strings, unicode, huge values,
 * repeated and missing parameters, wrong methods and content types. The API must always answer
 * with the JSON envelope and never a 500, and the process must survive. Parameters come from the
 * route table itself, so a new endpoint is fuzzed without touching this file.
 *
 * Every upstream is a loopback fixture. Inputs that denote a public IP address (in any literal
 * form) are filtered out for the probe endpoints, because a probe would then legitimately try to
 * connect to it, and tests never leave loopback.
 */
import { type OperationId, parseIpLiteral } from '@netdiag/core';
import {
  type DnsTestServer,
  type HttpTarget,
  startDnsServer,
  startHttpTarget,
} from '@netdiag/test-utils';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROUTES } from '../../src/routes/index.js';
import { expectMatchesSchema, operationIdOf } from '../expect-schema.js';
import { startLoopbackApp } from '../loopback-app.js';

const RUNS = Number(process.env.NETDIAG_FUZZ_RUNS ?? 60);
const tried = { requests: 0, byRoute: new Map<string, number>() };

let dns: DnsTestServer;
let upstream: HttpTarget;
let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  dns = await startDnsServer({ zone: {} });
  upstream = await startHttpTarget({
    routes: {
      '*': (_req, res) => {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      },
    },
  });
  const started = await startLoopbackApp({
    dnsAddress: dns.address,
    upstreamUrl: upstream.url,
    rateLimit: 1_000_000,
    toolRateLimit: 1_000_000,
  });
  base = started.base;
  close = started.close;
});

afterAll(async () => {
  await close?.();
  await dns?.close();
  await upstream?.close();
  const per = [...tried.byRoute].map(([route, n]) => `${route}: ${n}`).join(', ');
  console.log(`fuzz: ${tried.requests} requests tried (${per})`);
});

/** True when some reading of `text` is a public IP address a probe could connect to. */
function denotesPublicAddress(text: string): boolean {
  const candidates = new Set<string>([text, text.trim()]);
  for (const prefix of ['', 'http://', 'https://']) {
    try {
      candidates.add(new URL(prefix + text.trim()).hostname);
    } catch {
      /* not a URL */
    }
  }
  for (const candidate of candidates) {
    const ip = parseIpLiteral(candidate.replace(/^\[|\]$/g, ''));
    if (ip && isRoutable(ip.address)) return true;
  }
  return false;
}

function isRoutable(address: string): boolean {
  // Loopback is the only place the fuzzer may reach; everything else is filtered.
  return !(address.startsWith('127.') || address === '::1');
}

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '.',
    '..',
    '%',
    '%00',
    '\u0000',
    '\uFFFF',
    '🦄.example',
    'a'.repeat(5000),
    '[]',
    '{}',
    'null',
    '-1',
    '1e309',
    'NaN',
  ),
  fc.domain(),
  fc.ipV4(),
  fc.ipV6(),
  fc.webUrl(),
  fc.emailAddress(),
  fc.integer().map(String),
);

/** One query value: absent, once, or repeated. */
const queryValue = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: nasty.map((v) => [v]) },
  { weight: 1, arbitrary: fc.array(nasty, { minLength: 2, maxLength: 3 }) },
);

const methods = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS');
const contentTypes = fc.constantFrom(
  undefined,
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
);
const bodies = fc.oneof(
  fc.constant(undefined),
  nasty,
  fc.json(),
  fc.array(nasty, { maxLength: 60 }).map((ips) => JSON.stringify({ ips })),
  // Deep nesting (issue 20 item 4): arrays and objects thousands of levels deep, inside "ips"
  // and at the top, closed or not.
  fc
    .record({
      depth: fc.integer({ min: 1, max: 8000 }),
      open: fc.constantFrom('[', '{"a":'),
      closed: fc.boolean(),
      inside: fc.boolean(),
    })
    .map(({ depth, open, closed, inside }) => {
      const close = open === '[' ? ']' : '}';
      const nested = open.repeat(depth) + (closed ? `1${close.repeat(depth)}` : '');
      return inside ? `{"ips":[${nested}]}` : nested;
    }),
  fc.anything().map((v) => {
    try {
      return JSON.stringify(v) ?? '';
    } catch {
      return '';
    }
  }),
);

const isProbe = (path: string) =>
  ['/api/down', '/api/security-headers', '/api/ports', '/api/tls'].includes(path);

async function send(method: string, path: string, init: { contentType?: string; body?: string }) {
  const headers: Record<string, string> = {};
  if (init.contentType) headers['content-type'] = init.contentType;
  const body = method === 'GET' || method === 'HEAD' ? undefined : init.body;
  const res = await fetch(base + path, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(25_000),
  });
  const text = await res.text();
  return { status: res.status, text, cors: res.headers.get('access-control-allow-origin') };
}

/**
 * The operation that answered: fetch resolves dot segments first (`/api/v1/ip/.` is sent as
 * `/api/v1/ip/`, the caller's own v1 answer), so look the sent path up again.
 */
function servedBy(method: string, path: string): OperationId | undefined {
  try {
    return operationIdOf(new URL(path, base).pathname, method);
  } catch {
    return undefined;
  }
}

function checkEnvelope(
  method: string,
  result: { status: number; text: string; cors: string | null },
  operationId?: OperationId,
) {
  expect(result.status).not.toBe(500);
  expect(result.status).toBeLessThan(600);
  expect(result.cors).toBe('*');
  if (method === 'HEAD' || (method === 'OPTIONS' && result.status === 204)) return;
  const body = JSON.parse(result.text) as { success: unknown; data?: unknown; error?: unknown };
  expect(typeof body.success).toBe('boolean');
  if (body.success) expect(body).toHaveProperty('data');
  else expect(typeof body.error).toBe('string');
  // Whatever input got a success, the answer has the documented shape.
  if (result.status === 200 && operationId) expectMatchesSchema(operationId, body);
}

describe('fuzz: every endpoint answers with the envelope, never a 500', () => {
  // Routes that write their own body (metrics, the OpenAPI document) have no parameters to fuzz.
  for (const route of ROUTES.filter((r) => !r.raw)) {
    test(`${route.method.toUpperCase()} ${route.path}`, async () => {
      const params = route.params ?? [];
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(...params.map(() => queryValue)),
          fc.oneof(
            { weight: 4, arbitrary: fc.constant(route.method.toUpperCase()) },
            { weight: 1, arbitrary: methods },
          ),
          contentTypes,
          bodies,
          async (values, method, contentType, body) => {
            let path = route.path;
            const query = new URLSearchParams();
            params.forEach((param, i) => {
              const value = values[i];
              if (param.in === 'path') {
                path = path.replace(`:${param.name}`, encodeURIComponent(value?.[0] || 'x'));
              } else if (value) {
                for (const v of value) query.append(param.name, v);
              }
            });
            const all = [...values.flat(), body ?? ''].filter(
              (v): v is string => typeof v === 'string',
            );
            if (isProbe(route.path) && all.some(denotesPublicAddress)) return;
            if (route.path === '/api/bulk' || route.path === '/api/asn') {
              // Lookups only read local data; nothing to filter.
            }
            const qs = query.toString();
            const result = await send(method, qs ? `${path}?${qs}` : path, {
              contentType,
              body: typeof body === 'string' ? body : undefined,
            });
            tried.requests++;
            tried.byRoute.set(route.path, (tried.byRoute.get(route.path) ?? 0) + 1);
            checkEnvelope(method, result, servedBy(method, path));
          },
        ),
        { numRuns: RUNS },
      );
    }, 120_000);
  }

  test('unknown paths and hostile raw requests', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), methods, async (suffix, method) => {
        const path = `/api/${encodeURIComponent(suffix)}`;
        const result = await send(method, path, {});
        tried.requests++;
        checkEnvelope(method, result);
      }),
      { numRuns: RUNS * 2 },
    );
    // Malformed percent-encoding and an oversized query still get the envelope.
    for (const path of [
      '/api/v1/dns/%E0%A4%A',
      '/api/dns?domain=%',
      `/api/lookup?ip=${'1'.repeat(10_000)}`,
    ]) {
      checkEnvelope('GET', await send('GET', path, {}));
    }
  });
});
