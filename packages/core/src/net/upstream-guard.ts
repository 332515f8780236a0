/**
 * The SSRF guard for addresses that come from remote answers (issue 20 item 5): WHOIS `refer:`
 * and `Registrar WHOIS Server:` lines, RDAP registry URLs from the bootstrap file, the RDAP
 * registrar link, and redirects from trusted upstreams (breach API, Tor list, DoH, RDAP). The
 * operator's configuration is trusted; a host named by a remote answer is a target like any
 * user-supplied one: resolved once through the guard (`resolveAndCheck`), connected to only at
 * the checked address, refused when any address is not public unless NETDIAG_ALLOWED_TARGETS
 * covers it — the only exemption.
 * @module
 */
import type { LookupFunction } from 'node:net';
import { isNetdiagError, UpstreamError } from '../errors.js';
import type { DnsResolver } from './dns-types.js';
import { type GuardOptions, resolveAndCheck } from './guard.js';
import type { CidrSet } from './ranges.js';
import { answerLookup } from './resolve-host.js';

export interface UpstreamGuardOptions {
  /** The resolver the one lookup of a referred host goes through. */
  resolver?: DnsResolver;
  /** NETDIAG_ALLOWED_TARGETS: CIDRs a remote answer may send netdiag to although not public. */
  allowedTargets?: readonly string[] | CidrSet;
}

/**
 * Checks a host named by a remote answer; returns its checked addresses (IPv4 first). A refusal
 * becomes an `UpstreamError` of `upstream` saying what was refused and why: the user's input
 * is not at fault, the upstream's answer is (502, not 403).
 */
export async function checkReferredHost(
  host: string,
  what: string,
  upstream: string,
  options: UpstreamGuardOptions & { signal?: AbortSignal },
): Promise<string[]> {
  try {
    const checked = await resolveAndCheck(host, options as GuardOptions);
    return checked.addresses;
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
  return (hostname, lookupOptions, callback) => {
    resolveAndCheck(hostname, options as GuardOptions).then(
      (checked) => {
        const addresses = checked.addresses.map((address) => ({
          address,
          family: address.includes(':') ? 6 : 4,
        }));
        answerLookup(hostname, lookupOptions, callback, addresses);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, ''),
    );
  };
}
