/** `GET /api/tls` over real HTTP against a real `openssl s_server` on loopback. */

import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import {
  createNetdiag,
  createTlsCheckLimiter,
  MAX_HANDSHAKES_PER_CHECK,
  tlsDataSchema,
} from '@netdiag/core';
import {
  makeTestPki,
  type OpensslServer,
  opensslAvailable,
  oversizedCertificateFlight,
  startHttpTarget,
  startOpensslServer,
  startRawTlsServer,
  type TestPki,
  tempDir,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type LoopbackApp, startLoopbackApp } from './loopback-app.js';

const haveOpenssl = opensslAvailable();
let server: OpensslServer;
let app: LoopbackApp;
let guarded: LoopbackApp;
let upstream: Awaited<ReturnType<typeof startHttpTarget>>;
let pki: TestPki;

beforeAll(async () => {
  if (!haveOpenssl) return;
  pki = makeTestPki(tempDir('netdiag-http-tls-'));
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

const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

describe.skipIf(!haveOpenssl)('GET /api/tls: well-known non-TLS ports', () => {
  test.each([
    [25, /^port 25 is SMTP, which starts in plain text and upgrades with STARTTLS \(RFC 3207\)/],
    [6379, /^port 6379 is Redis/],
    [5432, /^port 5432 is PostgreSQL/],
  ])('port %i is 400, naming the port and how to allow it', async (port, message) => {
    const res = await fetch(`${app.base}/api/tls?host=127.0.0.1&port=${port}`);
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error).toMatch(message);
    expect(error).toContain(`to check it anyway, add allow_port=${port}`);
  });

  test('port 25 is refused alone, and checked when allow_port repeats it (nothing listens: 502)', async () => {
    const refused = await fetch(`${app.base}/api/tls?host=127.0.0.1&port=25`);
    expect(refused.status).toBe(400);
    const res = await fetch(`${app.base}/api/tls?host=127.0.0.1&port=25&allow_port=25`);
    expect(res.status).toBe(502);
    expect(await errorOf(res)).toMatch(/127\.0\.0\.1:25/);
  });

  test.each([
    ['port=25&allow_port=587', /^allow_port=587 must repeat the port checked \(port=25\)/],
    ['port=25&allow_port=smtp', /^"allow_port" must repeat "port"/],
    ['allow_port=25', /^allow_port=25 must repeat the port checked \(port=443\)/],
  ])('%s → 400', async (query, message) => {
    const res = await fetch(`${app.base}/api/tls?host=127.0.0.1&${query}`);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatch(message);
  });
});

describe.skipIf(!haveOpenssl)('GET /api/tls: caps', () => {
  test('handshakes of one request, counted at the target: within the bound, one at a time', async () => {
    const counter = await startRawTlsServer({ backendPort: server.port });
    try {
      const res = await fetch(`${app.base}/api/tls?host=127.0.0.1&port=${counter.port}`);
      expect(res.status).toBe(200);
      const data = tlsDataSchema.parse(((await res.json()) as { data: unknown }).data);
      // The default handshake, one per protocol or per accepted suite plus the refusal that
      // ends the list and the preference test, the chain as served, ALPN http/1.1, resumption,
      // the HSTS GET.
      let expected = 1 + 3 + (data.session_resumption ? 1 : 0);
      for (const p of data.protocols.filter((q) => q.accepted !== null)) {
        const n = data.cipher_suites.find((c) => c.protocol === p.protocol)?.suites.length ?? 0;
        expected += p.accepted ? n + 1 + (n >= 2 ? 1 : 0) : 1;
      }
      expect(counter.connections).toBe(expected);
      expect(counter.connections).toBeLessThanOrEqual(MAX_HANDSHAKES_PER_CHECK);
      expect(MAX_HANDSHAKES_PER_CHECK).toBe(160); // the documented figure
      expect(counter.maxConcurrent).toBe(1);
    } finally {
      await counter.close();
    }
  });

  test('a 16 MiB Certificate message: a small 200 answer that says what happened', {
    timeout: 60_000,
  }, async () => {
    const leaf = Buffer.from(new X509Certificate(readFileSync(pki.files.leaf)).raw);
    const raw = await startRawTlsServer({
      backendPort: server.port,
      handMadeAnswer: oversizedCertificateFlight(leaf, 2 ** 24 - 1),
    });
    try {
      const res = await fetch(`${app.base}/api/tls?host=127.0.0.1&port=${raw.port}`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text.length).toBeLessThan(32 * 1024);
      const data = tlsDataSchema.parse((JSON.parse(text) as { data: unknown }).data);
      expect(data.chain).toMatchObject({ served: 2, order: null });
      expect(data.findings.map((f) => f.code)).toEqual(['certificate_message_too_large']);
    } finally {
      await raw.close();
    }
  });

  test('N + 1 checks at once with room for N: the extra one is 503 with Retry-After', async () => {
    // A TLS server that accepts connections and never answers: the checks hold their slot
    // until the test lets them go.
    const held = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      held.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const allowedTargets = ['127.0.0.0/8'];
    // Room for 2 running and none waiting, so that 3 requests show the cap.
    const engine = createNetdiag({ allowedTargets, tlsLimiter: createTlsCheckLimiter(2, 0) });
    const capped = await startLoopbackApp({
      dnsAddress: '127.0.0.1:9',
      upstreamUrl: upstream.url,
      allowedTargets,
      engine,
    });
    try {
      const url = `${capped.base}/api/tls?host=127.0.0.1&port=${port}`;
      const running = [fetch(url), fetch(url)];
      while (held.size < 2) await new Promise((r) => setTimeout(r, 10));
      const extra = await fetch(url);
      expect(extra.status).toBe(503);
      expect(extra.headers.get('retry-after')).toBe('10');
      expect(await errorOf(extra)).toBe(
        'Too many TLS checks are running on this server; retry in 10 s',
      );
      for (const socket of held) socket.destroy();
      // Let go, the two running checks end in their own error (the server reset them).
      for (const res of await Promise.all(running)) expect(res.status).toBe(502);
    } finally {
      await capped.close();
      await new Promise((r) => silent.close(r));
    }
  });
});
