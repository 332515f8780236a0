/**
 * Facts of each certificate a server presented, with node:crypto's X509Certificate; the
 * signature algorithm, which Node does not expose, is read from the DER (RFC 5280 §4.1.1.2).
 * @module
 */

import type { X509Certificate } from 'node:crypto';
import type { z } from 'zod';
import type { certificateSchema } from './schema.js';

/** Facts of one certificate, an entry of the answer's `certificates`. */
export type CertificateFacts = z.output<typeof certificateSchema>;

/** RFC 5280 / RFC 8410 / RFC 5758 signature algorithm OIDs. */
const SIGNATURE_ALGORITHMS: Record<string, string> = {
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'RSASSA-PSS',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.3.101.112': 'Ed25519',
  '1.3.101.113': 'Ed448',
};

/** Curve sizes in bits (SEC 2, RFC 8410). */
const CURVE_BITS: Record<string, number> = {
  prime256v1: 256,
  secp384r1: 384,
  secp521r1: 521,
  secp256k1: 256,
};

const DAY_MS = 86_400_000;

const KEY_TYPES: Record<string, string> = {
  rsa: 'RSA',
  'rsa-pss': 'RSA-PSS',
  ec: 'EC',
  ed25519: 'Ed25519',
  ed448: 'Ed448',
  dsa: 'DSA',
};

export function certificateFacts(cert: X509Certificate, now: number): CertificateFacts {
  const key = cert.publicKey;
  const { modulusLength, namedCurve } = key.asymmetricKeyDetails ?? {};
  const type = key.asymmetricKeyType ?? 'unknown';
  const curve = namedCurve ?? null;
  const bits =
    modulusLength ??
    (curve ? (CURVE_BITS[curve] ?? 0) : type === 'ed25519' ? 256 : type === 'ed448' ? 456 : 0);
  const validTo = new Date(cert.validTo);
  return {
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    san: (cert.subjectAltName ?? '')
      .split(/,\s*/)
      .filter((entry) => entry !== '')
      .map((entry) => entry.replace(/^(DNS|IP Address):/, '')),
    key_type: KEY_TYPES[type] ?? type,
    key_bits: bits,
    curve,
    signature_algorithm: signatureAlgorithm(cert.raw),
    valid_from: new Date(cert.validFrom).toISOString(),
    valid_to: validTo.toISOString(),
    days_left: Math.floor((validTo.getTime() - now) / DAY_MS),
    sha256: cert.fingerprint256,
    self_signed: cert.checkIssued(cert) && cert.verify(key),
    ca: cert.ca,
  };
}

/** `C=US\nO=Example\nCN=x` → `C=US, O=Example, CN=x`. */
const oneLine = (name: string) => name.split('\n').filter(Boolean).join(', ');

/**
 * The signatureAlgorithm OID of a DER certificate: SEQUENCE { tbsCertificate, SEQUENCE { OID … },
 * BIT STRING }, with a minimal reader for this one field.
 */
export function signatureAlgorithm(der: Buffer): string {
  try {
    let at = header(der, 0).body; // into Certificate
    const tbs = header(der, at);
    at = tbs.body + tbs.length; // past tbsCertificate
    const algorithm = header(der, at); // AlgorithmIdentifier
    const oid = header(der, algorithm.body);
    if (der[algorithm.body] !== 0x06) return 'unknown';
    const text = decodeOid(der.subarray(oid.body, oid.body + oid.length));
    return SIGNATURE_ALGORITHMS[text] ?? text;
  } catch {
    return 'unknown';
  }
}

/** A DER tag-length header at `at`: where the body starts and how long it is (X.690 §8.1.3). */
function header(der: Buffer, at: number): { body: number; length: number } {
  let length = der[at + 1] as number;
  let body = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4) throw new Error('unsupported DER length');
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + (der[body + i] as number);
    body += bytes;
  }
  if (body + length > der.length) throw new Error('truncated DER');
  return { body, length };
}

/** X.690 §8.19: first byte = 40·a + b, then base-128 groups. */
function decodeOid(bytes: Buffer): string {
  const first = bytes[0] as number;
  const arc = Math.min(2, Math.floor(first / 40));
  const parts = [arc, first - 40 * arc];
  let value = 0;
  for (const byte of bytes.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}
