/**
 * checkTls against real TLS servers on loopback: `openssl s_server` processes serving a PKI made
 * with the openssl CLI in the test (test-utils/tls-servers.ts). Each answer is checked field by
 * field against what the server was started with.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  freePort,
  makeTestPki,
  type OpensslServer,
  opensslAvailable,
  startHttpTarget,
  startOpensslServer,
  type TestPki,
  tempDir,
} from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gradeSecurityHeaders } from '../headers/grade-security-headers.js';
import { checkSite } from '../site/check-site.js';
import { type CheckTlsOptions, checkTls } from './check-tls.js';
import { tlsDataSchema } from './schema.js';

const haveOpenssl = opensslAvailable();
let pki: TestPki;
const servers: OpensslServer[] = [];

async function serve(options: Parameters<typeof startOpensslServer>[0]): Promise<number> {
  const server = await startOpensslServer(options);
  servers.push(server);
  return server.port;
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
  // Every answer has the documented shape, field for field (strict: no undocumented field).
  return tlsDataSchema.parse(answer);
}

beforeAll(() => {
  if (haveOpenssl) pki = makeTestPki(tempDir('netdiag-tls-pki-'));
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe.skipIf(!haveOpenssl)('checkTls on real servers', () => {
  test('the SSRF guard applies: loopback is refused unless allowed, before any handshake', async () => {
    const port = await serve({ cert: pki.files.leaf, key: pki.files.leafKey });
    await expect(checkTls('127.0.0.1', { port })).rejects.toMatchObject({
      code: 'TARGET_NOT_ALLOWED',
    });
    await expect(check(port, { port: 70_000 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  test('nothing listening, or no TLS spoken: an upstream error that says which', async () => {
    const closed = await freePort();
    await expect(check(closed)).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
      message: `[netdiag] [target] cannot connect to 127.0.0.1:${closed}: connection refused (nothing listens on that port)`,
    });
    const plain = await startHttpTarget({ routes: {} });
    try {
      const error = await check(Number(new URL(plain.url).port)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'UPSTREAM_ERROR' });
      expect((error as Error).message).toMatch(/no TLS handshake with 127\.0\.0\.1:\d+: /);
    } finally {
      await plain.close();
    }
  });

  test('a modern TLS 1.3 server with h2 and a stapled OCSP response: A, every fact right', async () => {
    const port = await serve({
      cert: pki.files.leaf,
      key: pki.files.leafKey,
      chain: [pki.files.intermediate],
      args: ['-tls1_3', '-alpn', 'h2', '-status_file', pki.files.ocsp],
    });
    const r = await check(port);
    expect(r.protocols.map((p) => [p.protocol, p.accepted])).toEqual([
      ['SSLv2', null],
      ['SSLv3', null],
      ['TLSv1', false],
      ['TLSv1.1', false],
      ['TLSv1.2', false],
      ['TLSv1.3', true],
    ]);
    expect(r.cipher_suites).toHaveLength(1);
    expect(r.cipher_suites[0]?.suites.map((s) => s.iana).sort()).toEqual(
      ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'].sort(),
    );
    for (const s of r.cipher_suites[0]?.suites ?? []) {
      expect(s).toMatchObject({ aead: true, forward_secrecy: true, strength: 'strong' });
    }
    expect(r.negotiated.protocol).toBe('TLSv1.3');
    expect(r.alpn).toEqual({ h2: true, http11: false });
    expect(r.ocsp_stapling).toBe(true);
    const leaf = new X509Certificate(readFileSync(pki.files.leaf));
    expect(r.certificates).toHaveLength(2); // leaf + intermediate, as served
    expect(r.certificates[0]).toMatchObject({
      subject: 'CN=tls.test',
      issuer: 'CN=netdiag test intermediate',
      san: ['tls.test', '127.0.0.1'],
      key_type: 'RSA',
      key_bits: 2048,
      signature_algorithm: 'sha256WithRSAEncryption',
      sha256: leaf.fingerprint256,
      self_signed: false,
      ca: false,
    });
    expect(r.certificates[0]?.days_left).toBeGreaterThanOrEqual(88);
    expect(r.certificates[1]).toMatchObject({ subject: 'CN=netdiag test intermediate', ca: true });
    expect(r.chain).toMatchObject({
      served: 2,
      complete: true,
      trusted: true,
      error: null,
      hostname_match: true,
      expired: false,
      order: null, // TLS 1.3 only: the certificate list is encrypted
    });
    expect(r.grade).toBe('A');
    expect(r.caps).toEqual([]);
  });

  test('an expired leaf: F, with the reason named', async () => {
    const port = await serve({
      cert: pki.files.expired,
      key: pki.files.expiredKey,
      chain: [pki.files.intermediate],
    });
    const r = await check(port);
    expect(r.chain).toMatchObject({ expired: true, trusted: false, error: 'CERT_HAS_EXPIRED' });
    expect(r.certificates[0]?.days_left).toBeLessThan(0);
    expect(r.grade).toBe('F');
    expect(r.caps).toContainEqual(
      expect.objectContaining({ grade: 'F', reason: 'the certificate has expired' }),
    );
  });

  test('a self-signed leaf: T, and the grade it would have', async () => {
    const port = await serve({ cert: pki.files.selfSigned, key: pki.files.selfSignedKey });
    const r = await check(port);
    expect(r.chain).toMatchObject({ self_signed: true, trusted: false, served: 1 });
    expect(r.chain.error).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(r.grade).toBe('T');
    expect(r.grade_ignoring_trust).toMatch(/^[AB]/);
  });

  test('a certificate for another name: M', async () => {
    const port = await serve({
      cert: pki.files.wrongHost,
      key: pki.files.wrongHostKey,
      chain: [pki.files.intermediate],
    });
    const r = await check(port);
    expect(r.chain.hostname_match).toBe(false);
    expect(r.certificates[0]?.san).toEqual(['other.test']);
    expect(r.grade).toBe('M');
  });

  test('an incomplete chain (no intermediate sent): capped at B', async () => {
    const port = await serve({ cert: pki.files.leaf, key: pki.files.leafKey });
    const r = await check(port);
    expect(r.chain).toMatchObject({ served: 1, complete: false, trusted: false });
    expect(r.caps).toContainEqual(expect.objectContaining({ grade: 'B', rule: '2009i' }));
  });

  test('TLS 1.0 only with an RSA 1024 key: the protocol found, the key and the caps named', async () => {
    const port = await serve({
      cert: pki.files.rsa1024,
      key: pki.files.rsa1024Key,
      chain: [pki.files.intermediate],
      args: ['-tls1', '-cipher', 'ALL:@SECLEVEL=0'],
    });
    const r = await check(port);
    expect(r.protocols.filter((p) => p.accepted).map((p) => p.protocol)).toEqual(['TLSv1']);
    expect(r.certificates[0]).toMatchObject({ key_type: 'RSA', key_bits: 1024 });
    expect(r.cipher_suites[0]?.protocol).toBe('TLSv1');
    expect(r.cipher_suites[0]?.suites.length).toBeGreaterThan(3);
    // `-cipher ALL` includes anonymous suites (aNULL): no authentication fails the server.
    const anon = r.cipher_suites[0]?.suites.filter((s) => s.authentication === 'anon') ?? [];
    expect(anon.length).toBeGreaterThan(0);
    for (const s of anon) expect(s.strength).toBe('insecure');
    expect(r.scores.key_exchange).toBe(0);
    expect(r.grade).toBe('F');
    const reasons = r.caps.map((c) => c.reason);
    expect(reasons).toContain('anonymous key exchange (no server authentication) is accepted');
    expect(reasons).toContain('TLS 1.2 is not supported');
    expect(reasons).toContain('TLS 1.0 or TLS 1.1 is supported');
    expect(reasons).toContain('the key is shorter than 2048 bits');
  });

  test('a chain sent out of order (root before intermediate): order "wrong", still complete', async () => {
    const port = await serve({
      cert: pki.files.leaf,
      key: pki.files.leafKey,
      chain: [pki.files.root, pki.files.intermediate],
      args: ['-tls1_2'],
    });
    const r = await check(port);
    expect(r.chain).toMatchObject({ order: 'wrong', served: 3, complete: true, trusted: true });
    expect(r.certificates.map((c) => c.subject)).toEqual([
      'CN=tls.test',
      'CN=netdiag test root',
      'CN=netdiag test intermediate',
    ]);
  });

  test('an ECDSA P-256 server: key and suites ECDSA, server order kept', async () => {
    const port = await serve({
      cert: pki.files.ecdsa,
      key: pki.files.ecdsaKey,
      chain: [pki.files.intermediate],
      args: [
        '-tls1_2',
        '-serverpref',
        '-cipher',
        'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-SHA',
      ],
    });
    const r = await check(port);
    expect(r.certificates[0]).toMatchObject({
      key_type: 'EC',
      curve: 'prime256v1',
      key_bits: 256,
      signature_algorithm: 'sha256WithRSAEncryption', // signed by the RSA intermediate
    });
    const tls12 = r.cipher_suites.find((p) => p.protocol === 'TLSv1.2');
    expect(tls12?.server_preference).toBe(true);
    expect(tls12?.suites.map((s) => s.name)).toEqual([
      'ECDHE-ECDSA-AES256-GCM-SHA384',
      'ECDHE-ECDSA-AES128-GCM-SHA256',
      'ECDHE-ECDSA-AES128-SHA',
    ]);
    expect(r.chain).toMatchObject({ order: 'correct', served: 2 });
    expect(tls12?.suites[2]).toMatchObject({
      aead: false,
      strength: 'acceptable',
      authentication: 'ECDSA',
    });
    expect(r.grade).toBe('A');
  });
});

describe.skipIf(!haveOpenssl)('TLS facts in the site probes', () => {
  test('checkSite and gradeSecurityHeaders report protocol, suite, days left and ALPN', async () => {
    const port = await serve({
      cert: pki.files.leaf,
      key: pki.files.leafKey,
      chain: [pki.files.intermediate],
      args: ['-alpn', 'h2,http/1.1'],
    });
    const options = { allowedTargets: ['127.0.0.0/8'], ca: pki.rootPem };
    const site = await checkSite(`https://127.0.0.1:${port}/`, options);
    expect(site.is_up).toBe(true);
    expect(site.tls).toMatchObject({
      trusted: true,
      protocol: 'TLSv1.3',
      cipher: expect.stringMatching(/^TLS_/),
      alpn: 'h2',
    });
    expect(site.tls?.days_left).toBeGreaterThanOrEqual(88);
    const graded = await gradeSecurityHeaders(`https://127.0.0.1:${port}/`, {
      ...options,
      checkRedirection: false,
    });
    expect(graded.tls).toEqual(site.tls);
    // Over plain http there is no TLS to describe.
    const plain = await startHttpTarget({ routes: { '/': (_req, res) => void res.end('ok') } });
    try {
      expect((await checkSite(`${plain.url}/`, options)).tls).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
