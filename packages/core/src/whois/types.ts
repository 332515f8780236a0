/**
 * Result shapes and shared options of the WHOIS/RDAP capability (SPEC 2.9, CONTRACT §2 and §6).
 * @module
 */
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { Cache } from '../net/cache.js';
import type { DnsResolver } from '../net/dns-types.js';
import type { CidrSet } from '../net/ranges.js';
import type { BaseOptions } from '../types.js';
import type { BootstrapLoader } from './bootstrap.js';
import type { whoisDataSchema, whoisV1DataSchema } from './schema.js';

/**
 * The SPEC 2.9 record, the `data` of `GET /api/v1/whois/:domain`. Unknown values keep their
 * type: `""` for text, `null` for the IANA id, `[]` for lists (CONTRACT §2).
 */
export type WhoisResult = z.output<typeof whoisV1DataSchema>;

/** The `data` of `GET /api/whois`: the v1 record plus the source that answered. */
export type WhoisLookupResult = z.output<typeof whoisDataSchema>;

/** Network seams shared by RDAP and WHOIS lookups. */
export interface WhoisSeams extends BaseOptions {
  /**
   * URL of IANA's RDAP `dns.json`; `ipv4.json`, `ipv6.json` and `asn.json` are read beside it.
   * @default 'https://data.iana.org/rdap/dns.json'
   */
  bootstrapUrl?: string;
  /** A shared bootstrap loader (one per app, so the 24 h cache is shared). */
  bootstrap?: BootstrapLoader;
  /** Cache for the bootstrap files when no `bootstrap` loader is given. @default a process-wide memory cache */
  cache?: Cache;
  /** undici dispatcher for RDAP requests (tests, proxies); wins over `resolver` for HTTP. */
  dispatcher?: Dispatcher;
  /** Resolves the bootstrap, RDAP and WHOIS hosts (CONTRACT §5). @default getaddrinfo */
  resolver?: DnsResolver;
  /** Time budget of one RDAP request in ms. @default 8000 */
  rdapTimeoutMs?: number;
  /**
   * CIDRs that hosts named by remote answers (RDAP URLs, WHOIS referrals, redirects) may resolve
   * to although not public (NETDIAG_ALLOWED_TARGETS); all else passes the SSRF guard. @default []
   */
  allowedTargets?: readonly string[] | CidrSet;
  /** Follow the registrar's RDAP record (`links[rel=related]`) to fill gaps. @default true */
  followRegistrar?: boolean;
}

export interface WhoisClientOptions {
  /** Root of the WHOIS referral chain, `host[:port]`. @default 'whois.iana.org:43' */
  whoisServer?: string;
  /** Time budget of one WHOIS hop (connect + answer) in ms. @default 8000 */
  whoisHopTimeoutMs?: number;
  /** Largest answer read from one WHOIS server; the rest is cut off. @default 262144 */
  whoisMaxBytes?: number;
  /** Resolves the root server and every referral host. @default the system resolver */
  resolver?: DnsResolver;
  /** Non-public CIDRs a referral may lead to, on any port (NETDIAG_ALLOWED_TARGETS). @default [] */
  allowedTargets?: readonly string[] | CidrSet;
}
