/**
 * The one on-disk cache format of netdiag: named typed arrays (and lists of strings) behind a
 * small JSON header, for data that is slow to build and quick to read back (the AS index, the
 * IP lookup tables). A file is read only when everything checks: the magic, the header's kind,
 * layout format and data key, a CRC-32 of all that follows it, and every size; otherwise it
 * counts as absent and is rebuilt. Writes go to a temporary name that is renamed into place
 * (atomic on POSIX), so a reader never sees half a file.
 *
 * Layout: "NDCACHE1" | u32 header length | u32 CRC-32 of the rest of the file | JSON header
 * `{kind, format, key, meta, arrays: [name, type, length, count?][]}` | each array from an
 * 8-byte boundary, zero-padded to the next. Integers are little-endian (the typed arrays' own
 * layout on every platform Node supports). A `lines` entry is UTF-8 text joined by "\n"
 * (`length` in bytes, `count` lines); one of more than `LINE_STEP` lines is followed by a u32
 * entry `<name>:line-starts`, the byte offset of every `LINE_STEP`th line, so that a reader by
 * position can fetch one line without the whole text.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { mkdir, open, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { InvalidInputError } from '../errors.js';

const MAGIC = 'NDCACHE1';
/** Magic, header length, CRC-32. */
const PREFIX_BYTES = 16;
/** Headers are a few hundred bytes; a larger one is damage. */
const MAX_HEADER_BYTES = 1 << 20;

export type CacheArray = Uint32Array | Uint16Array | Uint8Array;

const TYPES = { u32: Uint32Array, u16: Uint16Array, u8: Uint8Array } as const;

/** Every `LINE_STEP`th line's offset (`<name>:line-starts`): one line without the whole text. */
const LINE_STEP = 256;
const LINE_STARTS = ':line-starts';
/** The text read around a line: 256 lines of AS names are ~6 KB; longer ones read it all. */
const LINE_WINDOW = 64 * 1024;
export type TypeName = keyof typeof TYPES | 'lines';
/** The entry type of an array of `CacheContents`. */
export function typeOf(value: CacheArray | readonly string[]): TypeName {
  if (value instanceof Uint32Array) return 'u32';
  return value instanceof Uint16Array ? 'u16' : value instanceof Uint8Array ? 'u8' : 'lines';
}
type Entry = [name: string, type: TypeName, length: number, count?: number];

interface Header {
  kind: string;
  format: number;
  key: string;
  meta: Record<string, unknown>;
  arrays: Entry[];
}

/** What a cache holds and in which layout; a new `format` makes older files unreadable. */
export interface CacheKind {
  /** File-name stem and header tag, e.g. `asn-index`. */
  name: string;
  /** Layout number of this kind's contents: bump it when they change. */
  format: number;
}

export interface CacheContents {
  /** Small JSON facts kept in the header (counts, a source description). */
  meta?: Record<string, unknown>;
  /** The arrays, in the order they are written. */
  arrays: Record<string, CacheArray | readonly string[]>;
}

/** The stem of a key's files, the format left out (long keys are shortened and hashed). */
function fileStem(kind: CacheKind, key: string): string {
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 16);
  const readable = key.replace(/[^A-Za-z0-9.@-]+/g, '_').slice(0, 60);
  return `netdiag-${kind.name}-${readable}-${digest}-f`;
}

export function cacheFilePath(dir: string, kind: CacheKind, key: string): string {
  return join(dir, `${fileStem(kind, key)}${kind.format}.bin`);
}

const align8 = (n: number): number => (n + 7) & ~7;

function damaged(what: string): never {
  throw new InvalidInputError(`cache file: ${what}`);
}

/** The header's entries, each with where it starts. */
interface Layout {
  header: Header;
  spans: Map<string, { entry: Entry; start: number }>;
}

