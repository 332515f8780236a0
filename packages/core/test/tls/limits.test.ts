/**
 * The TLS check's caps (issue 41, items 3 and 4), against loopback servers: a raw `net` server
 * that answers netdiag's hand-made ClientHello with a 16 MiB Certificate message (and pipes
 * OpenSSL's handshakes to a real `openssl s_server`), the handshakes of one check counted at the
 * target, and the well-known non-TLS ports refused before any packet.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  makeTestPki,
  type OpensslServer,
  opensslAvailable,
  oversizedCertificateFlight,
  type RawTlsServer,
  startOpensslServer,
  startRawTlsServer,
  startStallMeter,
  type TestPki,
  tempDir,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CheckTlsOptions, checkTls } from '../../src/tls/check-tls.js';
import { tlsDataSchema } from '../../src/tls/schema.js';

const haveOpenssl = opensslAvailable();
let pki: TestPki;
/** A small self-signed P-256 certificate (about 400 bytes of DER), the filling of the 16 MiB. */
let smallCertificate: Buffer;
const closers: { close(): Promise<void> }[] = [];

async function serve(options: Parameters<typeof startOpensslServer>[0]): Promise<OpensslServer> {
  const server = await startOpensslServer(options);
  closers.push(server);
  return server;
}
async function rawServer(options: Parameters<typeof startRawTlsServer>[0]): Promise<RawTlsServer> {
  const server = await startRawTlsServer(options);
  closers.push(server);
  return server;
}

async function check(port: number, extra: CheckTlsOptions = {}) {
  const answer = await checkTls('127.0.0.1', {
    port,
    servername: 'tls.test',
    allowedTargets: ['127.0.0.0/8'],
    ca: pki.rootPem,
    hsts: false,
    ...extra,
  });
  return tlsDataSchema.parse(answer);
}

beforeAll(() => {
  if (!haveOpenssl) return;
  pki = makeTestPki(tempDir('netdiag-tls-limits-'));
  const key = join(pki.dir, 'small.key');
  const cert = join(pki.dir, 'small.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      key,
      '-subj',
      '/CN=s',
      '-days',
      '2',
      '-out',
      cert,
    ],
    { stdio: 'pipe' },
  );
  smallCertificate = Buffer.from(new X509Certificate(readFileSync(cert)).raw);
}, 60_000);
afterAll(async () => {
  await Promise.all(closers.map((s) => s.close()));
});

describe.skipIf(!haveOpenssl)(
  'the served-chain reader against a 16 MiB Certificate message',
  () => {
    test('the answer stays small, memory and the event loop are not hurt, the check ends promptly', {
      timeout: 120_000,
    }, async () => {
      const backend = await serve({
        cert: pki.files.leaf,
        key: pki.files.leafKey,
        chain: [pki.files.intermediate],
        args: ['-tls1_2'],
      });
      // The largest message the 24-bit length allows: 2^24 - 1 bytes of small certificates.
      const raw = await rawServer({
        backendPort: backend.port,
        handMadeAnswer: oversizedCertificateFlight(smallCertificate, 2 ** 24 - 1),
      });
      // Without `ca`, as the API faces call it: an extra CA makes each check build a context of
      // Node's ~140 roots plus that one, itself a 50-120 ms block on this machine. A first check
      // straight to the real server loads what any check loads once, so that the measured one
      // shows the oversized message alone.
      const asTheApi = { ca: undefined };
      await check(backend.port, asTheApi);
      const rssBefore = process.memoryUsage().rss;
      const meter = startStallMeter();
      const started = performance.now();
      const answer = await check(raw.port, asTheApi);
      const seconds = (performance.now() - started) / 1000;
      const loop = meter.stop();
      const rssGrowthMiB = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
      const bytes = JSON.stringify(answer).length;
      console.info(
        `16 MiB Certificate: ${seconds.toFixed(2)} s, answer ${bytes} bytes with ` +
          `${answer.certificates.length} of ${answer.chain.served} certificates, ` +
          `RSS +${rssGrowthMiB.toFixed(0)} MiB, event loop blocked ${loop.busyMs.toFixed(0)} ms at most ` +
          `(longest delay ${loop.maxDelayMs.toFixed(0)} ms, with the machine's own waits)`,
      );
      expect(raw.handMade).toBe(1); // the reader met the oversized message
      expect(answer.certificates.length).toBeLessThanOrEqual(10);
      expect(bytes).toBeLessThan(32 * 1024);
      expect(rssGrowthMiB).toBeLessThan(64);
      expect(loop.busyMs).toBeLessThan(100);
      expect(seconds).toBeLessThan(10);
      // The chain still comes from OpenSSL's handshake; the order is unknown, and said why.
      expect(answer.chain).toMatchObject({ served: 2, order: null, hostname_match: true });
      expect(answer.findings).toContainEqual({
        code: 'certificate_message_too_large',
        message: expect.stringMatching(
          /^The server's TLS 1\.2 Certificate message is 16,77\d,\d{3} bytes, over netdiag's limit of 102,400 bytes .*OpenSSL.*; netdiag stopped reading/,
        ),
      });
    });
  },
);

