/**
 * The lookup tables of a geolocation source (flattened search trees with the AS ranges merged
 * in, see geo-asn-table.ts), built once and kept on disk in the shared cache format
 * (`ip/cache-file.ts`). Building them walks every node of the DB-IP trees (about 5 s); reading
 * them back takes tens of milliseconds, the arrays viewed in place. The key names the data: the
 * geolocation and AS package versions (or the SHA-256 of a user database's search tree), so
 * new data never reads a stale file; a damaged or inconsistent file is ignored and rebuilt.
 * @module
 */
import type { AsnIndex } from '../asn/asn-index.js';
import { type CacheKind, cacheFilePath, readCacheFile, writeCacheFile } from '../cache-file.js';
import type { MmdbDatabase } from '../mmdb/database.js';
import { MmdbRangeTable } from '../mmdb/range-table.js';
import {
  buildGeoAsnV4,
  buildGeoAsnV6,
  type GeoAsnV4Data,
  type GeoAsnV6Data,
} from './geo-asn-table.js';

/**
 * 3: IPv4 ranges in 8-byte slots, IPv6 range starts and codes together (geo-asn-table.ts).
 * 4: the shared cache format (formats 1–3 were a file of their own layout, "NDIPTB01").
 */
export const TABLE_CACHE: CacheKind = { name: 'ip-tables', format: 4 };

/** Everything `createMmdbGeoSource` needs besides the databases and the AS index. */
export interface GeoTables {
  v4: GeoAsnV4Data;
  v6: GeoAsnV6Data;
  /** Record id → data pointer in the IPv4 database. */
  pointers4: Uint32Array;
  /** The same in the IPv6 database; undefined when it is the IPv4 one or there is none. */
  pointers6: Uint32Array | undefined;
}

/** Flattens the trees and merges the AS ranges (the slow path: seconds on DB-IP). */
export function buildGeoTables(
  v4: MmdbDatabase,
  v6: MmdbDatabase | undefined,
  asn: AsnIndex | undefined,
): GeoTables {
  const table4 = MmdbRangeTable.build(v4);
  const table6 = v6 === undefined ? undefined : v6 === v4 ? table4 : MmdbRangeTable.build(v6);
  return {
    v4: buildGeoAsnV4(table4, asn),
    v6: buildGeoAsnV6(table6, asn),
    pointers4: table4.data.pointers,
    pointers6: table6 === undefined || table6 === table4 ? undefined : table6.data.pointers,
  };
}

/** The cache file for `key`. */
export function tableCacheFile(dir: string, key: string): string {
  return cacheFilePath(dir, TABLE_CACHE, key);
}

/** Reads the tables cached for `key`, or undefined when absent, stale or damaged. */
export function readTableCache(file: string, key: string): Promise<GeoTables | undefined> {
  return readCacheFile(file, TABLE_CACHE, key, (f) => ({
    v4: { bucket: f.u32('v4.bucket'), slots: f.u32('v4.slots') },
    v6: {
      slots: f.u32('v6.slots'),
      nodeBase: f.u32('v6.nodeBase'),
      nodeDepth: f.u8('v6.nodeDepth'),
      nodeStride: f.u8('v6.nodeStride'),
      ranges: f.u32('v6.ranges'),
      deepStart: f.u32('v6.deepStart'),
      deepHi: f.u32('v6.deepHi'),
      deepLo: f.u32('v6.deepLo'),
      deepCodes: f.u32('v6.deepCodes'),
    },
    pointers4: f.u32('pointers4'),
    pointers6: f.has('pointers6') ? f.u32('pointers6') : undefined,
  }));
}

/** Writes the tables for `key`; failures (read-only disk, …) are returned, never thrown. */
export function writeTableCache(
  file: string,
  key: string,
  tables: GeoTables,
): Promise<Error | undefined> {
  const arrays: Record<string, Uint32Array | Uint16Array | Uint8Array> = {
    'v4.bucket': tables.v4.bucket,
    'v4.slots': tables.v4.slots,
    pointers4: tables.pointers4,
  };
  for (const [name, array] of Object.entries(tables.v6)) arrays[`v6.${name}`] = array;
  if (tables.pointers6) arrays['pointers6'] = tables.pointers6;
  return writeCacheFile(file, TABLE_CACHE, key, { arrays });
}

export interface LoadGeoTablesOptions {
  /** Names the data: geolocation and AS sources with their versions or fingerprints. */
  key: string;
  /** Where the tables are kept between runs; `false` neither reads nor writes them. */
  cacheDir: string | false;
  onNote?: ((message: string) => void) | undefined;
  /**
   * Accepts tables read from disk (constructing the lookup objects checks them) or throws;
   * a throw means "damaged": the tables are rebuilt.
   */
  accept?: (tables: GeoTables) => void;
}

/** The tables: from the disk cache, else built (and cached). `how`: `cache` or `built in N ms`. */
export async function loadGeoTables(
  v4: MmdbDatabase,
  v6: MmdbDatabase | undefined,
  asn: AsnIndex | undefined,
  options: LoadGeoTablesOptions,
): Promise<{ tables: GeoTables; how: string }> {
  const { key, cacheDir } = options;
  const file = cacheDir === false ? undefined : tableCacheFile(cacheDir, key);
  if (file) {
    const cached = await readTableCache(file, key);
    if (cached) {
      try {
        options.accept?.(cached);
        return { tables: cached, how: 'cache' };
      } catch {
        // Damaged beyond what the header catches: rebuild and overwrite.
      }
    }
  }
  const started = performance.now();
  const tables = buildGeoTables(v4, v6, asn);
  const ms = Math.round(performance.now() - started);
  if (file && cacheDir !== false) {
    const failure = await writeTableCache(file, key, tables);
    options.onNote?.(
      failure
        ? `IP lookup tables built in ${ms} ms; not cached (${failure.message})`
        : `IP lookup tables built in ${ms} ms; cached in ${file}`,
    );
  }
  return { tables, how: `built in ${ms} ms` };
}
