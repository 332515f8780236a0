import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { looksLikeDkimKey, parseDkimKeyRecord } from './key-record.js';

/** A real key of `bits`, base64 of its DER encoding in the given format. */
function rsaKey(bits: number, type: 'spki' | 'pkcs1' = 'spki'): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return publicKey.export({ format: 'der', type }).toString('base64');
}

const ed25519 = (): string => {
  const { publicKey } = generateKeyPairSync('ed25519');
  // RFC 8463 §4: the bare key is the last 32 octets of the SubjectPublicKeyInfo.
  return publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');
};

describe('parseDkimKeyRecord (RFC 6376 §3.6.1)', () => {
  test.each([1024, 2048])('an RSA %i-bit key in SubjectPublicKeyInfo form', (bits) => {
    const record = parseDkimKeyRecord(`v=DKIM1; k=rsa; p=${rsaKey(bits)}`);
    expect(record).toMatchObject({ valid: true, key_type: 'rsa', key_bits: bits, errors: [] });
  });

  test('a bare RSAPublicKey (seen in the wild) is read too', () => {
    expect(parseDkimKeyRecord(`p=${rsaKey(1024, 'pkcs1')}`).key_bits).toBe(1024);
  });

  test('whitespace inside p= and around tags is allowed', () => {
    const key = rsaKey(1024);
    const split = `${key.slice(0, 50)} ${key.slice(50, 120)}\t${key.slice(120)}`;
    const record = parseDkimKeyRecord(` v = DKIM1 ;  h = sha256 ; t = y:s ; p = ${split} ;`);
    expect(record).toMatchObject({
      valid: true,
      key_bits: 1024,
      hash_algorithms: ['sha256'],
      flags: ['y', 's'],
    });
  });

  test('Ed25519 keys (RFC 8463) are 256 bits', () => {
    expect(parseDkimKeyRecord(`v=DKIM1; k=ed25519; p=${ed25519()}`)).toMatchObject({
      valid: true,
      key_type: 'ed25519',
      key_bits: 256,
    });
  });

  test('an empty p= is a revoked key', () => {
    expect(parseDkimKeyRecord('v=DKIM1; p=')).toMatchObject({
      valid: true,
      revoked: true,
      key_bits: null,
    });
  });

  test('defaults: k=rsa, s=*, no flags', () => {
    expect(parseDkimKeyRecord(`p=${rsaKey(1024)}`)).toMatchObject({
      version: null,
      key_type: 'rsa',
      service_types: ['*'],
      flags: [],
    });
  });

  test.each([
    ['v=DKIM2; p=AAAA', 'only DKIM1'],
    ['k=rsa; v=DKIM1; p=AAAA', 'first tag'],
    ['v=DKIM1; k=rsa', 'missing'],
    ['v=DKIM1; p=AAAA; p=BBBB', 'twice'],
  ])('%j is invalid (%s)', (text, message) => {
    const record = parseDkimKeyRecord(text);
    expect(record.valid).toBe(false);
    expect(record.errors.join(' ')).toContain(message);
  });

  test.each([
    ['v=DKIM1; p=not*base64', 'not base64'],
    ['v=DKIM1; p=AAAAAAAA', 'readable rsa'],
    ['v=DKIM1; k=ed25519; p=AAAA', 'readable ed25519'],
  ])('%j has an unreadable key', (text, message) => {
    const record = parseDkimKeyRecord(text);
    expect(record.valid).toBe(true);
    expect(record.key_bits).toBeNull();
    expect(record.errors.join(' ')).toContain(message);
  });

  test.each([
    ['v=DKIM1; p=abc', true],
    ['k=rsa; p=abc', true],
    ['v=spf1 -all', false],
    ['google-site-verification=x', false],
  ])('looksLikeDkimKey(%j) = %s', (text, expected) => {
    expect(looksLikeDkimKey(text)).toBe(expected);
  });
});
