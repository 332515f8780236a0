/**
 * The grade, following the SSL Labs SSL Server Rating Guide (version 2009 and its changes
 * through 2020): a score, a letter, then the rules that cap or lift it, each named in the answer.
 * Sources: github.com/ssllabs/research (docs/SSL_Server_Rating_Guide.xml, changes 2009c–2009k);
 * SSL Labs blog posts "Announcing SSL Labs Grading Changes for 2017" (3DES with TLS 1.1+ → C)
 * and "Grade Change for TLS 1.0 and TLS 1.1 Protocols" (cap B from January 2020); the 2018
 * changes (no forward secrecy → B, no AEAD → A-).
 * @module
 */
import type { TlsData } from './schema.js';

/** A letter of the SSL Labs guide, T (untrusted) or M (name mismatch): the answer's `grade`. */
export type TlsGrade = TlsData['grade'];

export interface GradeInput {
  /** Accepted protocol versions: `SSLv2`, `SSLv3`, `TLSv1`, `TLSv1.1`, `TLSv1.2`, `TLSv1.3`. */
  protocols: readonly string[];
  /** Every accepted suite, with the protocol it was accepted with. */
  suites: readonly {
    protocol: string;
    bits: number;
    cipher: string;
    aead: boolean;
    forward_secrecy: boolean;
    /** No server authentication (`DH_anon`, `ECDH_anon`). */
    anonymous: boolean;
    /** Strength of this handshake's key exchange in RSA-equivalent bits. */
    kx_bits: number;
  }[];
  /** Leaf key in RSA-equivalent bits. */
  key_bits_rsa_equivalent: number;
  /** Smallest finite-field DH group seen (bits), if any DHE suite. */
  dh_bits: number | null;
  trusted: boolean;
  hostname_match: boolean;
  expired: boolean;
  not_yet_valid: boolean;
  chain_complete: boolean;
  /** Signature algorithm of the leaf. */
  signature_algorithm: string;
  /** HSTS max-age in seconds, if the HTTPS answer had HSTS. */
  hsts_max_age: number | null;
}

/** A rule that capped (`F` fails) or lifted (`A+`) the grade, with its source: a `caps` entry. */
export type GradeCap = TlsData['caps'][number];

/** The grader's result, before `checkTls` places it in the answer (`scores`, `caps`, …). */
export interface TlsRating {
  grade: TlsGrade;
  /** The grade the configuration earns if its certificate were trusted and matched (for T/M). */
  grade_ignoring_trust: TlsGrade;
  score: number;
  protocol_score: number;
  key_exchange_score: number;
  cipher_score: number;
  caps: GradeCap[];
}

const PROTOCOL_SCORE: Record<string, number> = {
  SSLv2: 0,
  SSLv3: 80,
  TLSv1: 90,
  'TLSv1.1': 95,
  'TLSv1.2': 100,
  'TLSv1.3': 100,
};

/** `values[i]` for the first of `mins` (descending) that `x` reaches, else `below`. */
function ladder<T>(x: number, mins: number[], values: T[], below: T): T {
  const i = mins.findIndex((min) => x >= min);
  return i === -1 ? below : (values[i] as T);
}

/** Guide, "Key exchange rating guide". */
const keyExchangeScore = (bits: number) =>
  ladder(bits, [4096, 2048, 1024, 512], [100, 90, 80, 40], 20);

/** Guide, "Cipher strength rating guide". */
const cipherScore = (bits: number) => (bits === 0 ? 0 : ladder(bits, [256, 128], [100, 80], 20));

/** Guide, "Letter grade translation". */
const letter = (score: number) =>
  ladder<TlsGrade>(score, [80, 65, 50, 35, 20], ['A', 'B', 'C', 'D', 'E'], 'F');

/** Protocols after TLS 1.0: no BEAST, so no reason left for RC4 or 3DES there. */
const MODERN = new Set(['TLSv1.1', 'TLSv1.2', 'TLSv1.3']);

const ORDER: TlsGrade[] = ['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F'];
const worse = (a: TlsGrade, b: TlsGrade) => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b);

/**
 * RSA-equivalent strength of an elliptic-curve key or group (NIST SP 800-57 Part 1 Table 2:
 * 256-bit ECC ≈ 3072-bit RSA, 384 ≈ 7680, 521 ≈ 15360), as SSL Labs reports ECDH strength.
 */
export function rsaEquivalentBits(ecBits: number): number {
  const bits = ecBits === 253 ? 256 : ecBits; // X25519 reports 253
  return ladder(bits, [512, 384, 256, 224], [15360, 7680, 3072, 2048], 1024);
}

/** Guide: a score is the average of the best and the worst rating; 0 when there is none. */
const midpoint = (xs: number[]) => (xs.length ? (Math.max(...xs) + Math.min(...xs)) / 2 : 0);