/** The header of a file starting with `prefix`; throws when damaged, undefined for another. */
function layoutOf(prefix: Buffer, kind: CacheKind, key: string, size: number): Layout | undefined {
  if (prefix.length < PREFIX_BYTES || prefix.toString('latin1', 0, 8) !== MAGIC) return undefined;
  const headerLength = prefix.readUInt32LE(8);
  if (headerLength > MAX_HEADER_BYTES || PREFIX_BYTES + headerLength > size) return undefined;
  if (PREFIX_BYTES + headerLength > prefix.length) damaged('truncated header');
  const header = JSON.parse(
    prefix.toString('utf8', PREFIX_BYTES, PREFIX_BYTES + headerLength),
  ) as Header;
  if (header.kind !== kind.name || header.format !== kind.format || header.key !== key) {
    return undefined;
  }
  let offset = align8(PREFIX_BYTES + headerLength);
  const spans = new Map<string, { entry: Entry; start: number }>();
  for (const entry of header.arrays) {
    const [name, type, length] = entry;
    const width = type === 'lines' ? 1 : TYPES[type]?.BYTES_PER_ELEMENT;
    if (!width || !Number.isSafeInteger(length) || length < 0) damaged(`bad entry ${name}`);
    spans.set(name, { entry, start: offset });
    offset = align8(offset + length * width);
    if (offset > size) damaged('truncated');
  }
  if (offset !== size) damaged('size mismatch');
  return { header, spans };
}

/**
 * A cache file read by position, a few elements at a time: what a one-shot lookup needs from
 * a 110 MB table is a few hundred bytes. Element ranges are `[start, end)`; leaving them out
 * reads the whole array. Each getter throws when the entry is missing or mistyped.
 */
export interface PositionedCacheFile {
  readonly meta: Readonly<Record<string, unknown>>;
  has(name: string): boolean;
  /** Elements in array `name` (bytes for `lines`). */
  length(name: string): number;
  /** Every entry's name and type, in file order. */
  entries(): readonly [name: string, type: TypeName][];
  u32(name: string, start?: number, end?: number): Uint32Array;
  u16(name: string, start?: number, end?: number): Uint16Array;
  u8(name: string, start?: number, end?: number): Uint8Array;
  /** The `lines` entry `name`, all of it (`count` lines). */
  lines(name: string): string[];
  /** Line `index` of the `lines` entry `name` (its text is read once and kept). */
  line(name: string, index: number): string;
  close(): void;
}

/** What `readCacheFile`'s decoder gets: a file that passed every check, the CRC-32 included. */
export type CacheFileReader = PositionedCacheFile;

/** Bytes read for the prefix and header at once: headers are a few hundred bytes. */
const FIRST_READ = 64 * 1024;

/**
 * Opens the cache of `key` for reads by position, checking the magic, kind, format, key and
 * every size against the file's, but not the CRC-32 (that reads the whole file, which is what
 * this reader is for not doing): meant for the package's own prebuilt files. Undefined when
 * the file is absent or another; never throws. Reads are synchronous.
 */
export function openCacheFileSync(
  file: string,
  kind: CacheKind,
  key: string,
  /**
   * Keep each array once read whole, and answer reads of it with views of that copy: what a
   * server wants, where a one-shot lookup reads a few elements of each and keeps nothing.
   */
  keep = false,
): PositionedCacheFile | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const from = fd;
    const bytes: Bytes = {
      read: (position, length, into) => readAt(from, position, length, into),
      close: () => closeSync(from),
    };
    let prefix = bytes.read(0, Math.min(size, FIRST_READ));
    const headerLength = prefix.length >= PREFIX_BYTES ? prefix.readUInt32LE(8) : 0;
    if (PREFIX_BYTES + headerLength > prefix.length && headerLength <= MAX_HEADER_BYTES) {
      prefix = bytes.read(0, Math.min(size, PREFIX_BYTES + headerLength));
    }
    const layout = layoutOf(prefix, kind, key, size);
    if (layout === undefined) {
      closeSync(fd);
      return undefined;
    }
    return positioned(bytes, layout, keep);
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

/** Where a reader's bytes come from: a file by position, or a buffer in memory. */
interface Bytes {
  /** `length` bytes at `position`, read into `into` when given. */
  read(position: number, length: number, into?: Uint8Array): Buffer;
  close(): void;
}

function readAt(fd: number, position: number, length: number, into?: Uint8Array): Buffer {
  const bytes = into ?? Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, bytes, done, length - done, position + done);
    if (n === 0) damaged('file shorter than its header says');
    done += n;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, length);
}

