/**
 * `checkTls(host, { port, servername })`: what a TLS server accepts and presents, and a grade.
 * One resolution through the SSRF guard, then handshakes, one at a time and at most
 * `maxHandshakes`, only to the checked address: each protocol version alone (SSL 2/3 cannot be
 * offered by Node's OpenSSL 3: not testable, never guessed); per version the suites in the
 * server's order (offer all, note the choice, take it out, repeat, as sslscan and testssl.sh do)
 * and whether it enforces that order; the chain as served, its trust and host-name match
 * (RFC 6125); ALPN, a stapled OCSP response, session resumption, HSTS from one HTTPS GET.
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
import { failureInWords } from '../net/socket-failure.js';
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
import { checkTlsPort } from './non-tls-ports.js';
import type { TlsData } from './schema.js';
import {
  MAX_REPORTED_CERTIFICATES,
  readServedCertificates,
  type ServedChain,
} from './served-chain.js';

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
  /**
   * Check this port although it is a well-known non-TLS port (`NON_TLS_PORTS`: SMTP, Redis, …):
   * the caller names it a second time. Must equal `port` when given.
   */
  allowPort?: number;
  /** Handshakes this check may make, at least 10. @default MAX_HANDSHAKES_PER_CHECK (160) */
  maxHandshakes?: number;
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
/** Upper bound on suites per protocol (OpenSSL 3.0 offers 89 for TLS 1.2, 27 for 1.0 and 1.1). */
const MAX_SUITES = 128;
/** After the suites: the chain as served (raw, and Node's when that fails), ALPN, resumption, HSTS. */
const LATER_HANDSHAKES = 5;
/** The default handshake, one per protocol version and the later steps. */
const MIN_HANDSHAKES = 1 + VERSIONS.length + LATER_HANDSHAKES;
/**
 * Handshakes one check may make: one per suite OpenSSL 3.0 offers (27 + 27 + 89 + 5) and per
 * protocol, plus the default one and the later steps, is 158 for a server accepting every suite;
 * a typical public server needs 30 to 50.
 */
export const MAX_HANDSHAKES_PER_CHECK = 160;

