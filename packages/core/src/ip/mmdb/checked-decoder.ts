/**
 * A bounds-checked reader of the MaxMind DB data format (MaxMind-DB-spec.md, "Output Data
 * Section"): a corrupt database cannot make it read past the buffer, recurse forever on a
 * pointer cycle or return garbage.
 * @module
 */
import { InvalidInputError } from '../../errors.js';

/** A structural error in a MaxMind DB file; the message says what and where. */
export class MmdbFormatError extends InvalidInputError {
  override name = 'MmdbFormatError';
}

/** Deepest nesting accepted: libmaxminddb's MAXIMUM_DATA_STRUCTURE_DEPTH. */
const MAX_DEPTH = 512;

const TYPE = {
  extended: 0,
  pointer: 1,
  utf8: 2,
  double: 3,
  bytes: 4,
  uint16: 5,
  uint32: 6,
  map: 7,
  int32: 8,
  uint64: 9,
  uint128: 10,
  array: 11,
  boolean: 14,
  float: 15,
} as const;

const MAX_SIZE_BYTES: Record<number, number> = {
  [TYPE.uint16]: 2,
  [TYPE.uint32]: 4,
  [TYPE.int32]: 4,
  [TYPE.uint64]: 8,
  [TYPE.uint128]: 16,
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * One section of a database: the data section (pointers count from its start) or the
 * metadata section (pointers count from the start of the metadata, per the spec).
 */
export class CheckedDecoder {
  /** Offsets (absolute) of values already verified, so shared values are checked once. */
  private readonly verified = new Set<number>();
  /** Pointer targets being verified right now: meeting one again is a cycle. */
  private readonly inProgress = new Set<number>();

  constructor(
    private readonly db: Buffer,
    /** Absolute offset where the section starts; pointers are relative to it. */
    private readonly start: number,
    /** Absolute offset one past the section's last byte. */
    private readonly end: number,
    private readonly what: string,
  ) {}

  /** Verifies the value at absolute offset `offset` (and everything it points to). */
  verify(offset: number): void {
    if (this.verified.has(offset)) return;
    this.walk(offset, 0, false);
    this.verified.add(offset);
  }

  /** Decodes the value at absolute offset `offset` into plain JS values. */
  decode(offset: number): unknown {
    return this.walk(offset, 0, true).value;
  }

  private fail(message: string, at: number): never {
    throw new MmdbFormatError(`${this.what}: ${message} at byte ${at}`);
  }

  private need(pos: number, bytes: number): void {
    if (pos < this.start || pos + bytes > this.end) {
      this.fail(`a field runs past the end of the ${this.what} (${bytes} bytes needed)`, pos);
    }
  }

  private walk(
    at: number,
    depth: number,
    build: boolean,
    mustBeString = false,
  ): { value: unknown; next: number } {
    if (depth > MAX_DEPTH) this.fail(`data nested deeper than ${MAX_DEPTH} levels`, at);
    const db = this.db;
    let pos = at;
    this.need(pos, 1);
    const ctrl = db[pos++] as number;
    let type = ctrl >> 5;
    if (type === TYPE.pointer) {
      const sizeBits = (ctrl >> 3) & 3;
      this.need(pos, sizeBits + 1);
      let value: number;
      if (sizeBits === 0) value = ((ctrl & 7) << 8) | (db[pos] as number);
      else if (sizeBits === 1) value = (((ctrl & 7) << 16) | db.readUInt16BE(pos)) + 2048;
      else if (sizeBits === 2) value = (((ctrl & 7) << 24) | db.readUIntBE(pos, 3)) + 526336;
      else value = db.readUInt32BE(pos);
      const next = pos + sizeBits + 1;
      const target = this.start + value;
      if (target >= this.end) {
        this.fail(`pointer to ${value} lies outside the ${this.what}`, at);
      }
      if ((db[target] as number) >> 5 === TYPE.pointer) {
        this.fail('pointer to a pointer (forbidden by the spec)', at);
      }
      if (!build && this.verified.has(target) && !mustBeString) return { value: undefined, next };
      if (this.inProgress.has(target)) this.fail('pointer cycle', at);
      this.inProgress.add(target);
      try {
        const inner = this.walk(target, depth + 1, build, mustBeString);
        if (!build) this.verified.add(target);
        return { value: inner.value, next };
      } finally {
        this.inProgress.delete(target);
      }
    }
    if (type === TYPE.extended) {
      this.need(pos, 1);
      type = (db[pos++] as number) + 7;
      if (type < 8 || type > 15) this.fail(`invalid extended type ${type}`, at);
    }
    if (mustBeString && type !== TYPE.utf8) this.fail(`map key of type ${type}, not a string`, at);
    let size = ctrl & 0x1f;
    if (size >= 29) {
      const extra = size - 28;
      this.need(pos, extra);
      if (size === 29) size = 29 + (db[pos] as number);
      else if (size === 30) size = 285 + db.readUInt16BE(pos);
      else size = 65821 + db.readUIntBE(pos, 3);
      pos += extra;
    }
    switch (type) {
      case TYPE.utf8: {
        this.need(pos, size);
        let text: string;
        try {
          text = utf8.decode(db.subarray(pos, pos + size));
        } catch {
          this.fail('string is not valid UTF-8', at);
        }
        return { value: build || mustBeString ? text : undefined, next: pos + size };
      }
      case TYPE.double:
        if (size !== 8) this.fail(`double of ${size} bytes (must be 8)`, at);
        this.need(pos, 8);
        return { value: build ? db.readDoubleBE(pos) : undefined, next: pos + 8 };
      case TYPE.float:
        if (size !== 4) this.fail(`float of ${size} bytes (must be 4)`, at);
        this.need(pos, 4);
        return { value: build ? db.readFloatBE(pos) : undefined, next: pos + 4 };
      case TYPE.bytes:
        this.need(pos, size);
        return { value: build ? db.subarray(pos, pos + size) : undefined, next: pos + size };
      case TYPE.uint16:
      case TYPE.uint32:
      case TYPE.int32:
      case TYPE.uint64:
      case TYPE.uint128: {
        if (size > (MAX_SIZE_BYTES[type] as number)) {
          this.fail(`integer of type ${type} with ${size} bytes`, at);
        }
        this.need(pos, size);
        return { value: build ? this.readInt(type, pos, size) : undefined, next: pos + size };
      }
      case TYPE.boolean:
        if (size > 1) this.fail(`boolean with value ${size}`, at);
        return { value: size === 1, next: pos };
      case TYPE.map: {
        // Every entry needs at least two bytes (a key and a value control byte).
        if (pos + size * 2 > this.end) this.fail(`map of ${size} entries cannot fit`, at);
        const map: Record<string, unknown> | undefined = build ? {} : undefined;
        for (let i = 0; i < size; i++) {
          const key = this.walk(pos, depth + 1, false, true);
          const value = this.walk(key.next, depth + 1, build);
          if (map) map[key.value as string] = value.value;
          pos = value.next;
        }
        return { value: map, next: pos };
      }
      case TYPE.array: {
        if (pos + size > this.end) this.fail(`array of ${size} elements cannot fit`, at);
        const array: unknown[] | undefined = build ? [] : undefined;
        for (let i = 0; i < size; i++) {
          const item = this.walk(pos, depth + 1, build);
          array?.push(item.value);
          pos = item.next;
        }
        return { value: array, next: pos };
      }
      default:
        return this.fail(`type ${type} is not allowed here`, at);
    }
  }

  private readInt(type: number, pos: number, size: number): number | bigint {
    if (size === 0) return type === TYPE.uint64 || type === TYPE.uint128 ? 0n : 0;
    if (type === TYPE.uint64 || type === TYPE.uint128) {
      let value = 0n;
      for (let i = 0; i < size; i++) value = (value << 8n) | BigInt(this.db[pos + i] as number);
      return value;
    }
    if (type === TYPE.int32 && size === 4) return this.db.readInt32BE(pos);
    return this.db.readUIntBE(pos, size);
  }
}
