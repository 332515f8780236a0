/**
 * The route dispatcher (src/router.ts) matches paths the way Express's router does by default,
 * so replacing one by the other changes nothing for clients. The same requests go to a plain
 * Express 5 router with the same routes, and both answers must agree.
 */
import express, { type Express } from 'express';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, createRouter } from '../src/app.js';
import type { RouteDef } from '../src/routes/types.js';
import { expectMatchesSchema } from './expect-schema.js';

const echo = (path: string, method: 'get' | 'post' = 'get'): RouteDef => ({
  method,
  path,
  operationId: `${method}${path.replace(/\W+/g, '_')}`,
  tag: 'Test',
  summary: 'echo',
  data: { type: 'object', properties: { route: { type: 'string' } } },
  errors: [],
  handle: ({ req }) => ({ route: path, method, params: req.params }),
});

const routes: RouteDef[] = [
  { ...echo('/api/plain'), params: [{ name: 'x', in: 'query', description: 'x', schema: {} }] },
  echo('/api/plain', 'post'),
  echo('/api/only-post', 'post'),
  echo('/api/v1/thing/:name'),
  {
    ...echo('/api/async'),
    handle: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { later: true };
    },
  },
];

/** What Express's own router answers for the same table (the reference). */
function expressReference(): Express {
  const app = express();
  for (const route of routes) {
    app[route.method](route.path, async (req, res) => {
      res.json({ success: true, data: await route.handle({ req, res } as never) });
    });
  }
  app.use((_req, res) => {
    res.status(404).json({ success: false });
  });
  app.use(
    (
      _error: unknown,
      _req: express.Request,
      res: express.Response,
      _next: express.NextFunction,
    ) => {
      res.status(400).json({ success: false });
    },
  );
  return app;
}

const ours = createApp({ logLevel: 'silent', routes });
const reference = expressReference();

const cases: [method: 'get' | 'post' | 'head', path: string][] = [
  ['get', '/api/plain'],
  ['get', '/API/Plain'],
  ['get', '/api/plain/'],
  ['get', '/api/plain//'],
  ['get', '/api/plain?x=1'],
  ['get', '/api/plainer'],
  ['get', '/api/plain/extra'],
  ['post', '/api/plain'],
  ['head', '/api/plain'],
  ['get', '/api/v1/thing/abc'],
  ['get', '/API/V1/THING/AbC'],
  ['get', '/api/v1/thing/abc/'],
  ['get', '/api/v1/thing/a%20b'],
  ['get', '/api/v1/thing/a%2Fb'],
  ['get', '/api/v1/thing/'],
  ['get', '/api/v1/thing'],
  ['get', '/api/v1/thing/a/b'],
  ['get', '/api/v1/thing/%E0%A4%A'],
  ['get', '/api/async'],
  ['get', '/nowhere'],
];

describe('route dispatch agrees with Express 5 routing', () => {
  test.each(cases)('%s %s', async (method, path) => {
    const [a, b] = await Promise.all([
      request(ours)[method](path),
      request(reference)[method](path),
    ]);
    // 405 is ours alone (Express answers 404 for a known path with another method).
    if (a.status === 405) expect(b.status).toBe(404);
    else expect(a.status).toBe(b.status);
    if (a.status === 200 && method !== 'head') expect(a.body.data).toEqual(b.body.data);
  });
});

describe('route dispatch', () => {
  test('a known path with another method is a 405 naming the allowed methods', async () => {
    const res = await request(ours).delete('/api/v1/thing/abc');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.body.error).toBe(
      'Method DELETE not allowed on /api/v1/thing/:name; allowed: GET, HEAD, OPTIONS',
    );
    const post = await request(ours).get('/api/only-post');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('POST, OPTIONS');
  });

  test('broken %-encoding in a path parameter is a 400 in plain words', async () => {
    const res = await request(ours).get('/api/v1/thing/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('The URL has malformed percent-encoding');
  });

  test('createRouter mounts under a prefix of the host app', async () => {
    const host = express();
    host.use('/tools', createRouter({ logLevel: 'silent', routes }));
    const res = await request(host).get('/tools/api/v1/thing/x%2Dy');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      route: '/api/v1/thing/:name',
      method: 'get',
      params: { name: 'x-y' },
    });
  });

  test('createRouter reads the environment like createApp, and its OpenAPI names the mount path', async () => {
    const host = express();
    host.use(
      '/tools',
      createRouter({
        env: { NETDIAG_LOG_LEVEL: 'silent', NETDIAG_ALLOWED_TARGETS: '127.0.0.0/8' },
      }),
    );
    const doc = await request(host).get('/tools/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.servers).toEqual([{ url: '/tools' }]);
    expect(Object.keys(doc.body.paths)).toContain('/api/lookup');
    // NETDIAG_ALLOWED_TARGETS from the environment reaches the engine behind the router.
    const probe = await request(host).get('/tools/api/ports?host=127.0.0.1&ports=1');
    expect(probe.status).toBe(200);
    expectMatchesSchema('scanPorts', probe.body);
    expect(() => createRouter({ env: { NETDIAG_DNS_SERVERS: 'nope' } })).toThrow(
      /NETDIAG_DNS_SERVERS/,
    );
  });

  test('a route table with a path it cannot match is refused at start-up', () => {
    expect(() => createApp({ logLevel: 'silent', routes: [echo('/api/:a/b')] })).toThrow(
      /only a final ":name" segment/,
    );
  });
});
