/**
 * On-disk copy of a built AS index. Parsing the @ip-location-db/asn CSV files takes about
 * 1.5 s on the development machine (515,000 ranges); reading this file back takes a few tens
 * of milliseconds. The file name carries the data package version and a format number, so a
 * new data release or a new layout never reads a stale file; a damaged file is ignored and
 * rebuilt. Writes go to a temporary name and are renamed into place (atomic on POSIX).
 *
 * Layout: "NDASNIX1" | u32 header length | JSON header | zero padding to 4 bytes |
 * v4Start v4End v4Entry (u32 each) | v6Start v6End (4 × u32 per row) | v6Entry | entryAsn |
 * entry names as UTF-8 joined by "\n". Integers are little-endian (the typed arrays' own
 * layout on every platform Node supports).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AsnIndex } from './asn-index.js';

const MAGIC = 'NDASNIX1';
const FORMAT = 1;

interface Header {
  format: number;
  key: string;
  v4Rows: number;
  v6Rows: number;
  entries: number;
  namesBytes: number;
  source: string;
}

export function asnCacheFile(dir: string, key: string): string {
  return join(dir, `netdiag-asn-index-${key.replace(/[^A-Za-z0-9.@-]+/g, '_')}-f${FORMAT}.bin`);
}

/** Reads a cached index for `key`, or undefined when absent, stale or damaged. */
export async function readAsnCache(file: string, key: string): Promise<AsnIndex | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return undefined;
  }
  try {
    return decode(bytes, key);
  } catch {
    return undefined;
  }
}

function decode(bytes: Buffer, key: string): AsnIndex | undefined {
  if (bytes.toString('latin1', 0, 8) !== MAGIC) return undefined;
  const headerLength = bytes.readUInt32LE(8);
  const header = JSON.parse(bytes.toString('utf8', 12, 12 + headerLength)) as Header;
  if (header.format !== FORMAT || header.key !== key) return undefined;
  let offset = align4(12 + headerLength);
  // Copy into a fresh, aligned ArrayBuffer: Uint32Array views need 4-byte alignment.
  const words = (count: number): Uint32Array => {
    const view = new Uint32Array(count);
    const end = offset + count * 4;
    if (end > bytes.length) throw new Error('truncated');
    Buffer.from(view.buffer).set(bytes.subarray(offset, end));
    offset = end;
    return view;
  };
  const v4Start = words(header.v4Rows);
  const v4End = words(header.v4Rows);
  const v4Entry = words(header.v4Rows);
  const v6Start = words(header.v6Rows * 4);
  const v6End = words(header.v6Rows * 4);
  const v6Entry = words(header.v6Rows);
  const entryAsn = words(header.entries);
  if (offset + header.namesBytes !== bytes.length) throw new Error('size mismatch');
  const entryName = bytes.toString('utf8', offset, offset + header.namesBytes).split('\n');
  if (entryName.length !== header.entries) throw new Error('name count mismatch');
  return new AsnIndex({
    v4Start,
    v4End,
    v4Entry,
    v6Start,
    v6End,
    v6Entry,
    entryAsn,
    entryName,
    source: header.source,
  });
}

/** Writes the index for `key`; failures (read-only disk, …) are returned, never thrown. */
export async function writeAsnCache(
  file: string,
  dir: string,
  key: string,
  index: AsnIndex,
): Promise<Error | undefined> {
  const d = index.data;
  if (d.entryName.some((name) => name.includes('\n'))) {
    return new Error('an AS name contains a newline; not cached');
  }
  const names = Buffer.from(d.entryName.join('\n'), 'utf8');
  const header: Header = {
    format: FORMAT,
    key,
    v4Rows: index.v4Rows,
    v6Rows: index.v6Rows,
    entries: index.entries,
    namesBytes: names.length,
    source: d.source,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(align4(12 + headerBytes.length));
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerBytes.length, 8);
  headerBytes.copy(prefix, 12);
  const arrays = [d.v4Start, d.v4End, d.v4Entry, d.v6Start, d.v6End, d.v6Entry, d.entryAsn].map(
    (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength),
  );
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(temporary, Buffer.concat([prefix, ...arrays, names]));
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
