/**
 * `startServer` makes node:http build requests and responses with the app's Express prototypes
 * already in place (src/express-objects.ts), so that Express never changes an object's
 * prototype; what the API answers stays the same.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import express from 'express';
import { describe, expect, test } from 'vitest';
import { expressObjectClasses } from '../src/express-objects.js';
import { startQuietServer } from './quiet-server.js';

describe('expressObjectClasses', () => {
  test("makes node's own objects with the app's prototypes", () => {
    const app = express();
    const classes = expressObjectClasses(app);
    const socket = new Socket();
    const req = new classes.IncomingMessage(socket);
    const res = new classes.ServerResponse(req);
    expect(Object.getPrototypeOf(req)).toBe(app.request);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
    expect(req).toBeInstanceOf(IncomingMessage);
    expect(res).toBeInstanceOf(ServerResponse);
    // Initialised by node's constructors, as `new IncomingMessage(socket)` would be.
    expect(req.socket).toBe(socket);
    expect(req.headers).toEqual({});
    expect(res.statusCode).toBe(200);
    expect(res.req).toBe(req);
    // Another app's prototypes are its own.
    expect(
      Object.getPrototypeOf(new (expressObjectClasses(express()).IncomingMessage)(socket)),
    ).not.toBe(app.request);
    socket.destroy();
  });
});

describe('startServer', () => {
  test('requests arrive with the prototypes Express would give them, and are answered as before', async () => {
    const started = await startQuietServer();
    const arrived: { req: unknown; res: unknown }[] = [];
    // Runs before Express's handler: what node:http made.
    started.server.prependListener('request', (req, res) =>
      arrived.push({ req: Object.getPrototypeOf(req), res: Object.getPrototypeOf(res) }),
    );
    try {
      const ip = await fetch(`${started.url}/api/ip`);
      expect(ip.status).toBe(200);
      expect(((await ip.json()) as { data: { ip: string } }).data.ip).toBe('127.0.0.1');
      const lookup = await fetch(`${started.url}/api/lookup?ip=8.8.8.8`);
      expect(lookup.status).toBe(200);
      expect(lookup.headers.get('x-request-id')).toBeTruthy();
      const missing = await fetch(`${started.url}/api/nothing-here`);
      expect(missing.status).toBe(404);
      expect(arrived).toHaveLength(3);
      for (const seen of arrived) {
        expect(seen.req).toBe(started.app.request);
        expect(seen.res).toBe(started.app.response);
      }
    } finally {
      await started.close();
    }
  });
});
