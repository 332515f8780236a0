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
  | 'PTR';

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
}

export interface DnsQueryOptions extends BaseOptions {}

/**
 * Sends one question and returns the whole response, whatever its rcode. Rejects only when
 * no server gave a usable answer: `TimeoutError` (upstream `dns`) when all timed out,
 * `UpstreamError` for network failures.
 */
export interface DnsResolver {
  query(name: string, type: RecordType, options?: DnsQueryOptions): Promise<DnsResponse>;
}
