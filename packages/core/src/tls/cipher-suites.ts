/**
 * What a negotiated cipher suite means, read from its IANA name (RFC 8446 §B.4 for TLS 1.3,
 * the TLS Cipher Suites registry for the rest).
 * @module
 */
import type { z } from 'zod';
import type { suiteSchema } from './schema.js';

/** What a suite's IANA name tells: an accepted suite without its protocol and group. */
export type CipherSuiteInfo = Omit<
  z.output<typeof suiteSchema>,
  'protocol' | 'group' | 'group_bits'
>;

/**
 * `strong`: AEAD with forward secrecy and ≥ 128 bits; `acceptable`: ≥ 128 bits but CBC or no
 * forward secrecy; `weak`: 64-bit blocks (3DES), RC4 or < 128 bits; `insecure`: no encryption,
 * no authentication or export-grade.
 */
export type CipherStrength = CipherSuiteInfo['strength'];

/** Bits per bulk cipher (the name part after `WITH_`). 3DES gives 112 bits (NIST SP 800-57). */
function bulk(part: string): { cipher: string; bits: number; aead: boolean } {
  const p = part.replace(/_(SHA|SHA256|SHA384|MD5)$/, '');
  if (p === 'NULL') return { cipher: 'NULL', bits: 0, aead: false };
  if (p.startsWith('CHACHA20_POLY1305'))
    return { cipher: 'CHACHA20-POLY1305', bits: 256, aead: true };
  if (p.startsWith('3DES_EDE')) return { cipher: '3DES-EDE-CBC', bits: 112, aead: false };
  if (p.startsWith('RC4_128')) return { cipher: 'RC4-128', bits: 128, aead: false };
  if (p.startsWith('RC4_40')) return { cipher: 'RC4-40', bits: 40, aead: false };
  if (p.startsWith('DES40')) return { cipher: 'DES40-CBC', bits: 40, aead: false };
  if (p.startsWith('DES_CBC')) return { cipher: 'DES-CBC', bits: 56, aead: false };
  const block = /^(AES|CAMELLIA|ARIA|SEED|IDEA)_?(\d+)?_?(GCM|CCM_8|CCM|CBC)?/.exec(p);
  if (block) {
    const family = block[1] as string;
    const bits = block[2] ? Number(block[2]) : 128; // SEED and IDEA are 128-bit ciphers
    const mode = block[3] ?? 'CBC';
    return {
      cipher: `${family}-${bits}-${mode.replace('_', '-')}`,
      bits,
      aead: mode === 'GCM' || mode.startsWith('CCM'),
    };
  }
  return { cipher: p.replace(/_/g, '-'), bits: 0, aead: false };
}

/**
 * Describes a suite from its IANA name (Node's `getCipher().standardName`) and OpenSSL name.
 * TLS 1.3 suites (`TLS_AES_128_GCM_SHA256`) always use (EC)DHE: forward secrecy by design
 * (RFC 8446 §2).
 */
export function describeCipherSuite(iana: string, name = iana): CipherSuiteInfo {
  const withAt = iana.indexOf('_WITH_');
  let key_exchange: string;
  let authentication: string;
  let rest: string;
  if (withAt === -1) {
    // TLS 1.3: TLS_<AEAD>_<HASH>
    key_exchange = 'ECDHE';
    authentication = 'certificate';
    rest = iana.replace(/^TLS_/, '');
  } else {
    const kx = iana.slice(4, withAt); // between TLS_ (or SSL_) and _WITH_
    rest = iana.slice(withAt + 6);
    const parts = kx.split('_');
    key_exchange = parts[0] as string;
    authentication = parts[1] ?? (key_exchange === 'RSA' ? 'RSA' : key_exchange);
    if (parts.includes('anon')) authentication = 'anon';
    if (kx.includes('EXPORT')) key_exchange = `${key_exchange}-EXPORT`;
  }
  const { cipher, bits, aead } = bulk(rest);
  const forward_secrecy = /^(ECDHE|DHE|EDH)/.test(key_exchange);
  let strength: CipherStrength;
  if (bits === 0 || authentication === 'anon' || key_exchange.endsWith('EXPORT')) {
    strength = 'insecure';
  } else if (bits < 128 || cipher.startsWith('RC4') || cipher.startsWith('3DES')) {
    strength = 'weak';
  } else if (aead && forward_secrecy) strength = 'strong';
  else strength = 'acceptable';
  return {
    name,
    iana,
    key_exchange,
    authentication,
    cipher,
    bits,
    aead,
    forward_secrecy,
    strength,
  };
}