function positioned(bytes: Bytes, { header, spans }: Layout, keep: boolean): PositionedCacheFile {
  const spanOf = (name: string, type: TypeName) => {
    const span = spans.get(name);
    if (span?.entry[1] !== type) damaged(`${name} missing`);
    return span;
  };
  const kept = new Map<string, CacheArray>();
  const read = <T extends CacheArray>(
    name: string,
    type: keyof typeof TYPES,
    start = 0,
    end?: number,
  ): T => {
    const span = spanOf(name, type);
    const length = span.entry[2];
    const last = end ?? length;
    if (!(Number.isInteger(start) && Number.isInteger(last) && 0 <= start && start <= last)) {
      throw new RangeError(`${name}: bad range ${start}-${last}`);
    }
    if (last > length) throw new RangeError(`${name}: ${last} is past its ${length} elements`);
    const readRange = (from: number, to: number): T => {
      const out = new TYPES[type](to - from) as T;
      const into = new Uint8Array(out.buffer, 0, out.byteLength);
      bytes.read(span.start + from * out.BYTES_PER_ELEMENT, out.byteLength, into);
      return out;
    };
    if (!keep) return readRange(start, last);
    let whole = kept.get(name) as T | undefined;
    if (whole === undefined) {
      whole = readRange(0, length);
      kept.set(name, whole);
    }
    return (start === 0 && last === length ? whole : whole.subarray(start, last)) as T;
  };
  const texts = new Map<string, Buffer>();
  const keptLines = new Map<string, string[]>();
  const allLines = (name: string): string[] => {
    const { entry, start } = spanOf(name, 'lines');
    let list = keptLines.get(name);
    if (list === undefined) {
      list = splitLines(bytes.read(start, entry[2]), name, entry[3]);
      if (keep) keptLines.set(name, list);
    }
    return list;
  };
  const sampled = new Map<string, Uint32Array>();
  /**
   * Line `index` of a `lines` entry from its `:line-starts` and one window of text after the
   * sampled line; undefined when the file has no offsets or the window ends before the line.
   */
  const nearLine = (name: string, index: number, start: number, length: number) => {
    let starts = sampled.get(name);
    if (starts === undefined) {
      if (spans.get(`${name}${LINE_STARTS}`)?.entry[1] !== 'u32') return undefined;
      starts = read<Uint32Array>(`${name}${LINE_STARTS}`, 'u32');
      sampled.set(name, starts);
    }
    const from = starts[Math.floor(index / LINE_STEP)];
    if (from === undefined || from > length) damaged(`${name}: bad line offsets`);
    const window = bytes.read(start + from, Math.min(length - from, LINE_WINDOW));
    let at = 0;
    for (let k = index % LINE_STEP; k > 0; k--) {
      at = window.indexOf(10, at) + 1;
      if (at === 0) return undefined;
    }
    const to = window.indexOf(10, at);
    if (to === -1 && from + window.length < length) return undefined;
    return window.toString('utf8', at, to === -1 ? window.length : to);
  };
  let open = true;
  return {
    meta: header.meta ?? {},
    has: (name) => spans.has(name),
    length: (name) => spans.get(name)?.entry[2] ?? damaged(`${name} missing`),
    entries: () => header.arrays.map(([name, type]) => [name, type] as [string, TypeName]),
    u32: (name, start, end) => read<Uint32Array>(name, 'u32', start, end),
    u16: (name, start, end) => read<Uint16Array>(name, 'u16', start, end),
    u8: (name, start, end) => read<Uint8Array>(name, 'u8', start, end),
    lines: allLines,
    line(name, index) {
      const span = spanOf(name, 'lines');
      const [, , length, count] = span.entry;
      if (!(Number.isInteger(index) && index >= 0 && index < (count ?? 0))) {
        throw new RangeError(`${name}: no line ${index}`);
      }
      if (keep) return allLines(name)[index] as string;
      let text = texts.get(name);
      if (text === undefined) {
        const near = nearLine(name, index, span.start, length);
        if (near !== undefined) return near;
        text = bytes.read(span.start, length);
        texts.set(name, text);
      }
      return nthLine(text, index, name, count);
    },
    close() {
      if (open) bytes.close();
      open = false;
    },
  };
}

/** Line `index` of a `lines` entry's whole text, found by the native search (no strings made). */
function nthLine(text: Buffer, index: number, name: string, count: number | undefined): string {
  let from = 0;
  for (let k = 0; k < index; k++) {
    from = text.indexOf(10, from) + 1;
    if (from === 0) damaged(`${name}: fewer lines than ${count}`);
  }
  const to = text.indexOf(10, from);
  return text.toString('utf8', from, to === -1 ? text.length : to);
}

/** The UTF-8 byte offset of every `LINE_STEP`th line of `list` joined by "\n". */
function lineStarts(list: readonly string[]): Uint32Array {
  const starts = new Uint32Array(Math.ceil(list.length / LINE_STEP));
  let offset = 0;
  for (let i = 0; i < list.length; i++) {
    if (i % LINE_STEP === 0) starts[i / LINE_STEP] = offset;
    offset += Buffer.byteLength(list[i] as string, 'utf8') + 1;
  }
  return starts;
}

