/**
 * Host names of trusted upstreams resolved through a `DnsResolver` instead of getaddrinfo, so
 * the configured DNS servers do all DNS work (CONTRACT §5); SNI and Host keep the name.
 * @module
 */
import dns, { type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { DnsQueryOptions, DnsResolver, DnsResponse } from './dns-types.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Error codes as getaddrinfo failures carry them, so callers can tell them apart. */
export interface HostLookupError extends Error {
  code: 'ENOTFOUND' | 'EAI_AGAIN';
  hostname: string;
}

/**
 * The addresses of `host` (A and AAAA in parallel; IP literals as they are), in the order of
 * `dns.getDefaultResultOrder()`; `verbatim` alternates, IPv6 first (RFC 8305 §4, RFC 6724
 * §10.3). Throws a `HostLookupError`: `ENOTFOUND` (no address) or `EAI_AGAIN` (DNS failed).
 */
export async function resolveHost(
  resolver: DnsResolver,
  host: string,
  options: DnsQueryOptions = {},
): Promise<ResolvedAddress[]> {
  const name = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const literal = isIP(name);
  if (literal !== 0) return [{ address: name, family: literal as 4 | 6 }];
  const [six, four] = await Promise.allSettled([
    resolver.query(name, 'AAAA', options),
    resolver.query(name, 'A', options),
  ]);
  const v6 = addressesOf(six, 'AAAA');
  const v4 = addressesOf(four, 'A');
  if (v6.length + v4.length === 0) {
    const failed = [four, six].find((r) => r.status === 'rejected');
    if (failed) {
      const reason = (failed as PromiseRejectedResult).reason as Error;
      throw lookupError('EAI_AGAIN', name, `DNS lookup of ${name} failed: ${bare(reason)}`);
    }
    const rcode = (four as PromiseFulfilledResult<DnsResponse>).value.rcode;
    throw lookupError('ENOTFOUND', name, `${name} has no A or AAAA record (${rcode})`);
  }
  const order = dns.getDefaultResultOrder?.() ?? 'verbatim';
  const sixes = v6.map((address) => ({ address, family: 6 as const }));
  const fours = v4.map((address) => ({ address, family: 4 as const }));
  if (order === 'ipv4first') return [...fours, ...sixes];
  if (order === 'ipv6first') return [...sixes, ...fours];
  const out: ResolvedAddress[] = [];
  for (let i = 0; i < Math.max(sixes.length, fours.length); i++) {
    if (sixes[i]) out.push(sixes[i] as ResolvedAddress);
    if (fours[i]) out.push(fours[i] as ResolvedAddress);
  }
  return out;
}

/** A `lookup` for `net.connect` / `tls.connect` / undici's `connect` that asks `resolver`. */
export function resolverLookup(resolver: DnsResolver): LookupFunction {
  return lookupFrom((hostname) => resolveHost(resolver, hostname));
}

/**
 * A `lookup` that answers with the addresses `find` gives, honouring `family` and `all` (Node
 * sets `all` for Happy Eyeballs, `autoSelectFamily`).
 */
export function lookupFrom(
  find: (hostname: string) => Promise<readonly LookupAddress[]>,
): LookupFunction {
  return (hostname, options, callback) => {
    find(hostname).then(
      (addresses) => {
        const { family: asked } = options;
        const family = asked === 'IPv4' ? 4 : asked === 'IPv6' ? 6 : asked;
        const wanted =
          family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
        const first = wanted[0];
        if (!first) {
          const message = `${hostname} has no IPv${family} address`;
          callback(lookupError('ENOTFOUND', hostname, message), '');
        } else if (options.all) {
          callback(null, wanted as LookupAddress[]);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, ''),
    );
  };
}

function addressesOf(result: PromiseSettledResult<DnsResponse>, type: 'A' | 'AAAA'): string[] {
  if (result.status !== 'fulfilled') return [];
  // The answer may start with a CNAME chain; only the address records count.
  return result.value.answers
    .filter((r) => r.type === type && typeof r.value === 'string')
    .map((r) => r.value as string);
}

function lookupError(code: HostLookupError['code'], hostname: string, message: string) {
  return Object.assign(new Error(message), { code, hostname }) as HostLookupError;
}

/** A netdiag error's message without its `[netdiag] [dns]` prefix. */
function bare(error: Error): string {
  return String(error?.message ?? error).replace(/^\[netdiag\] \[[^\]]*\] /, '');
}
