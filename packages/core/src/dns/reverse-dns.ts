/**
 * `reverseDns`: the PTR of an IPv4 (in-addr.arpa, RFC 1035 §3.5) or IPv6 address (ip6.arpa
 * nibbles, RFC 3596 §2.5), and whether it is forward-confirmed (FCrDNS: a PTR name resolves
 * back to the same address, the check of RFC 8601 §2.7.3 "iprev").
 * @module
 */
import type { z } from 'zod';
import type { DnsResolver } from '../net/dns-types.js';
import { parseIp, requireIp, reverseName } from '../net/ip.js';
import { getDefaultResolver } from '../net/resolver.js';
import { withTimeout } from '../net/signal.js';
import type { BaseOptions } from '../types.js';
import { throwUnlessAnswered } from './lookup-dns.js';
import type { reverseDnsDataSchema } from './schema.js';

export interface ReverseDnsOptions extends BaseOptions {
  /** DNS resolver. @default the library's shared resolver (system servers) */
  resolver?: DnsResolver;
  /** Check that a PTR name resolves back to the address. @default true */
  fcrdns?: boolean;
}

/** `GET /api/rdns` data: the first PTR target, all of them, and the FCrDNS verdict. */
export type ReverseDnsResult = z.output<typeof reverseDnsDataSchema>;

/**
 * At most this many PTR names are forward-checked: RFC 8601 §2.7.3 lets iprev stop early, and
 * RFC 7208 §4.6.4 caps the comparable PTR check of SPF at 10 names.
 */
const MAX_FORWARD_CHECKS = 10;

/** `address`: IPv4 or IPv6 (IPv4-mapped IPv6 is treated as the IPv4 address). */
export async function reverseDns(
  address: string,
  options: ReverseDnsOptions = {},
): Promise<ReverseDnsResult> {
  const ip = requireIp(address);
  const resolver = options.resolver ?? getDefaultResolver();
  const ptrName = reverseName(ip);
  return withTimeout(options, 'dns', async (signal) => {
    const response = await resolver.query(ptrName, 'PTR', { signal, timeout: false });
    throwUnlessAnswered(response, `${ptrName} PTR`);
    const hostnames = response.answers
      .filter((r) => r.type === 'PTR')
      .map((r) => r.value as string)
      .filter((name) => name !== '');
    let fcrdns = false;
    if ((options.fcrdns ?? true) && hostnames.length > 0) {
      const forwardType = ip.version === 4 ? 'A' : 'AAAA';
      const checks = hostnames.slice(0, MAX_FORWARD_CHECKS).map(async (name) => {
        try {
          const forward = await resolver.query(name, forwardType, { signal, timeout: false });
          return forward.answers.some(
            (r) => r.type === forwardType && parseIp(r.data)?.address === ip.address,
          );
        } catch (error) {
          if (signal.aborted) throw error;
          // A PTR name that does not resolve simply is not a confirmation.
          return false;
        }
      });
      fcrdns = (await Promise.all(checks)).some(Boolean);
    }
    return {
      ip: ip.address,
      hostname: hostnames[0] ?? '',
      ptr_record: ptrName,
      hostnames,
      fcrdns,
      rcode: response.rcode,
    };
  });
}