/** A `lines` entry's text as its `count` lines (no lines and one empty line are both 0 bytes). */
function splitLines(text: Buffer, name: string, count: number | undefined): string[] {
  const list = count === 0 ? [] : text.toString('utf8').split('\n');
  if (list.length !== count) damaged(`${name}: ${list.length} lines, ${count} expected`);
  return list;
}

/** The whole file in as few reads as the kernel allows (`readFile` reads 512 KiB pieces). */
async function readWhole(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.allocUnsafe(size);
    let done = 0;
    while (done < size) {
      const { bytesRead } = await handle.read(bytes, done, size - done, done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    // A file that shrank while read: what was read, which the size checks then reject.
    return done === size ? bytes : bytes.subarray(0, done);
  } finally {
    await handle.close();
  }
}

/**
 * Reads the cache of `key` and decodes it with `decode`; `undefined` when the file is absent,
 * of another kind, format or key, damaged, or when `decode` throws (a missing array, checks of
 * its own). Never throws.
 */
export async function readCacheFile<T>(
  file: string,
  kind: CacheKind,
  key: string,
  decode: (reader: CacheFileReader) => T,
): Promise<T | undefined> {
  try {
    const bytes = await readWhole(file);
    // The sizes first (cheap), then the checksum over everything after the prefix.
    const layout = layoutOf(bytes, kind, key, bytes.length);
    if (layout === undefined) return undefined;
    if (crc32(bytes.subarray(PREFIX_BYTES)) !== bytes.readUInt32LE(12))
      damaged('checksum mismatch');
    const read = (position: number, length: number, into?: Uint8Array) => {
      const part = bytes.subarray(position, position + length);
      into?.set(part);
      return part;
    };
    return decode(positioned({ read, close() {} }, layout, false));
  } catch {
    return undefined;
  }
}

/**
 * Writes the cache of `key` (creating its directory), then removes the files of the same key
 * in older formats (an upgrade's leftovers, up to ~100 MB each; files of other keys and newer
 * formats are left alone: another install may share the directory). Failures (read-only disk, a line holding
 * "\n") are returned, never thrown.
 */
export async function writeCacheFile(
  file: string,
  kind: CacheKind,
  key: string,
  contents: CacheContents,
): Promise<Error | undefined> {
  const entries: Entry[] = [];
  const bodies: Buffer[] = [];
  const add = (name: string, array: CacheArray) => {
    entries.push([name, typeOf(array), array.length]);
    bodies.push(Buffer.from(array.buffer, array.byteOffset, array.byteLength));
  };
  for (const [name, value] of Object.entries(contents.arrays)) {
    if (typeOf(value) !== 'lines') {
      add(name, value as CacheArray);
      continue;
    }
    const list = value as readonly string[];
    if (list.some((line) => line.includes('\n'))) {
      return new Error(`an entry of ${name} contains a newline; not cached`);
    }
    const text = Buffer.from(list.join('\n'), 'utf8');
    entries.push([name, 'lines', text.length, list.length]);
    bodies.push(text);
    if (list.length > LINE_STEP) add(`${name}${LINE_STARTS}`, lineStarts(list));
  }
  const header: Header = {
    kind: kind.name,
    format: kind.format,
    key,
    meta: contents.meta ?? {},
    arrays: entries,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(align8(PREFIX_BYTES + headerBytes.length));
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(headerBytes.length, 8);
  headerBytes.copy(prefix, PREFIX_BYTES);
  const parts: Buffer[] = [prefix];
  let crc = crc32(prefix.subarray(PREFIX_BYTES));
  for (const body of bodies) {
    const pad = Buffer.alloc(align8(body.length) - body.length);
    parts.push(body, pad);
    // zlib's crc32() over an empty buffer without memory (an empty array's) restarts at 0.
    for (const part of [body, pad]) if (part.length > 0) crc = crc32(part, crc);
  }
  prefix.writeUInt32LE(crc, 12);

  const dir = dirname(file);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(temporary, parts);
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    return error as Error;
  }
  await removeOlderFormats(dir, kind, key);
  return undefined;
}

async function removeOlderFormats(dir: string, kind: CacheKind, key: string): Promise<void> {
  const stem = fileStem(kind, key);
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const format = name.startsWith(stem) ? /^(\d+)\.bin$/.exec(name.slice(stem.length)) : null;
    // Newer formats stay: a newer install may share the directory.
    if (format && Number(format[1]) < kind.format) await unlink(join(dir, name)).catch(() => {});
  }
}
