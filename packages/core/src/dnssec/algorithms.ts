/**
 * Signature verification per DNSSEC algorithm with node:crypto: the DNSKEY public key formats of
 * RFC 3110 §2 (RSA), RFC 6605 §4 (ECDSA: Q = x | y) and RFC 8080 §3 (Ed25519), imported as JWK;
 * ECDSA signatures are r | s (RFC 6605 §4), which node calls `ieee-p1363`.
 * @module
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';

/** The algorithms netdiag validates (RFC 8624 §3.1: the MUST and RECOMMENDED ones to validate). */
export const SUPPORTED_ALGORITHMS: Readonly<Record<number, string>> = {
  8: 'RSASHA256',
  13: 'ECDSAP256SHA256',
  14: 'ECDSAP384SHA384',
  15: 'ED25519',
};

/** IANA "DNS Security Algorithm Numbers" mnemonics, for messages about the others. */
const ALGORITHM_NAMES: Readonly<Record<number, string>> = {
  1: 'RSAMD5',
  3: 'DSA',
  5: 'RSASHA1',
  6: 'DSA-NSEC3-SHA1',
  7: 'RSASHA1-NSEC3-SHA1',
  10: 'RSASHA512',
  12: 'ECC-GOST',
  16: 'ED448',
  ...SUPPORTED_ALGORITHMS,
};

export const algorithmName = (algorithm: number) =>
  ALGORITHM_NAMES[algorithm] ?? `algorithm ${algorithm}`;

export const isSupportedAlgorithm = (algorithm: number) => algorithm in SUPPORTED_ALGORITHMS;

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/** RSA public exponents of at most 64 bits (RFC 3110 §2 allows up to 4096). */
export const MAX_RSA_EXPONENT_BYTES = 8;

/** The public key of a DNSKEY as a node KeyObject; throws on a malformed key. */
export function importDnskey(algorithm: number, publicKey: Buffer): KeyObject {
  switch (algorithm) {
    case 8: {
      // RFC 3110 §2: exponent length in one octet, or zero and then two octets.
      let at = 1;
      let expLength = publicKey[0] as number;
      if (expLength === 0) {
        expLength = publicKey.readUInt16BE(1);
        at = 3;
      }
      const e = publicKey.subarray(at, at + expLength);
      const n = publicKey.subarray(at + expLength);
      if (e.length !== expLength || n.length === 0) throw new Error('malformed RSA key');
      // A long exponent makes each verification far slower: OpenSSL refuses over 64 bits above
      // 3072-bit moduli (OPENSSL_RSA_MAX_PUBEXP_BITS); netdiag at every size.
      if (expLength > MAX_RSA_EXPONENT_BYTES) throw new Error('RSA exponent over 64 bits');
      return createPublicKey({ key: { kty: 'RSA', n: b64url(n), e: b64url(e) }, format: 'jwk' });
    }
    case 13:
    case 14: {
      const size = algorithm === 13 ? 32 : 48;
      if (publicKey.length !== size * 2) throw new Error('malformed ECDSA key');
      return createPublicKey({
        key: {
          kty: 'EC',
          crv: algorithm === 13 ? 'P-256' : 'P-384',
          x: b64url(publicKey.subarray(0, size)),
          y: b64url(publicKey.subarray(size)),
        },
        format: 'jwk',
      });
    }
    case 15:
      if (publicKey.length !== 32) throw new Error('malformed Ed25519 key');
      return createPublicKey({
        key: { kty: 'OKP', crv: 'Ed25519', x: b64url(publicKey) },
        format: 'jwk',
      });
    default:
      throw new Error(`unsupported algorithm ${algorithm}`);
  }
}

/** Whether `signature` over `data` verifies with the key (false on any crypto error). */
export function verifySignature(
  algorithm: number,
  key: KeyObject,
  data: Buffer,
  signature: Buffer,
): boolean {
  try {
    switch (algorithm) {
      case 8:
        // RSASSA-PKCS1-v1_5 with SHA-256 (RFC 5702 §3).
        return verify('sha256', data, key, signature);
      case 13:
        return verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
      case 14:
        return verify('sha384', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
      case 15:
        return verify(null, data, key, signature);
      default:
        return false;
    }
  } catch {
    return false;
  }
}
