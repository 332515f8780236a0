/**
 * The page's routes without a browser: plain text for curl, the HTML for browsers with its
 * security headers, the static files, and /docs served from this origin.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, type NetdiagApp } from '../src/app.js';
import { closeContext } from '../src/context.js';
import { escapeHtml } from '../src/page/render.js';
import { PAGE_CSP } from '../src/routes/page.js';

let app: NetdiagApp;
beforeAll(async () => {
  app = createApp({
    logLevel: 'silent',
    env: false,
    trustProxy: 'loopback',
    dnsServers: ['127.0.0.1:1'],
    torExitListUrl: 'http://127.0.0.1:1/tor',
  });
  await app.locals.netdiag.engine.datasets();
}, 60_000);
afterAll(() => closeContext(app.locals.netdiag));

const from = (ip: string) => ({ 'X-Forwarded-For': ip });

describe('plain text for curl', () => {
  test('GET / without Accept: text/html is the caller IP and a newline', async () => {
    const res = await request(app).get('/').set(from('8.8.8.8')).set('Accept', '*/*');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe('8.8.8.8\n');
    expect(res.headers.vary).toMatch(/Accept/);
  });

  test.each([
    ['/ip', '8.8.8.8\n'],
    ['/country', 'United States\n'],
    ['/city', 'Mountain View\n'],
    ['/asn', 'AS15169\n'],
  ])('%s', async (path, text) => {
    const res = await request(app).get(path).set(from('8.8.8.8'));
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe(text);
  });

  test('an address without data answers an empty line, not "undefined"', async () => {
    for (const path of ['/country', '/city', '/asn']) {
      expect((await request(app).get(path).set(from('10.1.2.3'))).text).toBe('\n');
    }
  });
});

describe('the HTML page', () => {
  test('a browser gets the page with the visitor in it and the strict headers', async () => {
    const res = await request(app)
      .get('/')
      .set(from('8.8.8.8'))
      .set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<code id="caller-ip">8.8.8.8</code>');
    expect(res.text).toContain('Mountain View');
    expect(res.text).not.toMatch(/<script>|<script [^>]*>[^<]/); // no inline script
    expect(res.text).not.toMatch(
      /https?:\/\/(?!db-ip\.com)[a-z0-9.-]+\.[a-z]{2,}\/[^"]*\.(js|css)/i,
    );
    expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    // Plain HTTP: no HSTS (RFC 6797 §7.2).
    expect(res.headers['strict-transport-security']).toBeUndefined();
    // The page counts against the per-client limit: it asks the blocklists.
    expect(res.headers['x-ratelimit-limit']).toBe('60');
  });

  test('text reaches the page escaped', () => {
    expect(escapeHtml(`<script>"x" & 'y'</script>`)).toBe(
      '&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;',
    );
  });

  test('the static files, by name only', async () => {
    const js = await request(app).get('/assets/app.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=3600');
    expect((await request(app).get('/assets/app.css')).headers['content-type']).toBe(
      'text/css; charset=utf-8',
    );
    for (const path of [
      '/assets/..%2Fpackage.json',
      '/assets/secret',
      '/docs/assets/package.json',
    ]) {
      expect((await request(app).get(path)).status, path).toBe(404);
    }
  });

  test('/docs: Swagger UI from this origin', async () => {
    const res = await request(app).get('/docs');
    expect(res.text).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(res.text).not.toMatch(/https?:\/\//);
    const bundle = await request(app).get('/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(bundle.headers['content-length'])).toBeGreaterThan(100_000);
  });
});