export async function checkTls(
  host: string,
  options: CheckTlsOptions = {},
): Promise<TlsCheckResult> {
  const started = performance.now();
  const port = options.port ?? 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new InvalidInputError('"port" must be a whole number from 1 to 65535', 'port');
  }
  checkTlsPort(port, options.allowPort);
  const maxHandshakes = options.maxHandshakes ?? MAX_HANDSHAKES_PER_CHECK;
  if (!Number.isInteger(maxHandshakes) || maxHandshakes < MIN_HANDSHAKES) {
    throw new InvalidInputError(
      `"maxHandshakes" must be a whole number of at least ${MIN_HANDSHAKES}`,
      'maxHandshakes',
    );
  }
  const target = normaliseHost(host, 'host');
  const handshakeMs = options.handshakeTimeout ?? 5000;
  return withTimeout({ ...options, timeout: options.timeout ?? 60_000 }, 'tls', async (signal) => {
    const checked = await resolveAndCheck(target.host, { ...options, signal });
    const address = checked.addresses[0] as string;
    const servername = options.servername ?? (parseIp(checked.host) ? undefined : checked.host);
    const base = { address, port, servername, timeoutMs: handshakeMs, signal };
    const findings: TlsData['findings'] = [];
    // Handshakes are counted by `take`, the suites stop LATER_HANDSHAKES short of the budget; an
    // offer the local OpenSSL refuses (a protocol's list exhausted) opens no connection.
    let spent = 0;
    const take = (): boolean => {
      if (spent >= maxHandshakes) return false;
      spent++;
      return true;
    };
    const until = maxHandshakes - LATER_HANDSHAKES;
    const shake = async (extra: Partial<HandshakeRequest>) => {
      if (!take()) throw new HandshakeRefused('handshake budget spent', false, true);
      try {
        return await tlsHandshake({ ...base, ...extra });
      } catch (error) {
        if (error instanceof HandshakeRefused && error.local) spent--;
        throw error;
      }
    };
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
    const main = await shake({
      alpn: ['h2', 'http/1.1'],
      requestOcsp: true,
      ...(extraCa.length ? { ca: [...tls.rootCertificates, ...extraCa] } : {}),
    }).catch((error: unknown) => {
      throw probeFailure(error, where, handshakeMs);
    });
    const leaf = main.chain[0];
    if (!leaf) throw new InvalidInputError('the server presented no certificate', 'host');

    const untestable = (protocol: 'SSLv2' | 'SSLv3', name: string): ProtocolSupport => ({
      protocol,
      accepted: null,
      note: `not testable: this OpenSSL cannot offer ${name}`,
    });
    const protocols = [untestable('SSLv2', 'SSL 2.0'), untestable('SSLv3', 'SSL 3.0')];
    // Each version alone, offering what the suite enumeration offers first (every suite), so
    // that this handshake is also the enumeration's first.
    const firsts = new Map<TlsVersion, HandshakeResult>();
    for (const version of VERSIONS) {
      const first = await attempt({ version, ciphers: offerFor(version, []) });
      if (first) firsts.set(version, first);
      protocols.push({
        protocol: version,
        accepted: first !== null,
        note: first ? `accepted (${first.cipher?.name})` : 'refused',
      });
    }
    const cipher_suites: TlsCheckResult['cipher_suites'] = [];
    for (const [version, first] of firsts) {
      // One more suite only while the preference test still fits before the later steps.
      const enumerated = await enumerateSuites(version, first, attempt, () => spent + 1 < until);
      cipher_suites.push(enumerated.list);
      if (enumerated.cut) {
        findings.push({
          code: 'handshake_budget_spent',
          message: `${version}: the suites after the first ${enumerated.list.suites.length} were not enumerated: the check's budget of ${maxHandshakes} handshakes was spent, so the grade may miss a weaker suite`,
        });
      }
    }

    // The chain as served: from a hand-made TLS 1.2 handshake when the server speaks TLS 1.2 or
    // older (TLS 1.3 encrypts it), else from one trusting only the leaf (no store adds to it).
    const legacy = protocols.some((p) => p.accepted && p.protocol !== 'TLSv1.3');
    const raw: ServedChain | null =
      legacy && take()
        ? await readServedCertificates(address, port, servername, handshakeMs, signal)
        : null;
    if (raw && 'overLimit' in raw) {
      findings.push({ code: 'certificate_message_too_large', message: raw.overLimit });
    }
    const rawList = raw && 'certificates' in raw && raw.certificates.length ? raw : null;
    const rawChain = rawList ? parseCertificates(rawList.certificates) : null;
    const linked = rawChain ? [] : ((await attempt({ ca: leaf.toString() }))?.chain ?? main.chain);
    const sent = rawChain && rawList ? rawList.sent : linked.length;
    const served = (rawChain ?? linked).slice(0, MAX_REPORTED_CERTIFICATES);
    if (sent > served.length) {
      findings.push({
        code: 'too_many_certificates',
        message: `The server sent ${sent} certificates; netdiag reports the first ${MAX_REPORTED_CERTIFICATES} (real chains have 2 to 4) and judges order and completeness on those`,
      });
    }
    const ordered = rawChain?.slice(1).every((up, i) => rawChain[i]?.checkIssued(up));
    const order = ordered === undefined ? null : ordered ? 'correct' : 'wrong';
    const nowMs = (options.now ?? Date.now)();
    const certificates = served.map((c) => certificateFacts(c, nowMs));
    const leafFacts = certificates[0] as CertificateFacts;
    const expired = Date.parse(leafFacts.valid_to) < nowMs;
    const notYetValid = Date.parse(leafFacts.valid_from) > nowMs;
    const hostname_match =
      (servername === undefined ? leaf.checkIP(address) : leaf.checkHost(servername)) !== undefined;
    // Incomplete (SSL Labs: "extra download"): neither the server nor the store has the leaf's
    // issuer. A chain reaching a CA certificate is complete; whether it is trusted is `trusted`.
    const last = certificates.at(-1) as CertificateFacts;
    const complete = last.self_signed || last.ca || main.chain.length > served.length;

    const http11 = (await attempt({ alpn: ['http/1.1'] }))?.alpn === 'http/1.1';
    const resumed = main.session ? await attempt({ session: main.session }) : null;
    const hsts =
      options.hsts === false || !take()
        ? null
        : await readHsts(`https://${where}/`, options, signal);

    const suites = cipher_suites.flatMap((p) => p.suites);
    const keyBits =
      leafFacts.key_type === 'EC' || leafFacts.key_type.startsWith('Ed')
        ? rsaEquivalentBits(leafFacts.key_bits)
        : leafFacts.key_bits;
    const dhBits = suites.filter((s) => s.group?.startsWith('DH')).map((s) => s.group_bits ?? 0);
    const rating = rateTls({
      protocols: protocols.filter((p) => p.accepted).map((p) => p.protocol),
      suites: suites.map((s) => ({
        ...s,
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
        served: sent,
        complete,
        trusted: main.authorized,
        error: main.authorizationError,
        hostname_match,
        order,
        self_signed: leafFacts.self_signed,
        expired,
        not_yet_valid: notYetValid,
      },
      alpn: { h2: main.alpn === 'h2', http11 },
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
      findings,
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
      : `cannot connect to ${where}: ${failureInWords({ code: error.reason })}`,
    error,
  );
}

/** RSA-equivalent strength of one handshake's key exchange (guide: DH strength counts). */
function kxBits(suite: AcceptedSuite, keyBits: number): number {
  if (!suite.forward_secrecy) return keyBits;
  if (suite.group?.startsWith('DH')) return suite.group_bits ?? 0;
  return rsaEquivalentBits(suite.group_bits ?? 256);
}

/** What the enumeration offers for `version` once `excluded` are taken out. */
const offerFor = (version: TlsVersion, excluded: readonly string[]) =>
  version === 'TLSv1.3'
    ? TLS13_SUITES.filter((s) => !excluded.includes(s)).join(':')
    : ['ALL:COMPLEMENTOFALL', ...excluded.map((name) => `!${name}`)].join(':');

function acceptedSuite(version: TlsVersion, result: HandshakeResult): AcceptedSuite {
  const cipher = result.cipher as NonNullable<HandshakeResult['cipher']>;
  return {
    ...describeCipherSuite(cipher.iana, cipher.name),
    protocol: version,
    group: result.ephemeral?.type === 'DH' ? 'DH' : (result.ephemeral?.name ?? null),
    group_bits: result.ephemeral?.bits ?? null,
  };
}

/**
 * The suites of `version` in the server's order, from `first` (the version's own handshake) on;
 * `cut` when `mayShake` said the budget had no room left for one more.
 */
async function enumerateSuites(
  version: TlsVersion,
  first: HandshakeResult,
  attempt: (extra: Partial<HandshakeRequest>) => Promise<HandshakeResult | null>,
  mayShake: () => boolean,
): Promise<{ list: TlsCheckResult['cipher_suites'][number]; cut: boolean }> {
  const found: AcceptedSuite[] = [];
  const excluded: string[] = [];
  // OpenSSL names TLS 1.3 suites by their IANA names only.
  const id = (suite: { iana: string; name: string }) =>
    version === 'TLSv1.3' ? suite.iana : suite.name;
  let cut = false;
  let result: HandshakeResult | null = first;
  for (let i = 0; i < MAX_SUITES && result?.cipher; i++) {
    const name = id(result.cipher);
    if (excluded.includes(name)) break; // the server ignored the offer: stop rather than loop
    excluded.push(name);
    found.push(acceptedSuite(version, result));
    const offer = offerFor(version, excluded);
    if (offer === '') break;
    if (!mayShake()) {
      cut = true;
      break;
    }
    result = await attempt({ version, ciphers: offer });
  }
  // Server preference: offered its first two choices reversed, does it still pick its first?
  let server_preference = found.length < 2;
  if (found.length >= 2) {
    const [a, b] = found as [AcceptedSuite, AcceptedSuite];
    const again = await attempt({ version, ciphers: `${id(b)}:${id(a)}` });
    server_preference = again?.cipher ? id(again.cipher) === id(a) : false;
  }
  return { list: { protocol: version, server_preference, suites: found }, cut };
}

/** `Strict-Transport-Security` of `url` (RFC 6797 §6.1), or null. */
async function readHsts(
  url: string,
  options: CheckTlsOptions,
  signal: AbortSignal,
): Promise<TlsCheckResult['hsts']> {
  try {
    const response = await safeFetch(url, {
      ...options,
      signal,
      method: 'GET',
      maxRedirects: 0,
      maxBytes: 1,
      tlsPolicy: 'report',
      timeout: 10_000,
    });
    const value = response.headers['strict-transport-security']?.[0] ?? '';
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
