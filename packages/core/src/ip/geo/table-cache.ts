/**
 * The lookup tables of a geolocation source (flattened search trees with the AS ranges merged
 * in, see geo-asn-table.ts), built once and kept on disk. Building them walks every node of
 * the DB-IP trees (about 5 s); reading them back takes tens of milliseconds and allocates
 * nothing temporary. The key names the data: the geolocation and AS package versions (or
 * the SHA-256 of a user database's search tree) and a format number, so new data or a new
 * layout never reads a stale file; a damaged or inconsistent file is ignored and rebuilt.
 * Writes go to a temporary name and are renamed into place (atomic on POSIX).
 *
 * Layout: "NDIPTB01" | u32 header length | JSON header (key, array names, types, lengths) |
 * each array, starting on a 4-byte boundary. Integers are little-endian (the typed arrays'
 * own layout on every platform Node supports).
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AsnIndex } from '../asn/asn-index.js';
import type { MmdbDatabase } from '../mmdb/database.js';
import { MmdbRangeTable } from '../mmdb/range-table.js';
import {
  buildGeoAsnV4,
  buildGeoAsnV6,
  type GeoAsnV4Data,
  type GeoAsnV6Data,
} from './geo-asn-table.js';

const MAGIC = 'NDIPTB01';
/** 3: IPv4 ranges in 8-byte slots, IPv6 range starts and codes together (geo-asn-table.ts). */
const FORMAT = 3;

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

type Typed = Uint32Array | Uint16Array | Uint8Array;
const TYPES = { u32: Uint32Array, u16: Uint16Array, u8: Uint8Array } as const;
type TypeName = keyof typeof TYPES;

interface Header {
  format: number;
  key: string;
  arrays: [name: string, type: TypeName, length: number][];
}

function flatten(tables: GeoTables): [string, Typed][] {
  const out: [string, Typed][] = [
    ['v4.bucket', tables.v4.bucket],
    ['v4.slots', tables.v4.slots],
    ['pointers4', tables.pointers4],
  ];
  for (const [name, array] of Object.entries(tables.v6)) out.push([`v6.${name}`, array]);
  if (tables.pointers6) out.push(['pointers6', tables.pointers6]);
  return out;
}

function typeOf(array: Typed): TypeName {
  if (array instanceof Uint32Array) return 'u32';
  return array instanceof Uint16Array ? 'u16' : 'u8';
}

/** The cache file name for `key` without its format suffix (user database keys are long: hashed). */
function fileStem(key: string): string {
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 16);
  const readable = key.replace(/[^A-Za-z0-9.@-]+/g, '_').slice(0, 60);
  return `netdiag-ip-tables-${readable}-${digest}-f`;
}

/** The cache file for `key`. */
export function tableCacheFile(dir: string, key: string): string {
  return join(dir, `${fileStem(key)}${FORMAT}.bin`);
}

/**
 * Removes the files of the same data in other formats (an upgrade's leftovers, ~100 MB each).
 * Files of other data are left alone: another install may share the directory.
 */
async function removeOtherFormats(dir: string, key: string): Promise<void> {
  const stem = fileStem(key);
  const current = `${stem}${FORMAT}.bin`;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith(stem) && name.endsWith('.bin') && name !== current) {
      await unlink(join(dir, name)).catch(() => {});
    }
  }
}

/** Reads the tables cached for `key`, or undefined when absent, stale or damaged. */
export async function readTableCache(file: string, key: string): Promise<GeoTables | undefined> {
  try {
    return decode(await readFile(file), key);
  } catch {
    return undefined;
  }
}

function decode(bytes: Buffer, key: string): GeoTables | undefined {
  if (bytes.toString('latin1', 0, 8) !== MAGIC) return undefined;
  const headerLength = bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.toString('utf8', 12, 12 + headerLength)) as Header;
  if (header.format !== FORMAT || header.key !== key) return undefined;
  let offset = align4(12 + headerLength);
  const arrays = new Map<string, Typed>();
  for (const [name, type, length] of header.arrays) {
    const Type = TYPES[type];
    const end = offset + length * Type.BYTES_PER_ELEMENT;
    if (!Type || end > bytes.length) throw new Error('truncated');
    const at = bytes.byteOffset + offset;
    // A large file has its own ArrayBuffer: view it in place rather than copy 100 MB.
    let view: Typed;
    if (at % Type.BYTES_PER_ELEMENT === 0) view = new Type(bytes.buffer as ArrayBuffer, at, length);
    else {
      view = new Type(length);
      Buffer.from(view.buffer).set(bytes.subarray(offset, end));
    }
    arrays.set(name, view);
    offset = align4(end);
  }
  if (offset !== align4(bytes.length)) throw new Error('size mismatch');
  const get = <T extends Typed>(name: string, Type: new (n: number) => T): T => {
    const array = arrays.get(name);
    if (!(array instanceof Type)) throw new Error(`${name} missing`);
    return array;
  };
  return {
    v4: {
      bucket: get('v4.bucket', Uint32Array),
      slots: get('v4.slots', Uint32Array),
    },
    v6: {
      slots: get('v6.slots', Uint32Array),
      nodeBase: get('v6.nodeBase', Uint32Array),
      nodeDepth: get('v6.nodeDepth', Uint8Array),
      nodeStride: get('v6.nodeStride', Uint8Array),
      ranges: get('v6.ranges', Uint32Array),
      deepStart: get('v6.deepStart', Uint32Array),
      deepHi: get('v6.deepHi', Uint32Array),
      deepLo: get('v6.deepLo', Uint32Array),
      deepCodes: get('v6.deepCodes', Uint32Array),
    },
    pointers4: get('pointers4', Uint32Array),
    pointers6: arrays.has('pointers6') ? get('pointers6', Uint32Array) : undefined,
  };
}

/** Writes the tables for `key`; failures (read-only disk, …) are returned, never thrown. */
export async function writeTableCache(
  file: string,
  dir: string,
  key: string,
  tables: GeoTables,
): Promise<Error | undefined> {
  const arrays = flatten(tables);
  const header: Header = {
    format: FORMAT,
    key,
    arrays: arrays.map(([name, array]) => [name, typeOf(array), array.length]),
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const parts: Buffer[] = [];
  const prefix = Buffer.alloc(align4(12 + headerBytes.length));
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerBytes.length, 8);
  headerBytes.copy(prefix, 12);
  parts.push(prefix);
  for (const [, array] of arrays) {
    parts.push(Buffer.from(array.buffer, array.byteOffset, array.byteLength));
    const pad = align4(array.byteLength) - array.byteLength;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(temporary, parts);
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
    const failure = await writeTableCache(file, cacheDir, key, tables);
    if (!failure) await removeOtherFormats(cacheDir, key);
    options.onNote?.(
      failure
        ? `IP lookup tables built in ${ms} ms; not cached (${failure.message})`
        : `IP lookup tables built in ${ms} ms; cached in ${file}`,
    );
  }
  return { tables, how: `built in ${ms} ms` };
}
