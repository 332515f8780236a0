/**
 * One-shot IP lookups: a command-line lookup or a script's few calls answered from the
 * prebuilt files by position (`direct-lookup.ts`), without loading the datasets a server
 * keeps. `undefined` (from `openIpLookup` or a `lookup`) means the caller loads the datasets
 * (`lookupIp`, an engine) for that answer, which is then the same as ever:
 *
 *     const answer = direct?.lookup(ip) ?? (await lookupIp(ip));
 * @module
 */
import { tmpdir } from 'node:os';
import type { Env } from '../../config/env.js';
import { envReader } from '../../config/env.js';
import { NETDIAG_CONFIG_ENV } from '../../config/env-names.js';
import { embeddedTablesKey } from '../data-packages.js';
import { type DirectLookup, openDirectLookup } from './direct-lookup.js';

export interface OpenIpLookupOptions {
  /**
   * Where the settings below are read when not given (NETDIAG_GEOIP_DB, NETDIAG_ASN_DB,
   * NETDIAG_CACHE_DIR, as the engine reads them). @default process.env
   */
  env?: Env;
  /** A MaxMind City or Country database instead of the embedded data (no direct lookups). */
  geoipDb?: string;
  /** A MaxMind ASN or ISP database instead of the embedded data (no direct lookups). */
  asnDb?: string;
  /** Where the feeds keep their copies. @default os.tmpdir() */
  cacheDir?: string;
  /** @default the package's `data/ip-tables` */
  prebuiltDir?: string;
}

/**
 * The prebuilt files opened for direct lookups (close it when done): each answer is the one an
 * engine (`createNetdiag`) configured from the same settings gives. `undefined` when they cannot
 * give it: a user database, a feed's copy in the cache directory (the engine applies it), no
 * prebuilt files for the installed data (a build with NETDIAG_BUILD_TABLES=0). Never throws.
 */
export function openIpLookup(options: OpenIpLookupOptions = {}): DirectLookup | undefined {
  const read = envReader(options.env ?? process.env);
  const v = NETDIAG_CONFIG_ENV;
  let key: string;
  try {
    key = embeddedTablesKey();
  } catch {
    return undefined; // The data packages are missing: the datasets' load says so.
  }
  return openDirectLookup({
    key,
    geoipDb: options.geoipDb ?? read.str(v.geoipDb),
    asnDb: options.asnDb ?? read.str(v.asnDb),
    cacheDir: options.cacheDir ?? read.str(v.cacheDir) ?? tmpdir(),
    ...(options.prebuiltDir !== undefined ? { prebuiltDir: options.prebuiltDir } : {}),
  });
}
