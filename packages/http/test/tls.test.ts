/** `GET /api/tls` over real HTTP against a real `openssl s_server` on loopback. */

import { tlsDataSchema } from '@netdiag/core';
import {
  makeTestPki,
  type OpensslServer,
  opensslAvailable,
  startHttpTarget,
  startOpensslServer,
  tempDir,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type LoopbackApp, startLoopbackApp } from './loopback-app.js';

const haveOpenssl = opensslAvailable();
let server: OpensslServer;
let app: LoopbackApp;
let guarded: LoopbackApp;
let upstream: Awaited<ReturnType<typeof startHttpTarget>>;

beforeAll(async () => {
  if (!haveOpenssl) return;
  const pki = makeTestPki(tempDir('netdiag-http-tls-'));
  server = await startOpensslServer({
    cert: pki.files.leaf,
    key: pki.files.leafKey,
    chain: [pki.files.intermediate],
  });
  upstream = await startHttpTarget({ routes: {} });
  app = await startLoopbackApp({
    dnsAddress: '127.0.0.1:9',
    upstreamUrl: upstream.url,
    allowedTargets: ['127.0.0.0/8'],
  });
  guarded = await startLoopbackApp({ dnsAddress: '127.0.0.1:9', upstreamUrl: upstream.url });
}, 60_000);
afterAll(async () => {
  await Promise.all([app?.close(), guarded?.close(), server?.close(), upstream?.close()]);
});

describe.skipIf(!haveOpenssl)('GET /api/tls', () => {
  test('200 with the documented data', async () => {
    const res = await fetch(`${app.base}/api/tls?host=127.0.0.1&port=${server.port}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: unknown };
    const data = tlsDataSchema.parse(body.data);
    expect(data).toMatchObject({ host: '127.0.0.1', port: server.port, servername: null });
    expect(data.chain).toMatchObject({ served: 2, hostname_match: true, trusted: false });
    expect(data.grade).toBe('T');
    expect(data.grade_ignoring_trust).toBe('A');
  });

  test.each([
    ['host=127.0.0.1&port=99999', 400, /"port"/],
    ['port=443', 400, /host/],
    ['host=exa%20mple.com&port=443', 400, /host/],
  ])('%s → %i', async (query, status, message) => {
    const res = await fetch(`${app.base}/api/tls?${query}`);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
  });

  test('the SSRF guard: loopback is 403 unless allowed', async () => {
    const res = await fetch(`${guarded.base}/api/tls?host=127.0.0.1&port=${server.port}`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/^Target not allowed: /);
  });
});
