/**
 * One TLS handshake with the checked address, offering exactly what the caller asks, and what
 * the server chose. The connection is closed as soon as the handshake ends: nothing is sent.
 * @module
 */

import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import type { TlsData } from './schema.js';

/** The versions a handshake can offer, those of the answer's `cipher_suites`. */
export type TlsVersion = TlsData['cipher_suites'][number]['protocol'];

export interface HandshakeRequest {
  /** The address the guard checked (never a name: no second lookup). */
  address: string;
  port: number;
  /** SNI (RFC 6066 §3: none for IP literals). */
  servername: string | undefined;
  version?: TlsVersion;
  /** OpenSSL cipher string, with `@SECLEVEL=0` so that weak suites are offered too. */
  ciphers?: string;
  alpn?: string[];
  requestOcsp?: boolean;
  session?: Buffer;
  /** Trust only these CAs (PEM) instead of Node's store; the leaf alone shows the chain as served. */
  ca?: string | string[];
  /** Per-handshake budget. */
  timeoutMs: number;
  signal: AbortSignal;
}

export interface HandshakeResult {
  protocol: string | null;
  /** OpenSSL and IANA names of the negotiated suite. */
  cipher: { name: string; iana: string } | null;
  /** The (EC)DHE group: `X25519`, `prime256v1`, or `DH` with its size. */
  ephemeral: { type: string; name: string | null; bits: number } | null;
  alpn: string | null;
  /** Whether the chain verified against Node's root store (name not checked). */
  authorized: boolean;
  authorizationError: string | null;
  /** The chain from the leaf up, as Node links it (issuer by issuer). */
  chain: X509Certificate[];
  ocspResponse: Buffer | null;
  session: Buffer | null;
  reused: boolean;
}

/** The handshake failed: the server refused what was offered, or the connection failed. */
export class HandshakeRefused extends Error {
  override name = 'HandshakeRefused';
  constructor(
    readonly reason: string,
    readonly network: boolean,
    /** Refused by the local OpenSSL before any connection (an offer matching no suite). */
    readonly local = false,
  ) {
    super(reason);
  }
}

/** Errors of the connection itself; any other error is the server refusing the offer. */
const NETWORK_ERRORS = [
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
];

export function tlsHandshake(request: HandshakeRequest): Promise<HandshakeResult> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let ocspResponse: Buffer | null = null;
    let session: Buffer | null = null;
    const options: tls.ConnectionOptions = {
      host: request.address,
      port: request.port,
      rejectUnauthorized: false,
      ...(request.servername ? { servername: request.servername } : {}),
      ...(request.version ? { minVersion: request.version, maxVersion: request.version } : {}),
      // TLS 1.3 suites alone (names starting TLS_) go as they are: Node sets them as the 1.3
      // list, and a security level with no 1.2 cipher left makes OpenSSL refuse the string.
      ciphers: /^TLS_[A-Z0-9_]+(:TLS_[A-Z0-9_]+)*$/.test(request.ciphers ?? '')
        ? (request.ciphers as string)
        : `${request.ciphers ?? 'ALL:COMPLEMENTOFALL'}:@SECLEVEL=0`,
      ...(request.alpn ? { ALPNProtocols: request.alpn } : {}),
      ...(request.requestOcsp ? { requestOCSP: true } : {}),
      ...(request.session ? { session: request.session } : {}),
      ...(request.ca ? { ca: request.ca } : {}),
    };
    // Node refuses TLS 1.0/1.1 below its default minimum unless asked for explicitly.
    if (!request.version) options.minVersion = 'TLSv1';
    let socket: tls.TLSSocket;
    const finish = (error: Error | null, value?: HandshakeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      socket?.destroy();
      if (error) reject(error);
      else resolve(value as HandshakeResult);
    };
    const onAbort = () => finish(request.signal.reason ?? new Error('aborted'));
    const timer = setTimeout(
      () => finish(new HandshakeRefused(`no handshake within ${request.timeoutMs} ms`, true)),
      request.timeoutMs,
    );
    if (request.signal.aborted) return onAbort();
    request.signal.addEventListener('abort', onAbort, { once: true });
    try {
      socket = tls.connect(options);
    } catch (error) {
      // An option this OpenSSL cannot offer at all (e.g. a cipher string matching nothing).
      return finish(new HandshakeRefused((error as Error).message, false, true));
    }
    socket.on('OCSPResponse', (response: Buffer) => {
      ocspResponse = response;
    });
    socket.on('session', (data: Buffer) => {
      session = data;
    });
    socket.once('secureConnect', () => {
      const cipher = socket.getCipher();
      const eph = socket.getEphemeralKeyInfo() as { type?: string; name?: string; size?: number };
      const result: HandshakeResult = {
        protocol: socket.getProtocol(),
        cipher: cipher ? { name: cipher.name, iana: cipher.standardName } : null,
        ephemeral: eph?.type
          ? { type: eph.type, name: eph.name ?? null, bits: eph.size ?? 0 }
          : null,
        alpn: typeof socket.alpnProtocol === 'string' ? socket.alpnProtocol : null,
        authorized: socket.authorized,
        authorizationError: socket.authorizationError
          ? String(
              (socket.authorizationError as Error & { code?: string }).code ??
                socket.authorizationError,
            )
          : null,
        chain: peerChain(socket),
        ocspResponse,
        session: null,
        reused: socket.isSessionReused(),
      };
      const done = () => finish(null, { ...result, ocspResponse, session });
      // TLS 1.3 sends the session ticket after the handshake: give it a moment to arrive.
      if (request.session === undefined && result.protocol === 'TLSv1.3') setTimeout(done, 50);
      else done();
    });
    socket.once('error', (error) => {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      finish(new HandshakeRefused(code || error.message, NETWORK_ERRORS.includes(code)));
    });
  });
}

/** The peer's certificates, leaf first, following `issuerCertificate` until it repeats. */
function peerChain(socket: tls.TLSSocket): X509Certificate[] {
  const chain: X509Certificate[] = [];
  const seen = new Set<string>();
  let cert = socket.getPeerCertificate(true) as tls.DetailedPeerCertificate | undefined;
  while (cert?.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    chain.push(new X509Certificate(cert.raw));
    cert = cert.issuerCertificate;
  }
  return chain;
}
