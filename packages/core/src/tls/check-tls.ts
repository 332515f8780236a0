/**
 * `checkTls(host, { port, servername })`: what a TLS server accepts and presents, and a grade.
 * One resolution through the SSRF guard, then handshakes only to the checked address:
 * - each protocol version alone (TLS 1.0–1.3; SSL 2/3 cannot be offered by Node's OpenSSL 3 and
 *   are reported as not testable, never guessed);
 * - per accepted version, the suites in the server's order of preference: offer every suite the
 *   local OpenSSL knows, note the one chosen, take it out, repeat until the server refuses (as
 *   sslscan and testssl.sh do); whether the server enforces its own order is tested by offering
 *   its first two choices reversed;
 * - the chain as served (a handshake that trusts only the leaf, so nothing comes from the local
 *   store), trust against Node's root store, host-name match (RFC 6125 via X509Certificate);
 * - ALPN (h2, http/1.1), a stapled OCSP response, session resumption, HSTS from one HTTPS GET.
 * @module
 */
import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import { InvalidInputError } from '../errors.js';
import { type GuardOptions, normaliseHost, resolveAndCheck } from '../net/guard.js';
import { parseIp } from '../net/ip.js';
import { safeFetch } from '../net/safe-fetch.js';
import { ProbeError, type ProbeFailureKind, ProbeTimeoutError } from '../net/safe-fetch-errors.js';
import { withTimeout } from '../net/signal.js';
import type { TlsData } from '../schemas/tls.js';
import { type CertificateFacts, certificateFacts } from './certificates.js';
import { describeCipherSuite } from './cipher-suites.js';
import { rateTls, rsaEquivalentBits } from './grade.js';
import {
  HandshakeRefused,
  type HandshakeRequest,
  type HandshakeResult,
  type TlsVersion,
  tlsHandshake,
} from './handshake.js';
import { readServedCertificates } from './served-chain.js';

export interface CheckTlsOptions extends GuardOptions {
  /** @default 443 */
  port?: number;
  /** SNI and the name the certificate must match. @default the host (none for IP literals) */
  servername?: string;
  /** Budget of one handshake. @default 5000 */
  handshakeTimeout?: number;
  /** Fetch `https://host:port/` once for HSTS. @default true */
  hsts?: boolean;
  /** Clock for validity and days left. @default Date.now */
  now?: () => number;
  /** CA certificates (PEM) trusted besides Node's root store (an internal CA, tests). */
  ca?: string | readonly string[];
}

/** The answer (the `data` of `GET /api/tls`); its shape is `tlsDataSchema`. */
export type TlsCheckResult = TlsData;
export type ProtocolSupport = TlsData['protocols'][number];
export type AcceptedSuite = TlsData['cipher_suites'][number]['suites'][number];

const VERSIONS: TlsVersion[] = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'];
/** Every TLS 1.3 suite of RFC 8446 §B.4 that OpenSSL implements. */
const TLS13_SUITES = [
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_128_CCM_SHA256',
  'TLS_AES_128_CCM_8_SHA256',
];
/** Upper bound on suites per protocol (OpenSSL 3 knows ~80 for TLS ≤ 1.2). */
const MAX_SUITES = 128;

