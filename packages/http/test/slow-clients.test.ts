/**
 * The slow-client limits hold to ±1 s on a server started as operators start it, here with
 * short limits (headers within 2 s, the request within 4 s) so that the file takes ~5 s; the
 * defaults (10 s, 30 s) reach the same server settings, checked without waiting for them. The
 * connection cap closes connections past it.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_SERVER_CONFIG } from '../src/config.js';
import type { StartedServer } from '../src/server.js';
import { startQuietServer } from './quiet-server.js';

let started: StartedServer;
let port: number;

const HEADERS_S = 2;
const REQUEST_S = 4;

beforeAll(async () => {
  started = await startQuietServer({ headersTimeoutS: HEADERS_S, requestTimeoutS: REQUEST_S });
  port = Number(new URL(started.url).port);
}, 60_000);

afterAll(() => started.close());

/** Opens a connection, runs `drip` on it, and resolves with the seconds until the server closed it. */
function closedAfter(drip: (socket: Socket) => void): Promise<{ seconds: number; reply: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let t0 = 0;
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      reply += chunk;
    });
    socket.on('connect', () => {
      t0 = performance.now();
      drip(socket);
    });
    socket.on('close', () => resolve({ seconds: (performance.now() - t0) / 1000, reply }));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
  });
}

/** Writes one character of `text` every `ms`, then stops (never completing on its own). */
function trickle(socket: Socket, text: string, ms: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++] as string);
  }, ms);
  socket.on('close', () => clearInterval(timer));
}

test('the documented defaults (10 s for headers, 30 s for the request) reach the server', async () => {
  expect(DEFAULT_SERVER_CONFIG.headersTimeoutS).toBe(10);
  expect(DEFAULT_SERVER_CONFIG.requestTimeoutS).toBe(30);
  const defaults = await startQuietServer();
  try {
    expect(defaults.server.headersTimeout).toBe(10_000);
    expect(defaults.server.requestTimeout).toBe(30_000);
  } finally {
    await defaults.close();
  }
  expect(started.server.headersTimeout).toBe(HEADERS_S * 1000);
  expect(started.server.requestTimeout).toBe(REQUEST_S * 1000);
});

describe('slow clients are cut when documented', () => {
  test.concurrent(`a connection that sends nothing: closed at ${HEADERS_S} s`, async () => {
    const { seconds } = await closedAfter(() => {});
    expect(seconds).toBeGreaterThan(HEADERS_S - 0.1);
    expect(seconds).toBeLessThan(HEADERS_S + 1);
  }, 60_000);

  test.concurrent(`headers dripped a byte every 100 ms: closed at ${HEADERS_S} s with 408`, async () => {
    const { seconds, reply } = await closedAfter((socket) =>
      trickle(socket, `GET /api/v1/headers HTTP/1.1\r\nHost: a\r\nX-Slow: ${'x'.repeat(500)}`, 100),
    );
    expect(seconds).toBeGreaterThan(HEADERS_S - 0.1);
    expect(seconds).toBeLessThan(HEADERS_S + 1);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
  }, 60_000);

  test.concurrent(`a body dripped a byte every 100 ms: closed at ${REQUEST_S} s`, async () => {
    const { seconds } = await closedAfter((socket) => {
      socket.write(
        'POST /api/bulk HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n',
      );
      trickle(socket, 'x'.repeat(10_000), 100);
    });
    expect(seconds).toBeGreaterThan(REQUEST_S - 0.1);
    expect(seconds).toBeLessThan(REQUEST_S + 1);
  }, 60_000);
});

describe('connection cap', () => {
  test('connections past NETDIAG_MAX_CONNECTIONS are closed at once; room frees up again', async () => {
    const capped = await startQuietServer({ maxConnections: 2 });
    const cappedPort = Number(new URL(capped.url).port);
    const open = () =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(cappedPort, '127.0.0.1', () => resolve(socket));
        socket.on('error', () => {});
        socket.once('error', reject);
      });
    const closedWithin = (socket: Socket, ms: number) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        socket.once('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    try {
      const first = await open();
      const second = await open();
      const third = await open();
      expect(await closedWithin(third, 1000)).toBe(true);
      expect(await closedWithin(second, 200)).toBe(false);
      first.destroy();
      await new Promise((r) => setTimeout(r, 100));
      const fourth = await open();
      expect(await closedWithin(fourth, 300)).toBe(false);
      second.destroy();
      fourth.destroy();
    } finally {
      await capped.close();
    }
  });
});
