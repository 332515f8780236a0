/**
 * A query parameter a route does not declare is a 400 naming the ones it takes, on every `/api`
 * route, worked out from the route table: `?TYPE=MX` used to be ignored and answered A records.
 */
import { type DnsTestServer, startDnsServer } from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app.js';
import { closeContext } from '../src/context.js';
import { ROUTES } from '../src/routes/index.js';

let dns: DnsTestServer;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  dns = await startDnsServer({
    zone: {
      'example.test': { A: ['192.0.2.10'], MX: [{ preference: 10, exchange: 'mx.example.test' }] },
    },
  });
  app = createApp({ logLevel: 'silent', env: false, dnsServers: [dns.address] });
});
afterAll(async () => {
  await closeContext(app.locals.netdiag);
  await dns.close();
});

/** A request path for a route, path parameters filled in. */
const pathOf = (path: string) => path.replace(/:\w+/g, 'example.test');

describe('unknown query parameters', () => {
  test('?TYPE=MX is a 400 naming the parameters /api/dns takes; ?type=MX answers MX', async () => {
    const wrong = await request(app).get('/api/dns?domain=example.test&TYPE=MX');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      success: false,
      error: 'Unknown parameter "TYPE": /api/dns takes domain, type.',
    });
    const right = await request(app).get('/api/dns?domain=example.test&type=MX');
    expect(right.status).toBe(200);
    expect(right.body.data.type).toBe('MX');
  });

  test('every /api route but the request echo refuses a name it does not declare', async () => {
    const checked: string[] = [];
    for (const route of ROUTES) {
      if (!route.path.startsWith('/api/') || route.path === '/api/v1/headers') continue;
      const query = (route.params ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const res = await request(app)[route.method](`${pathOf(route.path)}?nonsense=1`);
      expect(res.status, route.path).toBe(400);
      expect(res.body.error, route.path).toBe(
        `Unknown parameter "nonsense": ${route.path} takes ${query.length > 0 ? query.join(', ') : 'no query parameters'}.`,
      );
      checked.push(route.path);
    }
    expect(checked.length).toBeGreaterThan(20);
  });

  test('several unknown names are all named; a long one is cut short', async () => {
    const res = await request(app).get(`/api/lookup?ip=8.8.8.8&Ip=1&${'x'.repeat(100)}=2`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      `Unknown parameters "Ip", "${'x'.repeat(40)}…": /api/lookup takes ip.`,
    );
  });

  test('the cache-buster _ is ignored everywhere; the echo takes anything', async () => {
    const busted = await request(app).get('/api/dns?domain=example.test&type=MX&_=1700000000000');
    expect(busted.status).toBe(200);
    expect((await request(app).get('/api/ip?_=1')).status).toBe(200);
    const echo = await request(app).get('/api/v1/headers?anything=1&TYPE=2');
    expect(echo.status).toBe(200);
    expect(echo.body.data.url).toMatch(/\?anything=1&TYPE=2$/);
  });

  test('the OpenAPI document states the rule', async () => {
    const doc = (await request(app).get('/api/openapi.json')).body;
    expect(doc.info.description).toMatch(/unknown or wrongly cased name \(`\?TYPE=MX`\) is a 400/);
    expect(doc.components.responses.E400.description).toMatch(
      /query parameter the operation does not list/,
    );
  });

  test('the routes outside /api are left alone', async () => {
    for (const path of ['/ip?x=1', '/healthz?probe=lb', '/metrics?x=1', '/?x=1']) {
      expect((await request(app).get(path).set('Accept', '*/*')).status, path).toBe(200);
    }
  });

  test("the page's forms send only parameters their routes declare", async () => {
    const html = (await request(app).get('/').set('Accept', 'text/html')).text;
    const forms = [
      ...html.matchAll(/<form [^>]*data-api="([^"]+)" data-method="get">(.*?)<\/form>/gs),
    ];
    expect(forms.length).toBeGreaterThan(5);
    for (const [, action, inner] of forms) {
      const route = ROUTES.find((r) => r.path === action);
      const declared = (route?.params ?? []).map((p) => p.name);
      for (const [, name] of (inner ?? '').matchAll(/ name="([^"]+)"/g)) {
        expect(declared, `${action} ${name}`).toContain(name);
      }
    }
  });
});
