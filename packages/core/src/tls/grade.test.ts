/** The SSL Labs rating on constructed inputs: the score arithmetic and each cap's rule. */
import { describe, expect, test } from 'vitest';
import { type GradeInput, rateTls, rsaEquivalentBits } from './grade.js';

const strong = {
  protocol: 'TLSv1.3',
  bits: 256,
  cipher: 'AES-256-GCM',
  aead: true,
  forward_secrecy: true,
  anonymous: false,
  kx_bits: 3072,
};
const good: GradeInput = {
  protocols: ['TLSv1.2', 'TLSv1.3'],
  suites: [strong, { ...strong, protocol: 'TLSv1.2', bits: 128, cipher: 'AES-128-GCM' }],
  key_bits_rsa_equivalent: 2048,
  dh_bits: null,
  trusted: true,
  hostname_match: true,
  expired: false,
  not_yet_valid: false,
  chain_complete: true,
  signature_algorithm: 'sha256WithRSAEncryption',
  hsts_max_age: null,
};

describe('rateTls', () => {
  test('score = 0.3 protocol + 0.3 key exchange + 0.4 cipher (guide, Scoring)', () => {
    const r = rateTls(good);
    // protocol (100+100)/2, key exchange 2048 → 90, cipher (100 + 80)/2 = 90
    expect([r.protocol_score, r.key_exchange_score, r.cipher_score]).toEqual([100, 90, 90]);
    expect(r.score).toBe(Math.round(0.3 * 100 + 0.3 * 90 + 0.4 * 90));
    expect(r.grade).toBe('A');
    expect(r.caps).toEqual([]);
  });

  test('A+ needs HSTS of at least six months and no SHA-1 signature', () => {
    expect(rateTls({ ...good, hsts_max_age: 15_768_000 }).grade).toBe('A+');
    expect(rateTls({ ...good, hsts_max_age: 15_767_999 }).grade).toBe('A');
    expect(
      rateTls({ ...good, hsts_max_age: 31_536_000, signature_algorithm: 'sha1WithRSAEncryption' })
        .grade,
    ).toBe('A');
  });

  test.each([
    [{ protocols: ['TLSv1', 'TLSv1.2'] }, 'B', 'TLS 1.0 or TLS 1.1 is supported'],
    [{ protocols: ['TLSv1', 'TLSv1.1'] }, 'C', 'TLS 1.2 is not supported'],
    [{ key_bits_rsa_equivalent: 1024 }, 'B', 'the key is shorter than 2048 bits'],
    [{ key_bits_rsa_equivalent: 512 }, 'F', 'the key is shorter than 1024 bits'],
    [{ dh_bits: 1024 }, 'B', 'weak Diffie-Hellman parameters (1024 bits)'],
    [{ chain_complete: false }, 'B', 'the chain is incomplete (an intermediate is missing)'],
    [{ expired: true }, 'F', 'the certificate has expired'],
    [{ not_yet_valid: true }, 'F', 'the certificate is not yet valid'],
    [
      { signature_algorithm: 'md5WithRSAEncryption' },
      'F',
      'insecure certificate signature (md5WithRSAEncryption)',
    ],
    [{ suites: [{ ...strong, forward_secrecy: false }] }, 'B', 'no suite offers forward secrecy'],
    [
      { suites: [{ ...strong, aead: false, cipher: 'AES-256-CBC' }] },
      'A-',
      'no AEAD suite (GCM, CCM, ChaCha20-Poly1305)',
    ],
    [
      {
        suites: [
          strong,
          { ...strong, protocol: 'TLSv1.2', cipher: '3DES-EDE-CBC', bits: 112, aead: false },
        ],
      },
      'C',
      '3DES (64-bit blocks) is used with TLS 1.1 or newer',
    ],
    [
      { suites: [{ ...strong, anonymous: true }] },
      'F',
      'anonymous key exchange (no server authentication) is accepted',
    ],
  ] as [Partial<GradeInput>, string, string][])('%j → %s (%s)', (change, grade, reason) => {
    const r = rateTls({ ...good, ...change });
    expect(r.grade).toBe(grade);
    expect(r.caps.map((c) => c.reason)).toContain(reason);
  });

  test('trust and name are out of scope: T and M, with the grade the configuration earns', () => {
    const untrusted = rateTls({ ...good, trusted: false });
    expect([untrusted.grade, untrusted.grade_ignoring_trust]).toEqual(['T', 'A']);
    const mismatch = rateTls({ ...good, hostname_match: false, trusted: false });
    expect([mismatch.grade, mismatch.grade_ignoring_trust]).toEqual(['M', 'A']);
  });

  test('elliptic-curve strength in RSA terms (NIST SP 800-57)', () => {
    expect([253, 256, 384, 521].map(rsaEquivalentBits)).toEqual([3072, 3072, 7680, 15360]);
  });
});
