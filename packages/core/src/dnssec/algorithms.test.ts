import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { importDnskey } from './algorithms.js';

/** An RFC 3110 §2 public key: exponent length, exponent, modulus. */
function rsaDnskey(exponent: Buffer): Buffer {
  const jwk = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({
    format: 'jwk',
  });
  return Buffer.concat([
    Buffer.from([exponent.length]),
    exponent,
    Buffer.from(jwk.n as string, 'base64url'),
  ]);
}

describe('importDnskey', () => {
  test('RSA exponents up to 64 bits are imported, longer ones refused', () => {
    expect(importDnskey(8, rsaDnskey(Buffer.from([1, 0, 1]))).asymmetricKeyType).toBe('rsa');
    expect(importDnskey(8, rsaDnskey(Buffer.from('8000000000000001', 'hex')))).toBeDefined();
    // Up to the modulus' length, a long exponent makes one verification ~100 times dearer.
    const long = Buffer.alloc(9, 0xff);
    expect(() => importDnskey(8, rsaDnskey(long))).toThrow(/exponent over 64 bits/);
  });
});