describe.skipIf(!haveOpenssl)('handshakes per check', () => {
  test('counted at the target: within the bound, one at a time, as many as the answer needs', {
    timeout: 60_000,
  }, async () => {
    // The testssl.sh comparison's two biggest servers: TLS 1.2 + 1.3 with OpenSSL's default
    // suites, and TLS 1.0 with every suite of ALL at security level 0.
    const setups = [
      { cert: pki.files.leaf, key: pki.files.leafKey, chain: [pki.files.intermediate] },
      {
        cert: pki.files.rsa1024,
        key: pki.files.rsa1024Key,
        chain: [pki.files.intermediate],
        args: ['-tls1', '-cipher', 'ALL:@SECLEVEL=0'],
      },
    ];
    for (const setup of setups) {
      const backend = await serve(setup);
      const counter = await rawServer({ backendPort: backend.port });
      const answer = await check(counter.port, { hsts: true });
      // What the answer says was done: the default handshake; per protocol one handshake when
      // refused, else one per accepted suite (the first is the protocol's own handshake), the
      // refusal that ends the list and, with two suites or more, the preference test; the chain
      // as served; ALPN http/1.1; resumption when the server gave a session; the HSTS GET.
      let expected = 1 + 3 + (answer.session_resumption ? 1 : 0);
      for (const p of answer.protocols.filter((q) => q.accepted !== null)) {
        const suites = answer.cipher_suites.find((c) => c.protocol === p.protocol)?.suites ?? [];
        expected += p.accepted ? suites.length + 1 + (suites.length >= 2 ? 1 : 0) : 1;
      }
      console.info(
        `${setup.args?.join(' ') ?? 'default'}: ${counter.connections} handshakes, ` +
          `at most ${counter.maxConcurrent} at once`,
      );
      expect(counter.connections).toBe(expected);
      expect(counter.connections).toBeLessThanOrEqual(160);
      expect(counter.maxConcurrent).toBe(1);
      expect(answer.findings).toEqual([]);
    }
  });

  test('a smaller budget is never exceeded, and the answer says what it left out', {
    timeout: 60_000,
  }, async () => {
    const backend = await serve({
      cert: pki.files.rsa1024,
      key: pki.files.rsa1024Key,
      chain: [pki.files.intermediate],
      args: ['-tls1', '-cipher', 'ALL:@SECLEVEL=0'],
    });
    const counter = await rawServer({ backendPort: backend.port });
    const answer = await check(counter.port, { maxHandshakes: 16 });
    expect(counter.connections).toBeLessThanOrEqual(16);
    const tls10 = answer.cipher_suites.find((c) => c.protocol === 'TLSv1');
    expect(tls10?.suites.length).toBeGreaterThan(0);
    // The steps after the suites still ran: the chain as served was read.
    expect(answer.chain).toMatchObject({ served: 2, order: 'correct' });
    expect(answer.findings).toContainEqual({
      code: 'handshake_budget_spent',
      message: expect.stringMatching(
        /^TLSv1: the suites after the first \d+ were not enumerated: the check's budget of 16 handshakes was spent/,
      ),
    });
    await expect(check(counter.port, { maxHandshakes: 5 })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe.skipIf(!haveOpenssl)('well-known non-TLS ports', () => {
  test.each([
    [25, /^port 25 is SMTP, which starts in plain text and upgrades with STARTTLS/],
    [6379, /^port 6379 is Redis/],
    [22, /^port 22 is SSH/],
  ])('port %i is refused before any packet, naming how to allow it', async (port, message) => {
    const error = (await check(port).catch((e: unknown) => e)) as Error & { code?: string };
    expect(error).toMatchObject({ code: 'INVALID_INPUT' });
    expect(error.message).toMatch(message);
    expect(error.message).toContain(`allow_port=${port}`);
  });

  test('allowPort naming the same port lets the check run; another port is refused', async () => {
    // Nothing listens on 127.0.0.2:25 here: the check runs and fails to connect, as asked.
    await expect(
      checkTls('127.0.0.2', { port: 25, allowPort: 25, allowedTargets: ['127.0.0.0/8'] }),
    ).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: /cannot connect to 127\.0\.0\.2:25/,
    });
    await expect(
      checkTls('127.0.0.2', { port: 25, allowPort: 587, allowedTargets: ['127.0.0.0/8'] }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: /allow_port=587 .*port=25/ });
  });
});
