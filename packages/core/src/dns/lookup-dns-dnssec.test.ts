/**
 * The DNSSEC facts of `lookupDnsV1` (issue 19): the AD flag, Extended DNS Errors with the
 * resolver's addresses taken out of their text, the DO bit on request, and a SERVFAIL's codes in
 * the error. The resolver is a stand-in at the `DnsResolver` seam; the real EDE path (Unbound) is
 * tested in test/dnssec/resolver-dnssec.test.ts.
 */
import { expect, test } from 'vitest';
import { UpstreamError } from '../errors.js';
import type { DnsQueryOptions, DnsResolver, DnsResponse } from '../net/dns-types.js';
import { lookupDnsV1 } from './lookup-dns.js';

function resolverAnswering(response: Partial<DnsResponse>, seen: DnsQueryOptions[] = []) {
  const resolver: DnsResolver = {
    query: async (name, type, options = {}) => {
      seen.push(options);
      return {
        name,
        type,
        rcode: 'NOERROR',
        answers: [],
        authority: [],
        authenticated: false,
        server: '192.0.2.53:53',
        transport: 'udp',
        ...response,
      };
    },
  };
  return resolver;
}

test('AD and Extended DNS Errors reach the v1 answer, addresses scrubbed from the text', async () => {
  const resolver = resolverAnswering({
    authenticated: true,
    extendedErrors: [
      { code: 3, name: 'Stale Answer', text: 'served stale from 10.1.2.3#53 and 2001:db8::53' },
      { code: 18, name: 'Prohibited' },
    ],
  });
  const result = await lookupDnsV1({ domain: 'example.com' }, { resolver });
  expect(result.authenticated).toBe(true);
  expect(result.extended_errors).toEqual([
    { code: 3, name: 'Stale Answer', text: 'served stale from [address] and [address]' },
    { code: 18, name: 'Prohibited' },
  ]);
});

test('no Extended DNS Errors: no field; the DO bit only when asked', async () => {
  const seen: DnsQueryOptions[] = [];
  const resolver = resolverAnswering({}, seen);
  const plain = await lookupDnsV1({ domain: 'example.com' }, { resolver });
  expect(plain).not.toHaveProperty('extended_errors');
  await lookupDnsV1({ domain: 'example.com', dnssec: true }, { resolver });
  expect(seen.map((o) => o.dnssecOk === true)).toEqual([false, true]);
});

test("a SERVFAIL's Extended DNS Errors are named in the error", async () => {
  const resolver = resolverAnswering({
    rcode: 'SERVFAIL',
    extendedErrors: [{ code: 6, name: 'DNSSEC Bogus', text: 'from 10.0.0.1' }],
  });
  const failure = lookupDnsV1({ domain: 'example.com' }, { resolver });
  await expect(failure).rejects.toThrow(UpstreamError);
  await expect(failure).rejects.toThrow(
    /SERVFAIL for example\.com A \(Extended DNS Error 6 DNSSEC Bogus\)$/,
  );
});