export async function checkTls(
  host: string,
  options: CheckTlsOptions = {},
): Promise<TlsCheckResult> {
  const started = performance.now();
  const port = options.port ?? 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new InvalidInputError('"port" must be a whole number from 1 to 65535', 'port');
  }
  const target = normaliseHost(host, 'host');
  const now = options.now ?? Date.now;
  const handshakeMs = options.handshakeTimeout ?? 5000;
  return withTimeout({ ...options, timeout: options.timeout ?? 60_000 }, 'tls', async (signal) => {
    const checked = await resolveAndCheck(target.host, { ...options, signal });
    const address = checked.addresses[0] as string;
    const servername = options.servername ?? (parseIp(checked.host) ? undefined : checked.host);
    const base = { address, port, servername, timeoutMs: handshakeMs, signal };
    const shake = (extra: Partial<HandshakeRequest>) => tlsHandshake({ ...base, ...extra });
    const where = `${checked.host.includes(':') ? `[${checked.host}]` : checked.host}:${port}`;
    const attempt = async (extra: Partial<HandshakeRequest>): Promise<HandshakeResult | null> => {
      try {
        return await shake(extra);
      } catch (error) {
        if (error instanceof HandshakeRefused && !error.network) return null;
        throw probeFailure(error, where, handshakeMs);
      }
    };

    // A default handshake first: trust, chain, the leaf. Any failure here ends the check.
    const extraCa = options.ca === undefined ? [] : [options.ca].flat();
    const main = await shakeOrFail(shake, where, handshakeMs, {
      alpn: ['h2', 'http/1.1'],
      requestOcsp: true,
      ...(extraCa.length ? { ca: [...tls.rootCertificates, ...extraCa] } : {}),
    });
    const leaf = main.chain[0];
    if (!leaf) throw new InvalidInputError('the server presented no certificate', 'host');

    const protocols: ProtocolSupport[] = [
      {
        protocol: 'SSLv2',
        accepted: null,
        note: 'not testable: this OpenSSL cannot offer SSL 2.0',
      },
      {
        protocol: 'SSLv3',
        accepted: null,
        note: 'not testable: this OpenSSL cannot offer SSL 3.0',
      },
    ];
    const cipher_suites: TlsCheckResult['cipher_suites'] = [];
    for (const version of VERSIONS) {
      const first = await attempt({ version });
      protocols.push({
        protocol: version,
        accepted: first !== null,
        note: first ? `accepted (${first.cipher?.name})` : 'refused',
      });
      if (first) cipher_suites.push(await enumerateSuites(version, attempt));
    }

    // The chain as served, in the server's order: read from a hand-made TLS 1.2 handshake when
    // the server speaks TLS 1.2 or older (TLS 1.3 encrypts it); otherwise a handshake trusting
    // only the leaf, so that no certificate is added from a store (Node's order, issuer-linked).
    const legacy = protocols.some((p) => p.accepted && p.protocol !== 'TLSv1.3');
    const raw = legacy
      ? await readServedCertificates(address, port, servername, handshakeMs, signal)
      : null;
    const rawChain = raw?.length ? parseCertificates(raw) : null;
    const served = rawChain ?? (await attempt({ ca: leaf.toString() }))?.chain ?? main.chain;
    const order = rawChain
      ? rawChain.every(
          (cert, i) =>
            i === rawChain.length - 1 || cert.checkIssued(rawChain[i + 1] as X509Certificate),
        )
        ? ('correct' as const)
        : ('wrong' as const)
      : null;
    const nowMs = now();
    const certificates = served.map((c) => certificateFacts(c, nowMs));
    const leafFacts = certificates[0] as CertificateFacts;
    const expired = Date.parse(leafFacts.valid_to) < nowMs;
    const notYetValid = Date.parse(leafFacts.valid_from) > nowMs;
    const hostname_match =
      servername === undefined
        ? leaf.checkIP(address) !== undefined
        : leaf.checkHost(servername) !== undefined;
    // Incomplete (SSL Labs: "extra download"): the server sent a leaf without its issuer and the
    // store does not hold that issuer either. A chain that reaches a CA certificate is taken as
    // complete: whether that CA is trusted is `trusted`, not completeness.
    const lastServed = served[served.length - 1] as X509Certificate;
    const selfSigned =
      lastServed.checkIssued(lastServed) && lastServed.verify(lastServed.publicKey);
    const complete = selfSigned || lastServed.ca || main.chain.length > served.length;

    const h2 = main.alpn === 'h2';
    const http11 = (await attempt({ alpn: ['http/1.1'] }))?.alpn === 'http/1.1';
    const resumed = main.session ? await attempt({ session: main.session }) : null;
    const hsts =
      options.hsts === false ? null : await readHsts(checked.host, port, options, signal);

    const suites = cipher_suites.flatMap((p) => p.suites);
    const keyBits =
      leafFacts.key_type === 'EC' || leafFacts.key_type.startsWith('Ed')
        ? rsaEquivalentBits(leafFacts.key_bits)
        : leafFacts.key_bits;
    const dhBits = suites.filter((s) => s.group?.startsWith('DH')).map((s) => s.group_bits ?? 0);
    const rating = rateTls({
      protocols: protocols.filter((p) => p.accepted).map((p) => p.protocol),
      suites: suites.map((s) => ({
        protocol: s.protocol,
        bits: s.bits,
        cipher: s.cipher,
        aead: s.aead,
        forward_secrecy: s.forward_secrecy,
        anonymous: s.authentication === 'anon',
        kx_bits: kxBits(s, keyBits),
      })),
      key_bits_rsa_equivalent: keyBits,
      dh_bits: dhBits.length ? Math.min(...dhBits) : null,
      trusted: main.authorized,
      hostname_match,
      expired,
      not_yet_valid: notYetValid,
      chain_complete: complete,
      signature_algorithm: leafFacts.signature_algorithm,
      hsts_max_age: hsts?.max_age ?? null,
    });
    return {
      host: checked.host,
      ip: address,
      port,
      servername: servername ?? null,
      protocols,
      cipher_suites,
      negotiated: {
        protocol: main.protocol ?? '',
        cipher: main.cipher?.name ?? '',
        group: main.ephemeral?.name ?? main.ephemeral?.type ?? null,
      },
      certificates,
      chain: {
        served: served.length,
        complete,
        trusted: main.authorized,
        error: main.authorizationError,
        hostname_match,
        order,
        self_signed: leafFacts.self_signed,
        expired,
        not_yet_valid: notYetValid,
      },
      alpn: { h2, http11 },
      ocsp_stapling: main.ocspResponse !== null && main.ocspResponse.length > 0,
      session_resumption: resumed?.reused === true,
      hsts,
      not_testable: [
        'SSL 2.0 and SSL 3.0 (the local OpenSSL 3 cannot offer them)',
        'TLS compression and secure renegotiation (Node does not expose them)',
        'TLS_FALLBACK_SCSV (Node cannot send it)',
      ],
      grade: rating.grade,
      grade_ignoring_trust: rating.grade_ignoring_trust,
      score: rating.score,
      scores: {
        protocol: rating.protocol_score,
        key_exchange: rating.key_exchange_score,
        cipher: rating.cipher_score,
      },
      caps: rating.caps,
      duration_ms: Math.round(performance.now() - started),
    };
  });
}

