/**
 * A MaxMind DB (MMDB) file: checked metadata, an allocation-free search-tree walk on integer
 * addresses, and record decoding by offset with the same checked decoder.
 * Format: MaxMind-DB-spec.md (github.com/maxmind/MaxMind-DB).
 * @module
 */
import { createHash } from 'node:crypto';
import { CheckedDecoder, MmdbFormatError } from './checked-decoder.js';

export { MmdbFormatError } from './checked-decoder.js';

/** "\xAB\xCD\xEFMaxMind.com": the metadata start marker (spec, "Database Metadata"). */
const METADATA_MARKER = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex');
/** The metadata section, marker included, is at most 128 KiB (spec). */
const METADATA_MAX_BYTES = 128 * 1024;
/** 16 NUL bytes separate the search tree from the data section (spec). */
const SEPARATOR_BYTES = 16;

/**
 * How much of the file is proven sound before use.
 * - `full`: at open, walk the whole search tree and verify every record it reaches (a
 *   corrupt file fails at start-up; costs about 0.1 s per million tree nodes);
 * - `lazy`: at open, check the metadata and sizes; verify each record the first time a
 *   lookup reaches it (a corrupt record fails that lookup);
 * - `trusted`: check the metadata and sizes only (the embedded, known-good data).
 */
export type VerifyMode = 'full' | 'lazy' | 'trusted';

export interface MmdbMetadata {
  database_type: string;
  ip_version: 4 | 6;
  record_size: 24 | 28 | 32;
  node_count: number;
  binary_format_major_version: number;
  binary_format_minor_version: number;
  /** Build time as an ISO timestamp, or '' when absent or not representable. */
  build_date: string;
  languages: string[];
  description: Record<string, string>;
}

/** One network of the tree, as visited by {@link MmdbDatabase.forEachNetwork}. */
export interface MmdbNetwork {
  /** 4 for networks inside the IPv4 space (`::/96` in an IPv6 tree), else 6. */
  version: 4 | 6;
  /** First address as four big-endian words (IPv4: only `w3` is used). */
  w0: number;
  w1: number;
  w2: number;
  w3: number;
  /** Prefix length (in IPv4 bits for version 4). */
  prefix: number;
  /** Tree record value pointing at the network's data. */
  pointer: number;
}

export class MmdbDatabase {
  readonly metadata: MmdbMetadata;
  /** Prefix length of the network matched by the last `findV4`/`findV6` call. */
  prefixLength = 0;
  private readonly db: Buffer;
  /** Number of search-tree nodes: record values below it are nodes, equal means "no data". */
  readonly nodeCount: number;
  private readonly recordSize: number;
  private readonly nodeBytes: number;
  private readonly dataStart: number;
  private readonly dataEnd: number;
  /** Record value where IPv4 lookups start (0 in an IPv4 tree; `::/96` in an IPv6 tree). */
  readonly ipv4Start: number;
  private readonly checker: CheckedDecoder;
  private readonly lazy: boolean;

  /** Opens a database from its bytes; throws `MmdbFormatError` saying what is wrong. */
  constructor(db: Buffer, verify: VerifyMode = 'full') {
    this.db = db;
    const markerAt = db.lastIndexOf(METADATA_MARKER);
    if (markerAt < 0 || markerAt < db.length - METADATA_MAX_BYTES) {
      throw new MmdbFormatError(
        'no MaxMind DB metadata marker in the last 128 KiB (not a MaxMind DB file)',
      );
    }
    const metadataStart = markerAt + METADATA_MARKER.length;
    const meta = new CheckedDecoder(db, metadataStart, db.length, 'metadata').decode(metadataStart);
    this.metadata = checkMetadata(meta);
    this.nodeCount = this.metadata.node_count;
    this.recordSize = this.metadata.record_size;
    this.nodeBytes = this.recordSize / 4;
    const treeBytes = this.nodeCount * this.nodeBytes;
    if (treeBytes + SEPARATOR_BYTES > markerAt) {
      throw new MmdbFormatError(
        `metadata node_count ${this.nodeCount} needs a ${treeBytes}-byte search tree, ` +
          `but only ${Math.max(0, markerAt - SEPARATOR_BYTES)} bytes precede the data section`,
      );
    }
    this.dataStart = treeBytes + SEPARATOR_BYTES;
    this.dataEnd = markerAt;
    this.checker = new CheckedDecoder(db, this.dataStart, this.dataEnd, 'data section');
    this.ipv4Start = this.findIpv4Start();
    if (verify === 'full') this.verifyTree();
    this.lazy = verify === 'lazy';
  }

  /**
   * Walks the tree for an IPv4 address (a uint32). Returns the record value of the matching
   * network's data (> node count), or 0 when the address has no data. Sets `prefixLength`.
   */
  findV4(address: number): number {
    let node = this.ipv4Start;
    let depth = 0;
    while (node < this.nodeCount && depth < 32) {
      node = this.readRecord(node, (address >>> (31 - depth)) & 1);
      depth++;
    }
    this.prefixLength = depth;
    return this.terminal(node, depth);
  }

