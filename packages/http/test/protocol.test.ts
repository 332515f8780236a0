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