/** DER certificates → X509Certificate, or null when one does not parse. */
function parseCertificates(raw: Buffer[]): X509Certificate[] | null {
  try {
    return raw.map((der) => new X509Certificate(der));
  } catch {
    return null;
  }
}

/** The first handshake: any failure (refused, reset, not TLS at all) is the answer's error. */
async function shakeOrFail(
  shake: (extra: Partial<HandshakeRequest>) => Promise<HandshakeResult>,
  where: string,
  handshakeMs: number,
  extra: Partial<HandshakeRequest>,
): Promise<HandshakeResult> {
  try {
    return await shake(extra);
  } catch (error) {
    throw probeFailure(error, where, handshakeMs);
  }
}

const FAILURE_KINDS: Record<string, ProbeFailureKind> = {
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
};

/** A handshake failure as the probes' errors: 502 (ProbeError) or 504 (ProbeTimeoutError). */
function probeFailure(error: unknown, where: string, handshakeMs: number): unknown {
  if (!(error instanceof HandshakeRefused)) return error;
  if (error.reason.startsWith('no handshake within')) {
    return new ProbeTimeoutError('connect', handshakeMs, where);
  }
  const kind = FAILURE_KINDS[error.reason] ?? 'tls';
  return new ProbeError(
    kind,
    kind === 'tls'
      ? `no TLS handshake with ${where}: ${error.reason}`
      : `cannot connect to ${where}: ${error.reason}`,
    error,
  );
}

