/**
 * A feed copy's range table on disk, beside the copy: a one-shot lookup reads the few bytes of
 * it its answer needs instead of building the table. The key is the copy's SHA-256. Dataset
 * and version are the reader's to set (`setIntelTable`).
 * @module
 */
import { createHash } from 'node:crypto';
import {
  type CacheKind,
  cacheFilePath,
  openCacheFileSync,
  type PositionedCacheFile,
  writeCacheFile,
} from '../cache-file.js';
import { type IpIntel, intelTableArrays } from './intel.js';

const FEED_TABLE: CacheKind = { name: 'feed-table', format: 1 };

/** Where the table of feed `name` is kept in `dir` (one file per feed, replaced in place). */
export function feedTablePath(dir: string, name: string): string {
  return cacheFilePath(dir, FEED_TABLE, name);
}

/** The key of the table of `copy` (the copy's bytes). */
export function feedTableKey(copy: Buffer | string): string {
  return createHash('sha256').update(copy).digest('hex');
}

/** Writes `intel`'s table (`feedIntel`); a failure (a read-only disk) is returned, not thrown. */
export function writeFeedTable(
  path: string,
  key: string,
  intel: IpIntel,
): Promise<Error | undefined> {
  return writeCacheFile(path, FEED_TABLE, key, {
    meta: { tableSources: intel.tableSources },
    arrays: intelTableArrays(intel),
  });
}

/** The table of `key` at `path`, or undefined (absent, another key, damaged). */
export function openFeedTable(
  path: string,
  key: string,
  keep: boolean,
): PositionedCacheFile | undefined {
  return openCacheFileSync(path, FEED_TABLE, key, keep);
}
