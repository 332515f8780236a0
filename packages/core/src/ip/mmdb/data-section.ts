/**
 * The records of a trusted MaxMind DB file without its search tree: only the metadata and
 * the data section are read from disk (19 of DB-IP City Lite's 63 MB IPv4 file, 12 of 71 MB
 * IPv6). Used when cached lookup tables replace every tree walk (see geo/table-cache.ts), so
 * loading neither reads nor holds the trees. Layout: MaxMind-DB-spec.md ("Database
 * Metadata", "Data Section Separator").
 * @module
 */
import { open } from 'node:fs/promises';
import { CheckedDecoder } from './checked-decoder.js';
import {
  checkMetadata,
  findMetadataMarker,
  METADATA_MARKER,
  METADATA_MAX_BYTES,
  MmdbFormatError,
  type MmdbMetadata,
  recordDecoder,
  SEPARATOR_BYTES,
} from './database.js';

/**
 * The bytes records are decoded from, for readers of their own (`geo/flat-record.ts`): the
 * record of tree value `pointer` starts at `sectionStart + pointer - pointerBase` in `bytes`,
 * and pointers inside the data count from `sectionStart` (MaxMind-DB-spec.md, "Pointers").
 */
export interface RawRecords {
  readonly bytes: Buffer;
  readonly sectionStart: number;
  readonly pointerBase: number;
}

/** Decodes records by tree record value (data pointer), like `MmdbDatabase.record`. */
export interface MmdbRecordSource {
  record(pointer: number): Record<string, unknown> | null;
  /** The bytes behind `record`, when they can be read without checks (trusted or verified). */
  readonly raw?: RawRecords | undefined;
}

export interface MmdbDataSection extends MmdbRecordSource {
  readonly metadata: MmdbMetadata;
}

/**
 * Reads the metadata and the data section of a trusted file (its records are not verified).
 * Throws `MmdbFormatError` for a file that is not a MaxMind DB.
 */
export async function readMmdbDataSection(path: string): Promise<MmdbDataSection | undefined> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const tailLength = Math.min(size, METADATA_MAX_BYTES + METADATA_MARKER.length);
    const tail = Buffer.alloc(tailLength);
    await file.read(tail, 0, tailLength, size - tailLength);
    const markerInTail = findMetadataMarker(tail);
    if (markerInTail < 0) {
      throw new MmdbFormatError('no MaxMind DB metadata marker in the last 128 KiB');
    }
    const metadataStart = markerInTail + METADATA_MARKER.length;
    const metadata = checkMetadata(
      new CheckedDecoder(tail, metadataStart, tail.length, 'metadata').decode(metadataStart),
    );
    const markerAt = size - tailLength + markerInTail;
    const dataStart = (metadata.node_count * metadata.record_size) / 4 + SEPARATOR_BYTES;
    if (dataStart > markerAt) throw new MmdbFormatError('the search tree runs past the metadata');
    const data = Buffer.alloc(markerAt - dataStart);
    await file.read(data, 0, data.length, dataStart);
    const decodeAt = recordDecoder(data, 0);
    const base = metadata.node_count + SEPARATOR_BYTES;
    return {
      metadata,
      raw: { bytes: data, sectionStart: 0, pointerBase: base },
      record(pointer) {
        const offset = pointer - base;
        if (offset < 0 || offset >= data.length) {
          throw new MmdbFormatError(`record pointer ${pointer} lies outside the data section`);
        }
        return decodeAt(offset) as Record<string, unknown> | null;
      },
    };
  } finally {
    await file.close();
  }
}