/** RSA-equivalent strength of one handshake's key exchange (guide: DH strength counts). */
function kxBits(suite: AcceptedSuite, keyBits: number): number {
  if (!suite.forward_secrecy) return keyBits;
  if (suite.group?.startsWith('DH')) return suite.group_bits ?? 0;
  return rsaEquivalentBits(suite.group_bits ?? 256);
}

async function enumerateSuites(
  version: TlsVersion,
  attempt: (extra: Partial<HandshakeRequest>) => Promise<HandshakeResult | null>,
): Promise<TlsCheckResult['cipher_suites'][number]> {
  const found: AcceptedSuite[] = [];
  const excluded: string[] = [];
  const tls13 = version === 'TLSv1.3';
  for (let i = 0; i < MAX_SUITES; i++) {
    const offer = tls13
      ? TLS13_SUITES.filter((s) => !excluded.includes(s)).join(':')
      : ['ALL:COMPLEMENTOFALL', ...excluded.map((name) => `!${name}`)].join(':');
    if (offer === '') break;
    const result = await attempt({ version, ciphers: offer });
    if (!result?.cipher) break;
    const name = tls13 ? result.cipher.iana : result.cipher.name;
    if (excluded.includes(name)) break; // the server ignored the offer: stop rather than loop
    excluded.push(name);
    found.push({
      ...describeCipherSuite(result.cipher.iana, result.cipher.name),
      protocol: version,
      group: result.ephemeral
        ? result.ephemeral.type === 'DH'
          ? 'DH'
          : result.ephemeral.name
        : null,
      group_bits: result.ephemeral?.bits ?? null,
    });
  }
  // Server preference: offered its first two choices reversed, does it still pick its first?
  let server_preference = found.length < 2;
  if (found.length >= 2) {
    const [a, b] = found as [AcceptedSuite, AcceptedSuite];
    const names = tls13 ? [b.iana, a.iana] : [b.name, a.name];
    const again = await attempt({ version, ciphers: names.join(':') });
    const chosen = tls13 ? again?.cipher?.iana : again?.cipher?.name;
    server_preference = chosen === (tls13 ? a.iana : a.name);
  }
  return { protocol: version, server_preference, suites: found };
}

function extraCaOf(options: CheckTlsOptions): string[] | undefined {
  return options.ca === undefined ? undefined : [options.ca].flat();
}

/** `Strict-Transport-Security` of `https://host:port/` (RFC 6797 §6.1), or null. */
async function readHsts(
  host: string,
  port: number,
  options: CheckTlsOptions,
  signal: AbortSignal,
): Promise<TlsCheckResult['hsts']> {
  const hostPart = host.includes(':') ? `[${host}]` : host;
  try {
    const response = await safeFetch(`https://${hostPart}:${port}/`, {
      ...options,
      ...(extraCaOf(options) ? { ca: extraCaOf(options) } : {}),
      signal,
      method: 'GET',
      maxRedirects: 0,
      maxBytes: 1,
      tlsPolicy: 'report',
      timeout: 10_000,
    });
    const value = response.headers['strict-transport-security']?.[0];
    if (!value) return null;
    const maxAge = /max-age\s*=\s*"?(\d+)"?/i.exec(value);
    if (!maxAge) return null;
    return {
      max_age: Number(maxAge[1]),
      include_subdomains: /(^|;)\s*includesubdomains\s*(;|$)/i.test(value),
      preload: /(^|;)\s*preload\s*(;|$)/i.test(value),
    };
  } catch {
    return null;
  }
}
