import { describe, expect, test } from 'vitest';
import { InvalidInputError } from '../errors.js';
import { IANA_ROOT_ANCHORS, parseTrustAnchors } from './trust-anchor.js';

describe('parseTrustAnchors', () => {
  test('reads the IANA root anchors', () => {
    const anchor = parseTrustAnchors(IANA_ROOT_ANCHORS);
    expect(anchor.zone).toBe('');
    expect(anchor.records.map((r) => (r.type === 'DS' ? r.keyTag : 0))).toEqual([20326, 38696]);
  });

  test('takes TTL and class, split digests and DNSKEY records', () => {
    const anchor = parseTrustAnchors([
      'example. 3600 IN DS 1 13 2 AB CD ; comment',
      'example. DNSKEY 257 3 13 AAEC AwQ=',
    ]);
    expect(anchor.zone).toBe('example');
    expect(anchor.records[0]).toMatchObject({ type: 'DS', keyTag: 1, digest: 'abcd' });
    expect(anchor.records[1]).toMatchObject({ type: 'DNSKEY', flags: 257, publicKey: 'AAECAwQ=' });
  });

  test('refuses other records, mixed zones and nothing', () => {
    expect(() => parseTrustAnchors('. IN A 192.0.2.1')).toThrow(InvalidInputError);
    expect(() => parseTrustAnchors(['. DS 1 8 2 AA', 'example. DS 1 8 2 AA'])).toThrow(/same zone/);
    expect(() => parseTrustAnchors('  ')).toThrow(InvalidInputError);
  });
});
