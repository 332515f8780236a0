/**
 * Issue 20 item 7: the API's own response headers, the echo URL of absolute-form requests and
 * repeated or invalid Host headers — over a real socket, since clients such as supertest cannot
 * send two Host lines or an absolute-form target.
 */

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, type NetdiagApp } from '../src/app.js';
import { closeContext } from '../src/context.js';
import type { StartedServer } from '../src/server.js';
import { startQuietServer } from './quiet-server.js';

let app: NetdiagApp;
let server: ReturnType<NetdiagApp['listen']>;
let port: number;

beforeAll(async () => {
  app = createApp({ logLevel: 'silent', env: false, dnsServers: ['127.0.0.1:1'] });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await closeContext(app.locals.netdiag);
});

/** Sends raw request bytes and returns the whole response text. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('headers on every response', () => {
  test.each([
    ['an answer', 'get', '/api/v1/headers', 200],
    ['a 400', 'get', '/api/lookup?ip=nope', 400],
    ['a 404', 'get', '/nowhere', 404],
    ['a 405', 'delete', '/api/v1/headers', 405],
    ['a preflight', 'options', '/api/lookup', 204],
    ['the OpenAPI document', 'get', '/api/openapi.json', 200],
  ] as const)('%s: nosniff and no-store', async (_name, method, path, status) => {
    const res = await request(app)[method](path);
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('Host', () => {
  test('two Host lines: 400 with a message, before any route', async () => {
    const answer = await raw(
      'GET /api/v1/headers HTTP/1.1\r\nHost: good.example\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer)).toEqual({
      success: false,
      error: expect.stringMatching(/more than one Host/),
    });
    expect(answer).not.toContain('evil.example');
  });

  test('an invalid Host value: 400', async () => {
    const answer = await raw(
      'GET /api/v1/headers HTTP/1.1\r\nHost: good.example/evil?x\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer).error).toMatch(/Host header/);
  });

  test('one valid Host: echoed into the URL', async () => {
    const answer = await raw(
      'GET /api/v1/headers?a=1 HTTP/1.1\r\nHost: good.example:8080\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(bodyOf(answer).data.url).toBe('http://good.example:8080/api/v1/headers?a=1');
  });

  test('absolute-form: the URL is the request target, not Host joined to it', async () => {
    const answer = await raw(
      'GET http://evil.example/api/v1/headers?x=1 HTTP/1.1\r\nHost: good.example\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(bodyOf(answer).data.url).toBe('http://evil.example/api/v1/headers?x=1');
  });
});

describe('CORS that browsers can read', () => {
  test('every answer exposes the rate-limit headers, Retry-After and X-Request-Id', async () => {
    const res = await request(app)
      .get('/api/lookup?ip=8.8.8.8')
      .set('Origin', 'https://page.example');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(res.headers['access-control-expose-headers'])
      .split(/\s*,\s*/)
      .map((h) => h.toLowerCase());
    for (const header of [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-window',
      'retry-after',
      'x-request-id',
    ]) {
      expect(exposed).toContain(header);
    }
  });

  test('a preflight asking for common request headers is allowed, with Max-Age', async () => {
    const res = await request(app)
      .options('/api/lookup')
      .set('Origin', 'https://page.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-requested-with, cache-control, authorization');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-headers']).toBe(
      'x-requested-with, cache-control, authorization',
    );
    expect(res.headers['access-control-max-age']).toBe('86400');
    expect(res.headers.vary).toMatch(/Access-Control-Request-Headers/);
  });

  test('a preflight with a malformed header list gets the default list', async () => {
    const res = await request(app)
      .options('/api/lookup')
      .set('Access-Control-Request-Headers', 'x-a, <script>');
    expect(res.headers['access-control-allow-headers']).toMatch(/^Content-Type, /);
  });
});

describe('requests the HTTP parser rejects (startServer)', () => {
  let started: StartedServer;
  let serverPort: number;
  beforeAll(async () => {
    started = await startQuietServer();
    serverPort = Number(new URL(started.url).port);
  }, 60_000);
  afterAll(() => started.close());

  const send = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(serverPort, '127.0.0.1', () => socket.write(text));
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk) => {
        answer += chunk;
      });
      socket.on('close', () => resolve(answer));
      socket.on('error', (error: NodeJS.ErrnoException) =>
        error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(answer) : reject(error),
      );
    });

  test('headers over 16 KiB: 431 with the envelope and CORS, not a bare status', async () => {
    const answer = await send(
      `GET /api/lookup?ip=${'1'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/\r\nAccess-Control-Allow-Origin: \*\r\n/);
    expect(answer).toMatch(/\r\nAccess-Control-Expose-Headers: X-RateLimit-Limit/);
    expect(bodyOf(answer)).toEqual({
      success: false,
      error: expect.stringMatching(/^Request header fields too large/),
    });
  });

  test('bytes that are not HTTP: 400 with the envelope and CORS', async () => {
    const answer = await send('HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nAccess-Control-Allow-Origin: \*\r\n/);
    expect(bodyOf(answer).error).toMatch(/^Bad request: not a valid HTTP\/1\.1 request/);
  });
});