  /** Like {@link findV4} for an IPv6 address given as four big-endian words. */
  findV6(w0: number, w1: number, w2: number, w3: number): number {
    if (this.metadata.ip_version === 4) {
      this.prefixLength = 0;
      return 0;
    }
    let node = 0;
    let depth = 0;
    const count = this.nodeCount;
    while (node < count && depth < 128) {
      const word = depth < 32 ? w0 : depth < 64 ? w1 : depth < 96 ? w2 : w3;
      node = this.readRecord(node, (word >>> (31 - (depth & 31))) & 1);
      depth++;
    }
    this.prefixLength = depth;
    return this.terminal(node, depth);
  }

  /** The record behind a pointer from `findV4`/`findV6`. */
  record(pointer: number): Record<string, unknown> | null {
    const offset = this.dataOffset(pointer, 0);
    if (this.lazy) this.checker.verify(offset);
    return this.checker.decode(offset) as Record<string, unknown> | null;
  }

  /**
   * Visits every network with data, in address order. Aliased subtrees (`::ffff:0:0/96` and
   * `2002::/16` pointing at the IPv4 subtree) are visited once, under `::/96`.
   */
  forEachNetwork(visit: (network: MmdbNetwork) => void): void {
    const seen = new Uint8Array(this.nodeCount);
    const words = new Uint32Array(4);
    const bits = this.metadata.ip_version === 6 ? 128 : 32;
    const network: MmdbNetwork = { version: 4, w0: 0, w1: 0, w2: 0, w3: 0, prefix: 0, pointer: 0 };
    const emit = (pointer: number, depth: number) => {
      const inV4 =
        bits === 32 || (words[0] === 0 && words[1] === 0 && words[2] === 0 && depth >= 96);
      network.version = inV4 ? 4 : 6;
      network.w0 = words[0] as number;
      network.w1 = words[1] as number;
      network.w2 = words[2] as number;
      network.w3 = words[3] as number;
      network.prefix = inV4 && bits === 128 ? depth - 96 : depth;
      network.pointer = pointer;
      visit(network);
    };
    const descend = (node: number, depth: number): void => {
      seen[node] = 1;
      for (let bit = 0; bit < 2; bit++) {
        const value = this.readRecord(node, bit);
        const shift = bits === 32 ? 96 + depth : depth;
        const word = shift >>> 5;
        const mask = 1 << (31 - (shift & 31));
        if (bit) words[word] = (words[word] as number) | mask;
        if (value < this.nodeCount) {
          if (!seen[value]) descend(value, depth + 1);
        } else if (value > this.nodeCount) {
          emit(value, depth + 1);
        }
        if (bit) words[word] = (words[word] as number) & ~mask;
      }
    };
    if (this.nodeCount > 0) descend(0, 0);
  }

  /** The left (`right` = 0) or right record value of a tree node. */
  readRecord(node: number, right: number): number {
    const db = this.db;
    const o = node * this.nodeBytes;
    switch (this.recordSize) {
      case 24:
        return right
          ? ((db[o + 3] as number) << 16) | ((db[o + 4] as number) << 8) | (db[o + 5] as number)
          : ((db[o] as number) << 16) | ((db[o + 1] as number) << 8) | (db[o + 2] as number);
      case 28:
        return right
          ? (((db[o + 3] as number) & 0x0f) << 24) |
              ((db[o + 4] as number) << 16) |
              ((db[o + 5] as number) << 8) |
              (db[o + 6] as number)
          : (((db[o + 3] as number) & 0xf0) << 20) |
              ((db[o] as number) << 16) |
              ((db[o + 1] as number) << 8) |
              (db[o + 2] as number);
      default:
        return right ? db.readUInt32BE(o + 4) : db.readUInt32BE(o);
    }
  }

  /** True when a record value points at data inside the data section (no throw). */
  isDataPointer(value: number): boolean {
    const offset = value - this.nodeCount - SEPARATOR_BYTES;
    return value > this.nodeCount && offset >= 0 && this.dataStart + offset < this.dataEnd;
  }

  /** SHA-256 of the search tree and its shape: equal fingerprints mean equal tree walks. */
  treeFingerprint(): string {
    const shape = `${this.metadata.ip_version}/${this.recordSize}/${this.nodeCount}/`;
    return createHash('sha256')
      .update(shape)
      .update(this.db.subarray(0, this.nodeCount * this.nodeBytes))
      .digest('hex');
  }

  /** Checks where a walk ended: data (returns the pointer), nothing (0), or corruption. */
  private terminal(node: number, depth: number): number {
    if (node === this.nodeCount) return 0;
    if (node < this.nodeCount) {
      throw new MmdbFormatError(`search tree goes deeper than ${depth} bits (corrupt tree)`);
    }
    this.dataOffset(node, depth);
    return node;
  }

