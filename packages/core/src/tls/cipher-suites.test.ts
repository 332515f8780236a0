/** Suite names → what they mean (IANA TLS Cipher Suites registry; RFC 8446 §B.4). */
import { expect, test } from 'vitest';
import { describeCipherSuite } from './cipher-suites.js';

test.each([
  ['TLS_AES_256_GCM_SHA384', 'ECDHE', 'certificate', 'AES-256-GCM', 256, true, true, 'strong'],
  [
    'TLS_CHACHA20_POLY1305_SHA256',
    'ECDHE',
    'certificate',
    'CHACHA20-POLY1305',
    256,
    true,
    true,
    'strong',
  ],
  [
    'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    'ECDHE',
    'RSA',
    'AES-128-GCM',
    128,
    true,
    true,
    'strong',
  ],
  [
    'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA',
    'ECDHE',
    'ECDSA',
    'AES-128-CBC',
    128,
    false,
    true,
    'acceptable',
  ],
  ['TLS_RSA_WITH_AES_256_GCM_SHA384', 'RSA', 'RSA', 'AES-256-GCM', 256, true, false, 'acceptable'],
  [
    'TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA',
    'DHE',
    'RSA',
    'CAMELLIA-256-CBC',
    256,
    false,
    true,
    'acceptable',
  ],
  ['TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'RSA', 'RSA', '3DES-EDE-CBC', 112, false, false, 'weak'],
  ['TLS_RSA_WITH_RC4_128_SHA', 'RSA', 'RSA', 'RC4-128', 128, false, false, 'weak'],
  ['TLS_DH_anon_WITH_AES_128_CBC_SHA', 'DH', 'anon', 'AES-128-CBC', 128, false, false, 'insecure'],
  ['TLS_RSA_WITH_NULL_SHA256', 'RSA', 'RSA', 'NULL', 0, false, false, 'insecure'],
])('%s', (iana, kx, auth, cipher, bits, aead, fs, strength) => {
  expect(describeCipherSuite(iana)).toMatchObject({
    key_exchange: kx,
    authentication: auth,
    cipher,
    bits,
    aead,
    forward_secrecy: fs,
    strength,
  });
});
