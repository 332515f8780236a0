/**
 * On-disk copy of a flattened search tree (`range-table.ts`). Flattening the DB-IP City Lite
 * trees takes a few seconds; reading this file back takes tens of milliseconds. The file name
 * carries the key (data package version and file, or the SHA-256 of a user database's tree)
 * and a format number, so a new data release or layout never reads a stale file; a damaged
 * file is ignored and rebuilt. Writes go to a temporary name and are renamed into place.
 *
 * Layout: "NDMMRT01" | u32 header length | JSON header | zero padding to 4 bytes | v4Bucket
 * | v4Value | v6Bucket | v6Hi | v6Lo | v6Value | pointers (u32 each) | v4Low (u16).
 * Integers are little-endian (the typed arrays' own layout on every platform Node supports).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MmdbDatabase } from './database.js';
import { MmdbRangeTable, type RangeTableData } from './range-table.js';

const MAGIC = 'NDMMRT01';
const FORMAT = 1;

interface Header {
  format: number;
  key: string;
  v4Entries: number;
  v6Entries: number;
  v6Bits: number;
  v6Buckets: number;
  records: number;
}

export function rangeTableCacheFile(dir: string, key: string): string {
  return join(dir, `netdiag-mmdb-table-${key.replace(/[^A-Za-z0-9.@-]+/g, '_')}-f${FORMAT}.bin`);
}

/** Reads the table cached for `key`, or undefined when absent, stale or damaged. */
export async function readRangeTableCache(
  file: string,
  key: string,
): Promise<RangeTableData | undefined> {
  try {
    return decode(await readFile(file), key);
  } catch {
    return undefined;
  }
}

function decode(bytes: Buffer, key: string): RangeTableData | undefined {
  if (bytes.toString('latin1', 0, 8) !== MAGIC) return undefined;
  const headerLength = bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.toString('utf8', 12, 12 + headerLength)) as Header;
  if (header.format !== FORMAT || header.key !== key) return undefined;
  let offset = align4(12 + headerLength);
  const take = (count: number, size: 2 | 4): Uint32Array | Uint16Array => {
    const end = offset + count * size;
    if (end > bytes.length) throw new Error('truncated');
    const at = bytes.byteOffset + offset;
    let view: Uint32Array | Uint16Array;
    if (at % size === 0) {
      // Large files get their own ArrayBuffer: view it in place rather than copy 100 MB.
      view =
        size === 4
          ? new Uint32Array(bytes.buffer, at, count)
          : new Uint16Array(bytes.buffer, at, count);
    } else {
      view = size === 4 ? new Uint32Array(count) : new Uint16Array(count);
      Buffer.from(view.buffer).set(bytes.subarray(offset, end));
    }
    offset = end;
    return view;
  };
  const u32 = (count: number) => take(count, 4) as Uint32Array;
  const data: RangeTableData = {
    v4Bucket: u32(65_537),
    v4Value: u32(header.v4Entries),
    v6Bits: header.v6Bits,
    v6Bucket: u32(header.v6Buckets),
    v6Hi: u32(header.v6Entries),
    v6Lo: u32(header.v6Entries),
    v6Value: u32(header.v6Entries),
    pointers: u32(header.records),
    v4Low: take(header.v4Entries, 2) as Uint16Array,
  };
  if (offset !== bytes.length) throw new Error('size mismatch');
  return data;
}

/** Writes the table for `key`; failures (read-only disk, …) are returned, never thrown. */
export async function writeRangeTableCache(
  file: string,
  dir: string,
  key: string,
  data: RangeTableData,
): Promise<Error | undefined> {
  const header: Header = {
    format: FORMAT,
    key,
    v4Entries: data.v4Value.length,
    v6Entries: data.v6Value.length,
    v6Bits: data.v6Bits,
    v6Buckets: data.v6Bucket.length,
    records: data.pointers.length,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(align4(12 + headerBytes.length));
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerBytes.length, 8);
  headerBytes.copy(prefix, 12);
  const arrays = [
    data.v4Bucket,
    data.v4Value,
    data.v6Bucket,
    data.v6Hi,
    data.v6Lo,
    data.v6Value,
    data.pointers,
    data.v4Low,
  ].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(temporary, Buffer.concat([prefix, ...arrays]));
    await rename(temporary, file);
    return undefined;
  } catch (error) {
    await unlink(temporary).catch(() => {});
    return error as Error;
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

export interface LoadRangeTableOptions {
  /** Identifies the tree: data package version and file, or the tree's SHA-256. */
  key: string;
  /** Where the table is kept between runs; `false` neither reads nor writes it. */
  cacheDir: string | false;
  onNote?: ((message: string) => void) | undefined;
}

/**
 * The flattened tree of `db`: read from the disk cache, else built (and cached). `how` says
 * which (`cache` or `built in N ms`).
 */
export async function loadRangeTable(
  db: MmdbDatabase,
  options: LoadRangeTableOptions,
): Promise<{ table: MmdbRangeTable; how: string }> {
  const { key, cacheDir } = options;
  const file = cacheDir === false ? undefined : rangeTableCacheFile(cacheDir, key);
  if (file) {
    const data = await readRangeTableCache(file, key);
    if (data) {
      try {
        return { table: new MmdbRangeTable(db, data), how: 'cache' };
      } catch {
        // Damaged beyond what the header catches: rebuild and overwrite.
      }
    }
  }
  const started = performance.now();
  const table = MmdbRangeTable.build(db);
  const ms = Math.round(performance.now() - started);
  if (file && cacheDir !== false) {
    const failure = await writeRangeTableCache(file, cacheDir, key, table.data);
    options.onNote?.(
      failure
        ? `search tree ${key} flattened in ${ms} ms; not cached (${failure.message})`
        : `search tree ${key} flattened in ${ms} ms; cached in ${file}`,
    );
  }
  return { table, how: `built in ${ms} ms` };
}
