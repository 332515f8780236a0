/**
 * The caller's side of the connection, as a face describes it to the engine: its address, the
 * HTTP version it speaks and the TLS version, when TLS ends at us or at a trusted proxy.
 * @module
 */
import type { z } from 'zod';
import type { callerIpV1DataSchema } from './schema.js';

/** What a face knows about the caller's connection. */
export interface CallerConnection {
  /** The caller's address (CONTRACT §3). */
  ip: string;
  /** `1.1`, `HTTP/2.0`, `h2` …; omitted or "" when unknown (a CLI run). */
  httpVersion?: string;
  /** `TLSv1.3` …; omitted or "" for plain HTTP. */
  tlsVersion?: string;
}

/** The connection as the answers' `network` gives it: `HTTP/1.1` …, and `TLSv1.3` … or "". */
export type ConnectionInfo = Pick<
  z.output<typeof callerIpV1DataSchema>['network'],
  'connection_type' | 'tls_version'
>;

/** `1.1` / `HTTP/2.0` / `h2` → `HTTP/1.1` / `HTTP/2` (RFC 9110 §2.5 major-only names for 2, 3). */
export function formatHttpVersion(version: string): string {
  const text = version.trim().replace(/^HTTP\//i, '');
  const alpn = /^h([23])$/i.exec(text);
  if (alpn) return `HTTP/${alpn[1]}`;
  const match = /^(\d)(?:\.(\d))?$/.exec(text);
  if (!match) return '';
  const [, major, minor] = match;
  return major === '1' || major === '0' ? `HTTP/${major}.${minor ?? '0'}` : `HTTP/${major}`;
}

/** TLS protocol names as OpenSSL and nginx print them (`TLSv1.3`). */
const TLS_VERSION = /^(?:TLSv1(?:\.[0-3])?|SSLv3)$/;

/** True for a TLS protocol name as OpenSSL prints it. */
export function isTlsVersionName(text: string): boolean {
  return TLS_VERSION.test(text);
}

/** `connection_type` and `tls_version` of an answer; unknown or malformed values become "". */
export function connectionInfo(connection: CallerConnection): ConnectionInfo {
  const tls = connection.tlsVersion?.trim() ?? '';
  return {
    connection_type: formatHttpVersion(connection.httpVersion ?? ''),
    tls_version: TLS_VERSION.test(tls) ? tls : '',
  };
}
