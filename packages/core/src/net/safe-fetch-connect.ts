/**
 * The pinned connector of the SSRF-safe client: undici asks it for a socket and it connects
 * to the addresses the guard checked — never to a name, so no second DNS lookup can happen.
 * HTTPS gets the URL's host name as SNI (RFC 6066 §3: no SNI for IP literals) and the
 * certificate is checked against that name; undici sends the Host header from the URL.
 * @module
 */
import net from 'node:net';
import tls from 'node:tls';
import type { buildConnector } from 'undici';
import { formatHostPort } from './host-port.js';
import { parseIp } from './ip.js';
import { ProbeError, ProbeTimeoutError, socketFailure } from './safe-fetch-errors.js';

/** Facts about the certificate a TLS server presented. */
export interface TlsFacts {
  /** True when the chain is trusted and valid for the host name. */
  authorized: boolean;
  /** Why it is not trusted (`CERT_HAS_EXPIRED`, `DEPTH_ZERO_SELF_SIGNED_CERT`, `ERR_TLS_CERT_ALTNAME_INVALID`, …). */
  authorizationError: string | null;
  /** Negotiated protocol (`TLSv1.3`). */
  protocol: string | null;
  /** Negotiated suite, OpenSSL name. */
  cipher: string | null;
  /** Issuer organisation (or common name when there is no O). */
  issuer: string;
  /** Subject common name. */
  subject: string;
  /** `subjectAltName` as OpenSSL prints it (`DNS:a.example, IP Address:1.2.3.4`). */
  subjectAltName: string;
  validFrom: string | null;
  validTo: string | null;
  /** Whole days from now until `validTo` (negative once expired). */
  daysLeft: number | null;
  fingerprint256: string;
}

export interface PinnedConnectOptions {
  /** Checked addresses, tried in order until one accepts. */
  addresses: readonly string[];
  /** SNI and certificate name; `undefined` for IP-literal targets. */
  servername: string | undefined;
  /** Budget for TCP (+TLS) of all attempts together, in ms. */
  connectTimeout: number;
  /** `verify`: refuse untrusted certificates before sending anything. `report`: go on, report. */
  tlsPolicy: 'verify' | 'report';
  /** Extra trusted CA certificates (PEM), added to Node's bundled roots. */
  ca?: string | Buffer | readonly (string | Buffer)[];
  signal: AbortSignal;
  /** Clock for `daysLeft`. */
  now: () => number;
  /** Called once a socket is ready, with the address used and the TLS facts. */
  onConnected(info: { address: string; tls: TlsFacts | null; connectMs: number }): void;
}

/** Errors after which the next checked address is worth a try. */
const RETRY_NEXT = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

export function pinnedConnector(options: PinnedConnectOptions): buildConnector.connector {
  return (request, callback) => {
    const https = request.protocol === 'https:';
    const port = Number(request.port) || (https ? 443 : 80);
    const started = performance.now();
    let settled = false;
    let current: net.Socket | undefined;

    const finish = (error: Error | null, socket?: net.Socket) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (!error) return callback(null, socket as net.Socket);
      current?.destroy();
      callback(error, null);
    };
    const onAbort = () =>
      finish(options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted'));
    const { connectTimeout } = options;
    const first = where(options.addresses[0] ?? '', port);
    const onTimeout = () => finish(new ProbeTimeoutError('connect', connectTimeout, first));
    const timer = setTimeout(onTimeout, connectTimeout);
    options.signal.addEventListener('abort', onAbort, { once: true });

    const attempt = (index: number) => {
      const address = options.addresses[index];
      if (address === undefined)
        return finish(new ProbeError('unreachable', 'no address to connect to'));
      const target = where(address, port);
      const socket = https
        ? tls.connect({
            host: address,
            port,
            ...(options.servername ? { servername: options.servername } : {}),
            // We decide about trust ourselves (below) so that the facts can be reported.
            rejectUnauthorized: false,
            ALPNProtocols: ['http/1.1'],
            ...(options.ca ? { ca: [...tls.rootCertificates, ...[options.ca].flat()] } : {}),
          })
        : net.connect({ host: address, port });
      current = socket;
      socket.once(https ? 'secureConnect' : 'connect', () => {
        if (settled) return socket.destroy();
        // Paranoia: the kernel connected where we asked, or nothing is sent.
        const remote = socket.remoteAddress;
        if (remote && net.isIP(remote) && !sameAddress(remote, address)) {
          return finish(
            new ProbeError('unreachable', `connected to ${remote}, expected ${address}`),
          );
        }
        const facts = https ? tlsFacts(socket as tls.TLSSocket, options.now()) : null;
        if (facts && !facts.authorized && options.tlsPolicy === 'verify') {
          const error = new ProbeError(
            'tls',
            `the certificate of ${options.servername ?? address} is not trusted: ${facts.authorizationError}`,
          );
          (error as ProbeError & { tls?: TlsFacts }).tls = facts;
          return finish(error);
        }
        options.onConnected({ address, tls: facts, connectMs: performance.now() - started });
        socket.setNoDelay(true);
        finish(null, socket);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        socket.destroy();
        if (RETRY_NEXT.has(error.code ?? '') && index + 1 < options.addresses.length) {
          return attempt(index + 1);
        }
        finish(socketFailure(error, target));
      });
    };
    if (options.signal.aborted) return onAbort();
    attempt(0);
  };
}

const where = (host: string, port: number) => formatHostPort({ host, port });

function sameAddress(a: string, b: string): boolean {
  // Canonical forms (IPv4-mapped IPv6 shown as IPv4, RFC 5952 IPv6) compare by value.
  return (parseIp(a)?.address ?? a) === (parseIp(b)?.address ?? b);
}

/** Reads the facts of the peer certificate; never throws. */
export function tlsFacts(socket: tls.TLSSocket, now: number): TlsFacts {
  const cert = socket.getPeerCertificate(false) as Partial<tls.PeerCertificate> | undefined;
  const validTo = certDate(cert?.valid_to);
  const validFrom = certDate(cert?.valid_from);
  const error = socket.authorizationError as unknown;
  return {
    authorized: socket.authorized,
    authorizationError: socket.authorized
      ? null
      : typeof error === 'string'
        ? error
        : ((error as Error | undefined)?.message ?? 'unknown'),
    protocol: socket.getProtocol() ?? null,
    cipher: socket.getCipher()?.name ?? null,
    issuer: first(cert?.issuer?.O) || first(cert?.issuer?.CN) || '',
    subject: first(cert?.subject?.CN) || first(cert?.subject?.O) || '',
    subjectAltName: cert?.subjectaltname ?? '',
    validFrom: validFrom?.toISOString() ?? null,
    validTo: validTo?.toISOString() ?? null,
    daysLeft: validTo ? Math.floor((validTo.getTime() - now) / 86_400_000) : null,
    fingerprint256: cert?.fingerprint256 ?? '',
  };
}

/** A certificate date; `undefined` when absent or not a date. */
function certDate(text: string | undefined): Date | undefined {
  const date = text ? new Date(text) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

function first(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}