  /** Absolute file offset of a data pointer, checked to lie inside the data section. */
  private dataOffset(pointer: number, depth: number): number {
    const offset = pointer - this.nodeCount - SEPARATOR_BYTES;
    if (offset < 0 || this.dataStart + offset >= this.dataEnd) {
      throw new MmdbFormatError(
        `search tree record ${pointer}${depth >= 0 ? ` (at depth ${depth})` : ''} points ${offset < 0 ? 'into the data section separator' : 'past the end of the data section'}`,
      );
    }
    return this.dataStart + offset;
  }

  /** The node where IPv4 lookups start: 96 left turns down an IPv6 tree (spec). */
  private findIpv4Start(): number {
    if (this.metadata.ip_version === 4) return 0;
    let node = 0;
    let depth = 0;
    while (depth < 96 && node < this.nodeCount) {
      node = this.readRecord(node, 0);
      depth++;
    }
    if (node > this.nodeCount) this.dataOffset(node, depth);
    return node;
  }

  /**
   * Proves the tree sound: every node's records are checked (even in an unused node), then a
   * depth-first walk from the root finds cycles and over-deep paths and verifies every record
   * a lookup can reach.
   */
  private verifyTree(): void {
    const count = this.nodeCount;
    for (let node = 0; node < count; node++) {
      for (let bit = 0; bit < 2; bit++) {
        const value = this.readRecord(node, bit);
        if (value === 0) {
          throw new MmdbFormatError(
            `search tree node ${node} points back to the root node (corrupt tree)`,
          );
        }
        if (value > count) this.dataOffset(value, -1);
      }
    }
    // 0 = not visited, 1 = on the current path, 2 = done. An edge to a node on the path is a
    // cycle; an edge to a finished node is an alias (::ffff:0:0/96 and 2002::/16 → IPv4).
    const state = new Uint8Array(count);
    const maxDepth = this.metadata.ip_version === 6 ? 128 : 32;
    const visit = (node: number, depth: number): void => {
      state[node] = 1;
      for (let bit = 0; bit < 2; bit++) {
        const value = this.readRecord(node, bit);
        if (value < count) {
          if (depth + 1 >= maxDepth || state[value] === 1) {
            throw new MmdbFormatError(
              `search tree node ${node} leads ${state[value] === 1 ? 'into a cycle' : `deeper than ${maxDepth} bits`} (corrupt tree)`,
            );
          }
          if (state[value] === 0) visit(value, depth + 1);
        } else if (value > count) {
          this.checker.verify(this.dataOffset(value, depth + 1));
        }
      }
      state[node] = 2;
    };
    visit(0, 0);
  }
}

function checkMetadata(value: unknown): MmdbMetadata {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MmdbFormatError('metadata is not a map');
  }
  const m = value as Record<string, unknown>;
  const uint = (key: string): number => {
    const v = m[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      throw new MmdbFormatError(
        `metadata ${key} is ${v === undefined ? 'missing' : `not a 32-bit unsigned integer (${typeof v})`}`,
      );
    }
    return v;
  };
  const major = uint('binary_format_major_version');
  if (major !== 2) throw new MmdbFormatError(`unsupported binary format version ${major}`);
  const recordSize = uint('record_size');
  if (recordSize !== 24 && recordSize !== 28 && recordSize !== 32) {
    throw new MmdbFormatError(`unsupported record_size ${recordSize} (24, 28 or 32 expected)`);
  }
  const ipVersion = uint('ip_version');
  if (ipVersion !== 4 && ipVersion !== 6) {
    throw new MmdbFormatError(`unsupported ip_version ${ipVersion}`);
  }
  const nodeCount = uint('node_count');
  if (nodeCount === 0) throw new MmdbFormatError('metadata node_count is 0');
  if (typeof m['database_type'] !== 'string') {
    throw new MmdbFormatError('metadata database_type is missing');
  }
  const epoch = m['build_epoch'];
  const seconds = typeof epoch === 'bigint' ? Number(epoch) : epoch;
  // Dates stop at ±8.64e15 ms (ECMA-262 §21.4.1.1); a larger epoch (UINT64_MAX in one test
  // file) has no date rather than an overflow.
  const buildDate =
    typeof seconds === 'number' && seconds >= 0 && seconds * 1000 <= 8.64e15
      ? new Date(seconds * 1000).toISOString()
      : '';
  const languages = Array.isArray(m['languages'])
    ? (m['languages'] as unknown[]).filter((l): l is string => typeof l === 'string')
    : [];
  const description: Record<string, string> = {};
  if (typeof m['description'] === 'object' && m['description'] !== null) {
    for (const [k, v] of Object.entries(m['description'] as Record<string, unknown>)) {
      if (typeof v === 'string') description[k] = v;
    }
  }
  return {
    database_type: m['database_type'] as string,
    ip_version: ipVersion,
    record_size: recordSize,
    node_count: nodeCount,
    binary_format_major_version: major,
    binary_format_minor_version:
      typeof m['binary_format_minor_version'] === 'number' ? m['binary_format_minor_version'] : 0,
    build_date: buildDate,
    languages,
    description,
  };
}
