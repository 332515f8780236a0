/**
 * The SSRF guard for hosts named by remote answers (WHOIS referrals, RDAP registry and registrar
 * links, redirects from trusted upstreams). The operator's configuration is trusted; such a host
 * is a target like any user-supplied one: resolved once through `resolveAndCheck`, connected to
 * only at the checked address, refused unless public or in NETDIAG_ALLOWED_TARGETS.
 * @module
 */
import type { LookupFunction } from 'node:net';
import { isNetdiagError, UpstreamError } from '../errors.js';
import { type GuardOptions, resolveAndCheck } from './guard.js';
import { lookupFrom } from './resolve-host.js';

/** The resolver of the one lookup, and the CIDRs exempt (NETDIAG_ALLOWED_TARGETS). */
export type UpstreamGuardOptions = Pick<GuardOptions, 'resolver' | 'allowedTargets'>;

/**
 * Checks a host named by a remote answer; returns its checked addresses (IPv4 first). A refusal
 * is an `UpstreamError` of `upstream` (502, not 403: the upstream's answer is at fault).
 */
export async function checkReferredHost(
  host: string,
  what: string,
  upstream: string,
  options: UpstreamGuardOptions & { signal?: AbortSignal },
): Promise<string[]> {
  try {
    return (await resolveAndCheck(host, options)).addresses;
  } catch (error) {
    throw refusal(error, what, upstream);
  }
}

/** A guard failure as the upstream's error; other errors pass through. */
export function refusal(error: unknown, what: string, upstream: string): unknown {
  if (isNetdiagError(error) && error.code === 'TARGET_NOT_ALLOWED') {
    const reason = error.message.replace(/^\[netdiag\] (\[[^\]]*\] )?Target not allowed: /, '');
    return new UpstreamError(upstream, `refused to follow ${what}: ${reason}`, error);
  }
  return error;
}

/**
 * A `lookup` for `net.connect` / undici's `connect` that runs the guard: the socket can only
 * reach an address the guard accepted, so a second DNS answer (rebinding) never matters.
 */
export function guardedLookup(options: UpstreamGuardOptions): LookupFunction {
  return lookupFrom(async (hostname) => {
    const { addresses } = await resolveAndCheck(hostname, options);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  });
}
