/**
 * The DNS seam of core. Every capability that needs DNS takes a `resolver?: DnsResolver`
 * option; the built-in implementation (UDP/TCP/DoH over dns-packet) and the test fakes both
 * implement this interface.
 * @module
 */
import type { BaseOptions } from '../types.js';

/** Record types netdiag asks for. */
export type RecordType =
  | 'A'
  | 'AAAA'
  | 'CNAME'
  | 'MX'
  | 'NS'
  | 'TXT'
  | 'SOA'
  | 'SRV'
  | 'CAA'
  | 'PTR'
  // Service binding (RFC 9460), DNSSEC (RFC 4034, RFC 5155, RFC 7344), DANE (RFC 6698),
  // SSH fingerprints (RFC 4255) and NAPTR (RFC 3403).
  | 'HTTPS'
  | 'SVCB'
  | 'DS'
  | 'DNSKEY'
  | 'RRSIG'
  | 'NSEC'
  | 'NSEC3'
  | 'NSEC3PARAM'
  | 'TLSA'
  | 'SSHFP'
  | 'NAPTR'
  | 'CDS'
  | 'CDNSKEY';

/** RFC 1035 §4.1.1 / RFC 6895 response codes by name (`RCODE_5` for unnamed ones). */
export type Rcode =
  | 'NOERROR'
  | 'FORMERR'
  | 'SERVFAIL'
  | 'NXDOMAIN'
  | 'NOTIMP'
  | 'REFUSED'
  | (string & {});

/** Structured record values, by type. */
export interface MxValue {
  preference: number;
  exchange: string;
}
export interface SoaValue {
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
}
export interface SrvValue {
  priority: number;
  weight: number;
  port: number;
  target: string;
}
export interface CaaValue {
  flags: number;
  tag: string;
  value: string;
}

export interface DnsRecord {
  /** Owner name, lower-case, without the trailing dot. */
  name: string;
  /** Record type name (`A`, `MX`, …; `TYPE65` for types without a name). */
  type: string;
  /** Numeric type code (RFC 6895 registry). */
  typeCode: number;
  ttl: number;
  /** Presentation format exactly as `dig +short` prints it (CONTRACT §6). */
  data: string;
  /**
   * Structured value: a string for A/AAAA/CNAME/NS/PTR (names without trailing dot),
   * `string[]` for TXT (the character-strings, decoded as UTF-8), and the value interfaces above.
   */
  value: string | string[] | MxValue | SoaValue | SrvValue | CaaValue | unknown;
  /**
   * The record data in uncompressed wire form, hex (RFC 3597 §5 without the length), present
   * only when the query set `dnssecOk`: the validator rebuilds the canonical form of RRsets
   * from it (RFC 4034 §6.2).
   */
  rdata?: string;
}

/** An Extended DNS Error option (RFC 8914 §2) the server attached to its answer. */
export interface ExtendedDnsError {
  /** INFO-CODE (RFC 8914 §4, IANA "Extended DNS Error Codes"). */
  code: number;
  /** The registry's name for the code (`DNSSEC Bogus`, …), `Unknown` otherwise. */
  name: string;
  /** EXTRA-TEXT the server sent (UTF-8), when any. */
  text?: string;
}

export interface DnsResponse {
  /** The question name (normalised) and type. */
  name: string;
  type: RecordType;
  rcode: Rcode;
  answers: DnsRecord[];
  /** The authority section (SOA on negative answers, RFC 2308). */
  authority: DnsRecord[];
  /** The AD flag: the upstream validated the answer with DNSSEC (RFC 4035 §3.2.3). */
  authenticated: boolean;
  /** Which server answered (`ip:port` or the DoH URL). */
  server: string;
  transport: 'udp' | 'tcp' | 'doh' | 'cache';
  /** Extended DNS Errors (RFC 8914) in the answer's OPT record; absent when there were none. */
  extendedErrors?: ExtendedDnsError[];
}

export interface DnsQueryOptions extends BaseOptions {
  /**
   * Set the DO bit (RFC 3225, RFC 4035 §3.2.1) so the server adds RRSIG, NSEC and NSEC3
   * records; implies EDNS0. Records then carry `rdata`. @default false
   */
  dnssecOk?: boolean;
  /**
   * Set the CD bit (RFC 4035 §3.2.2): a validating upstream hands back data even when its own
   * validation fails, so that a validator downstream can examine it. @default false
   */
  checkingDisabled?: boolean;
}

/**
 * Sends one question and returns the whole response, whatever its rcode. Rejects only when
 * no server gave a usable answer: `TimeoutError` (upstream `dns`) when all timed out,
 * `UpstreamError` for network failures.
 */
export interface DnsResolver {
  query(name: string, type: RecordType, options?: DnsQueryOptions): Promise<DnsResponse>;
}
