/**
 * On-disk copy of a built AS index, in the shared cache format (`ip/cache-file.ts`). Parsing
 * the @ip-location-db/asn CSV files takes about 1.5 s on the development machine (515,000
 * ranges); reading this file back takes a few tens of milliseconds. The key carries the data
 * package version, so a new data release never reads a stale file; a damaged file is ignored
 * and rebuilt.
 * @module
 */
import { InvalidInputError } from '../../errors.js';
import { type CacheKind, cacheFilePath, readCacheFile, writeCacheFile } from '../cache-file.js';
import { AsnIndex } from './asn-index.js';

/** 2: the shared cache format (format 1 was a file of its own layout, "NDASNIX1"). */
export const ASN_CACHE: CacheKind = { name: 'asn-index', format: 2 };

export function asnCacheFile(dir: string, key: string): string {
  return cacheFilePath(dir, ASN_CACHE, key);
}

/** Reads a cached index for `key`, or undefined when absent, stale or damaged. */
export function readAsnCache(file: string, key: string): Promise<AsnIndex | undefined> {
  return readCacheFile(file, ASN_CACHE, key, (f) => {
    const data = {
      v4Start: f.u32('v4Start'),
      v4End: f.u32('v4End'),
      v4Entry: f.u32('v4Entry'),
      v6Start: f.u32('v6Start'),
      v6End: f.u32('v6End'),
      v6Entry: f.u32('v6Entry'),
      entryAsn: f.u32('entryAsn'),
      entryName: f.lines('entryName'),
      ...(f.has('entryOrg')
        ? { entryOrg: f.lines('entryOrg'), entryIsp: f.lines('entryIsp') }
        : {}),
      source: String(f.meta['source'] ?? ''),
    };
    const v4 = data.v4Entry.length;
    const v6 = data.v6Entry.length;
    const entries = data.entryAsn.length;
    if (
      data.v4Start.length !== v4 ||
      data.v4End.length !== v4 ||
      data.v6Start.length !== v6 * 4 ||
      data.v6End.length !== v6 * 4 ||
      data.entryName.length !== entries ||
      (data.entryOrg !== undefined && data.entryOrg.length !== entries) ||
      (data.entryIsp !== undefined && data.entryIsp.length !== entries)
    ) {
      throw new InvalidInputError('cache file: inconsistent AS index');
    }
    return new AsnIndex(data);
  });
}

/** Writes the index for `key`; failures (read-only disk, …) are returned, never thrown. */
export function writeAsnCache(
  file: string,
  key: string,
  index: AsnIndex,
): Promise<Error | undefined> {
  const d = index.data;
  return writeCacheFile(file, ASN_CACHE, key, {
    meta: { source: d.source },
    arrays: {
      v4Start: d.v4Start,
      v4End: d.v4End,
      v4Entry: d.v4Entry,
      v6Start: d.v6Start,
      v6End: d.v6End,
      v6Entry: d.v6Entry,
      entryAsn: d.entryAsn,
      entryName: d.entryName,
      ...(d.entryOrg && d.entryIsp ? { entryOrg: d.entryOrg, entryIsp: d.entryIsp } : {}),
    },
  });
}
