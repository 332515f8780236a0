/**
 * The resolver's DNSSEC options against real servers: the DO bit brings RRSIGs (and the records
 * carry their rdata), the CD bit gets data a validating resolver would refuse, the AD flag says
 * what Unbound validated, and Unbound's Extended DNS Errors (RFC 8914) reach the response.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createResolver } from '../../src/net/resolver.js';
import { type DnssecBench, dnssecToolsPresent, startDnssecBench } from './harness.js';

const present = dnssecToolsPresent();

describe.skipIf(!present)('resolver DO, CD, AD and Extended DNS Errors', () => {
  let bench: DnssecBench;
  beforeAll(async () => {
    bench = await startDnssecBench();
  }, 60_000);
  afterAll(async () => {
    await bench?.close();
  });

  test('DO brings the RRSIGs and the rdata; without it neither', async () => {
    const resolver = createResolver({ servers: [bench.nsd.address], cache: false });
    const signed = await resolver.query('www.p256.example', 'A', { dnssecOk: true });
    expect(signed.answers.map((r) => r.type).sort()).toEqual(['A', 'RRSIG']);
    // 192.0.2.1 in wire form.
    expect(signed.answers.find((r) => r.type === 'A')?.rdata).toBe('c0000201');
    const plain = await resolver.query('www.p256.example', 'A');
    expect(plain.answers.map((r) => r.type)).toEqual(['A']);
    expect(plain.answers[0]?.rdata).toBeUndefined();
  });

  test('the cache keeps DO and plain answers apart', async () => {
    const resolver = createResolver({ servers: [bench.nsd.address] });
    await resolver.query('www.rsa.example', 'A');
    const signed = await resolver.query('www.rsa.example', 'A', { dnssecOk: true });
    expect(signed.answers.some((r) => r.type === 'RRSIG')).toBe(true);
    const plain = await resolver.query('www.rsa.example', 'A');
    expect(plain.transport).toBe('cache');
    expect(plain.answers.some((r) => r.type === 'RRSIG')).toBe(false);
  });

  test('AD is set by Unbound for a secure answer and not for an insecure one', async () => {
    const resolver = createResolver({ servers: [bench.unbound.address], cache: false });
    const secure = await resolver.query('www.ed25519.example', 'A', { dnssecOk: true });
    expect(secure.rcode).toBe('NOERROR');
    expect(secure.authenticated).toBe(true);
    const insecure = await resolver.query('www.unsigned.sample', 'A', { dnssecOk: true });
    expect(insecure.rcode).toBe('NOERROR');
    expect(insecure.authenticated).toBe(false);
  });

  test('a bogus answer is SERVFAIL with an Extended DNS Error, and CD gets the data', async () => {
    const resolver = createResolver({ servers: [bench.unbound.address], cache: false, tries: 1 });
    const refused = await resolver.query('www.expired.example', 'A', { dnssecOk: true });
    expect(refused.rcode).toBe('SERVFAIL');
    // Unbound 1.17 reports INFO-CODE 7, Signature Expired (RFC 8914 §4.8).
    expect(refused.extendedErrors?.[0]).toMatchObject({ code: 7, name: 'Signature Expired' });
    expect(refused.extendedErrors?.[0]?.text).toMatch(/expired/);
    const unchecked = await resolver.query('www.expired.example', 'A', {
      dnssecOk: true,
      checkingDisabled: true,
    });
    expect(unchecked.rcode).toBe('NOERROR');
    expect(unchecked.authenticated).toBe(false);
    expect(unchecked.answers.find((r) => r.type === 'A')?.data).toBe('192.0.2.1');
  });

  test('the root can be asked for (its DNSKEY)', async () => {
    const resolver = createResolver({ servers: [bench.nsd.address], cache: false });
    const keys = await resolver.query('.', 'DNSKEY', { dnssecOk: true });
    expect(keys.answers.filter((r) => r.type === 'DNSKEY').length).toBe(2);
    expect(keys.answers[0]?.name).toBe('');
  });
});