export function rateTls(input: GradeInput): TlsRating {
  const protocol_score = midpoint(input.protocols.map((p) => PROTOCOL_SCORE[p] ?? 0));
  const kxBits = input.suites.length
    ? Math.min(...input.suites.map((s) => s.kx_bits))
    : input.key_bits_rsa_equivalent;
  // Guide: anonymous key exchange (no authentication) scores 0 %.
  const anonymous = input.suites.some((s) => s.anonymous);
  const key_exchange_score = anonymous
    ? 0
    : keyExchangeScore(Math.min(kxBits, input.key_bits_rsa_equivalent));
  const cipher_score = midpoint(input.suites.map((s) => cipherScore(s.bits)));
  const zero = protocol_score === 0 || key_exchange_score === 0 || cipher_score === 0;
  const score = zero
    ? 0
    : Math.round(0.3 * protocol_score + 0.3 * key_exchange_score + 0.4 * cipher_score);

  const caps: GradeCap[] = [];
  const cap = (grade: TlsGrade, reason: string, rule: string) => caps.push({ grade, reason, rule });
  const has = (p: string) => input.protocols.includes(p);
  const modern = input.suites.filter((s) => MODERN.has(s.protocol));

  if (input.expired) cap('F', 'the certificate has expired', 'guide: certificate inspection');
  if (input.not_yet_valid)
    cap('F', 'the certificate is not yet valid', 'guide: certificate inspection');
  if (/md5|md2/i.test(input.signature_algorithm)) {
    cap('F', `insecure certificate signature (${input.signature_algorithm})`, '2009e');
  }
  if (input.key_bits_rsa_equivalent < 1024) cap('F', 'the key is shorter than 1024 bits', '2009e');
  if (has('SSLv2')) cap('F', 'SSL 2.0 is supported', '2009c');
  if (anonymous) {
    cap(
      'F',
      'anonymous key exchange (no server authentication) is accepted',
      'guide: key exchange',
    );
  }
  if (input.suites.length > 0 && input.suites.every((s) => s.cipher.startsWith('RC4'))) {
    cap('F', 'only RC4 suites are supported', '2009k');
  }
  if (input.suites.some((s) => s.bits === 0))
    cap('F', 'a suite without encryption is accepted', 'guide: cipher strength');
  if (!has('TLSv1.2') && !has('TLSv1.3')) cap('C', 'TLS 1.2 is not supported', '2009j');
  if (modern.some((s) => s.cipher.startsWith('RC4')))
    cap('C', 'RC4 is used with TLS 1.1 or newer', '2009j');
  if (modern.some((s) => s.cipher.startsWith('3DES'))) {
    cap('C', '3DES (64-bit blocks) is used with TLS 1.1 or newer', 'SSL Labs 2017 changes');
  }
  if (has('SSLv3')) cap('B', 'SSL 3.0 is supported', '2009h');
  if (has('TLSv1') || has('TLSv1.1'))
    cap('B', 'TLS 1.0 or TLS 1.1 is supported', 'SSL Labs 2020 change');
  if (input.key_bits_rsa_equivalent < 2048) cap('B', 'the key is shorter than 2048 bits', '2009e');
  if (input.dh_bits !== null && input.dh_bits < 2048) {
    cap('B', `weak Diffie-Hellman parameters (${input.dh_bits} bits)`, '2009j');
  }
  if (!input.chain_complete)
    cap('B', 'the chain is incomplete (an intermediate is missing)', '2009i');
  if (input.suites.some((s) => s.cipher.startsWith('RC4'))) cap('B', 'RC4 is supported', '2009i');
  if (input.suites.length > 0 && !input.suites.some((s) => s.forward_secrecy)) {
    cap('B', 'no suite offers forward secrecy', 'SSL Labs 2018 changes');
  }
  if (input.suites.length > 0 && !input.suites.some((s) => s.aead)) {
    cap('A-', 'no AEAD suite (GCM, CCM, ChaCha20-Poly1305)', 'SSL Labs 2018 changes');
  }

  let grade = letter(score);
  for (const c of caps) grade = worse(grade, c.grade);
  // A+: a clean A with HSTS of at least six months (2009e) and no SHA-1 certificate (2009f).
  if (
    grade === 'A' &&
    input.hsts_max_age !== null &&
    input.hsts_max_age >= 15_768_000 &&
    !/sha1/i.test(input.signature_algorithm)
  ) {
    grade = 'A+';
    cap('A+', 'HSTS with max-age of at least 6 months', '2009e');
  }
  const grade_ignoring_trust = grade;
  // Out-of-scope grades (guide, methodology): M for a name mismatch, T for no trust.
  if (!input.hostname_match) {
    grade = 'M';
    cap('M', 'the certificate does not name this host', 'guide: M grade');
  } else if (!input.trusted && grade !== 'F') {
    grade = 'T';
    cap('T', 'the certificate chain is not trusted', 'guide: T grade');
  }
  return {
    grade,
    grade_ignoring_trust,
    score,
    protocol_score,
    key_exchange_score,
    cipher_score,
    caps,
  };
}
