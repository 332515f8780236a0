/**
 * `GET /api/dnssec` and the DNSSEC facts of `GET /api/v1/dns/:domain` over real HTTP, against
 * zones signed by dnssec-signzone/ldns-signzone and served by NSD on loopback (issue 19).
 */
import { createNetdiag, type Netdiag } from '@netdiag/core';
import {
  type BuiltHierarchy,
  buildSignedHierarchy,
  dnssecTestTree,
  type LoopbackDnsProcess,
  signedTreeToolsPresent,
  startNsd,
  tempDir,
} from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../src/app.js';
import { closeContext } from '../src/context.js';
import { expectMatchesSchema } from './expect-schema.js';

const present = signedTreeToolsPresent();

describe.skipIf(!present)('GET /api/dnssec', () => {
  let built: BuiltHierarchy;
  let nsd: LoopbackDnsProcess;
  let engine: Netdiag;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    built = buildSignedHierarchy(tempDir('netdiag-http-dnssec-'), dnssecTestTree());
    nsd = await startNsd(built.zones);
    engine = createNetdiag({
      dnsServers: [nsd.address],
      dnssecTrustAnchors: built.trustAnchor,
    });
    app = createApp({ logLevel: 'silent', env: false, engine });
  }, 60_000);
  afterAll(async () => {
    if (app) await closeContext(app.locals.netdiag);
    await engine?.close();
    await nsd?.close();
  });

  test('a secure answer with its chain, in the documented shape', async () => {
    const res = await request(app).get('/api/dnssec?domain=www.ed25519.example&type=a');
    expect(res.status).toBe(200);
    const data = expectMatchesSchema('validateDnssec', res.body);
    expect(data.status).toBe('secure');
    expect(data.chain.map((l) => l.zone)).toEqual(['.', 'example.', 'ed25519.example.']);
    expect(data.chain[2]?.dnskeys.every((k) => k.algorithm === 15)).toBe(true);
    expect(data.answer?.records).toEqual(['www.ed25519.example. 300 IN A 192.0.2.1']);
  });

  test('bogus names the failing link; insecure carries the proof of no DS', async () => {
    const bogus = expectMatchesSchema(
      'validateDnssec',
      (await request(app).get('/api/dnssec?domain=www.nokey.example')).body,
    );
    expect(bogus.status).toBe('bogus');
    expect(bogus.failure).toMatchObject({ zone: 'nokey.example.', rrset: 'nokey.example. DNSKEY' });
    const insecure = expectMatchesSchema(
      'validateDnssec',
      (await request(app).get('/api/dnssec?domain=www.unsigned.sample')).body,
    );
    expect(insecure.status).toBe('insecure');
    expect(insecure.chain.at(-1)?.no_ds_proof?.kind).toBe('nsec');
  });

  test.each([
    ['', /Missing required parameter "domain"/],
    ['domain=www.p256.example&type=ANY', /"type" must be one of A, AAAA/],
    ['domain=192.0.2.1', /not an IP address|domain/],
  ])('?%s → 400', async (query, message) => {
    const res = await request(app).get(`/api/dnssec?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  test('v1 DNS: HTTPS decoded, RRSIGs with dnssec=1, and the AD flag field', async () => {
    const plain = await request(app).get('/api/v1/dns/svc.p256.example?type=HTTPS');
    const data = expectMatchesSchema('dnsLookupV1', plain.body);
    expect(data.authenticated).toBe(false);
    expect(data.records).toHaveLength(1);
    expect(data.records[0]?.svc_params).toMatchObject({ priority: 1, params: { port: 8443 } });
    const signed = await request(app).get('/api/v1/dns/svc.p256.example?type=HTTPS&dnssec=1');
    const withSigs = expectMatchesSchema('dnsLookupV1', signed.body);
    expect(withSigs.records.map((r) => r.type).sort()).toEqual([46, 65]);
    const bad = await request(app).get('/api/v1/dns/svc.p256.example?type=HTTPS&dnssec=yes');
    expect(bad.status).toBe(400);
  });
});
