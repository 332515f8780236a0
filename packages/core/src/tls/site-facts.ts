/**
 * The TLS facts the site probes add for https targets: from the probe's connection, and one
 * handshake offering h2 and http/1.1, which the HTTP/1.1 probe cannot offer (RFC 7301 §3.2).
 * @module
 */

import type { z } from 'zod';
import { parseIp } from '../net/ip.js';
import type { TlsFacts } from '../net/safe-fetch-connect.js';
import type { tlsSummarySchema } from '../site/schema.js';
import { tlsHandshake } from './handshake.js';

/** Certificate and connection facts of an https answer: the probes' `tls` object when not null. */
export type SiteTls = NonNullable<z.output<typeof tlsSummarySchema>>;

export function siteTls(facts: TlsFacts, alpn: string | null = null): SiteTls {
  return {
    issuer: facts.issuer,
    subject: facts.subject,
    valid_from: facts.validFrom,
    valid_to: facts.validTo,
    days_left: facts.daysLeft,
    trusted: facts.authorized,
    error: facts.authorizationError,
    protocol: facts.protocol,
    cipher: facts.cipher,
    alpn,
  };
}

/**
 * The ALPN protocol the server at `address` picks from h2 and http/1.1 for `url`'s host, or null
 * (no ALPN, or the handshake failed: the probe's own answer already stands, this is a detail).
 */
export async function negotiateAlpn(
  url: URL,
  address: string,
  signal: AbortSignal | undefined,
): Promise<string | null> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  try {
    const result = await tlsHandshake({
      address,
      port: Number(url.port) || 443,
      servername: parseIp(host) ? undefined : host,
      alpn: ['h2', 'http/1.1'],
      ciphers: 'DEFAULT',
      timeoutMs: 3000,
      signal: signal ?? new AbortController().signal,
    });
    return result.alpn;
  } catch {
    return null;
  }
}
