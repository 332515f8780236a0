/**
 * Every record of the embedded geolocation databases already shaped into an `IpLocation`, in a
 * compact columnar form made when the package is built (`prebuildIpTables`), so that the first
 * lookup of a record reads eight numbers and two coordinates instead of decoding the record
 * from the MaxMind data section, tidying its float32 coordinates, finding its time zone and
 * interning its strings (issue 22 item 3: that work was ~60 % of a first-sight lookup, measured
 * in BENCHMARKS.md). It also replaces the data sections in memory (31 MB read at start).
 *
 * Layout (the shared cache format, `ip/cache-file.ts`): `strings`, every distinct string once
 * (index 0 = ''); per database `<v>.words`, eight 32-bit words per record id — string indexes of
 * city, region, postal code, country, country name, continent, time zone, then
 * `accuracy + 1` (0: none) << 1 | is_eu — and `<v>.coords`, latitude and longitude as
 * float64 (NaN: none). Record ids are those of the lookup tables (`table-cache.ts`), so the
 * file is tied to them: its header keeps a CRC-32 of their record-id → pointer arrays and the
 * file is ignored when they differ. Built here only, never at run time: shaping all 703,324
 * DB-IP records takes a few seconds that a server's first start should not pay.
 * @module
 */
import { crc32 } from 'node:zlib';
import { type CacheKind, cacheFilePath, readCacheFile, writeCacheFile } from '../cache-file.js';
import type { IpLocation } from '../types.js';

const LOCATION_TABLE: CacheKind = { name: 'ip-locations', format: 1 };
const WORDS = 8;
/** Accuracy radii above this do not fit the word (mmdb stores a uint16). */
const MAX_ACCURACY = 2 ** 30;

/** The shaped records of one database, by record id. */
export interface LocationColumns {
  /** `WORDS` per record (see the module comment). */
  words: Uint32Array;
  /** Latitude, longitude per record; NaN for none. */
  coords: Float64Array;
}

export interface LocationTableData {
  strings: readonly string[];
  v4: LocationColumns;
  /** Undefined when one database holds both families. */
  v6: LocationColumns | undefined;
}

/** Encodes shaped records (by record id). Throws when one cannot be stored exactly. */
export function encodeLocations(
  v4: readonly IpLocation[],
  v6: readonly IpLocation[] | undefined,
): LocationTableData {
  const strings: string[] = [''];
  const ids = new Map<string, number>([['', 0]]);
  const idOf = (text: string): number => {
    let id = ids.get(text);
    if (id === undefined) {
      id = strings.length;
      strings.push(text);
      ids.set(text, id);
    }
    return id;
  };
  const columns = (list: readonly IpLocation[]): LocationColumns => {
    const words = new Uint32Array(list.length * WORDS);
    const coords = new Float64Array(list.length * 2);
    list.forEach((l, i) => {
      const w = i * WORDS;
      words[w] = idOf(l.city);
      words[w + 1] = idOf(l.region);
      words[w + 2] = idOf(l.postal_code);
      words[w + 3] = idOf(l.country);
      words[w + 4] = idOf(l.country_name);
      words[w + 5] = idOf(l.continent);
      words[w + 6] = idOf(l.timezone);
      const accuracy = l.accuracy_radius_km;
      if (
        accuracy !== null &&
        !(Number.isInteger(accuracy) && accuracy >= 0 && accuracy < MAX_ACCURACY)
      ) {
        throw new RangeError(`record ${i}: accuracy ${accuracy} does not fit the table`);
      }
      words[w + 7] = ((accuracy === null ? 0 : accuracy + 1) * 2 + (l.is_eu ? 1 : 0)) >>> 0;
      coords[i * 2] = l.latitude ?? Number.NaN;
      coords[i * 2 + 1] = l.longitude ?? Number.NaN;
    });
    return { words, coords };
  };
  const data: LocationTableData = {
    strings,
    v4: columns(v4),
    v6: v6 === undefined ? undefined : columns(v6),
  };
  if (strings.some((s) => s.includes('\n'))) throw new RangeError('a string holds a newline');
  return data;
}

/** Reads shaped records of one database by record id. */
export class LocationTable {
  readonly count: number;

  /** Throws a `RangeError` when the columns are inconsistent with each other or `strings`. */
  constructor(
    private readonly strings: readonly string[],
    private readonly columns: LocationColumns,
  ) {
    const { words, coords } = columns;
    this.count = words.length / WORDS;
    if (!Number.isInteger(this.count) || coords.length !== this.count * 2) {
      throw new RangeError('location table: column sizes disagree');
    }
    const n = strings.length;
    for (let i = 0; i < words.length; i++) {
      if (i % WORDS !== WORDS - 1 && (words[i] as number) >= n) {
        throw new RangeError('location table: string index out of range');
      }
    }
  }

  /** The location of record `id` (< `count`): a new frozen object sharing the table's strings. */
  location(id: number): IpLocation {
    const w = this.columns.words;
    const s = this.strings;
    const at = id * WORDS;
    const latitude = this.columns.coords[id * 2] as number;
    const longitude = this.columns.coords[id * 2 + 1] as number;
    const last = w[at + 7] as number;
    const accuracy = last >>> 1;
    return Object.freeze({
      city: s[w[at] as number] as string,
      region: s[w[at + 1] as number] as string,
      country: s[w[at + 3] as number] as string,
      country_name: s[w[at + 4] as number] as string,
      continent: s[w[at + 5] as number] as string,
      latitude: Number.isNaN(latitude) ? null : latitude,
      longitude: Number.isNaN(longitude) ? null : longitude,
      timezone: s[w[at + 6] as number] as string,
      postal_code: s[w[at + 2] as number] as string,
      is_eu: (last & 1) === 1,
      accuracy_radius_km: accuracy === 0 ? null : accuracy - 1,
    });
  }
}

/** The location tables of one data key in `dir`. */
export function locationTableFile(dir: string, key: string): string {
  return cacheFilePath(dir, LOCATION_TABLE, key);
}

/** A fingerprint of the record ids the tables were made for (their id → pointer arrays). */
function idsFingerprint(pointers4: Uint32Array, pointers6: Uint32Array | undefined): string {
  const crc = (a: Uint32Array) => crc32(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return `${pointers4.length}:${crc(pointers4)}/${pointers6 ? `${pointers6.length}:${crc(pointers6)}` : '-'}`;
}

/** Reads the location tables of `key` made for these record ids, or undefined. Never throws. */
export function readLocationTables(
  file: string,
  key: string,
  pointers4: Uint32Array,
  pointers6: Uint32Array | undefined,
): Promise<{ v4: LocationTable; v6: LocationTable | undefined } | undefined> {
  return readCacheFile(file, LOCATION_TABLE, key, (f) => {
    if (f.meta['ids'] !== idsFingerprint(pointers4, pointers6)) throw new RangeError('stale');
    const strings = f.lines('strings');
    const columns = (v: string): LocationColumns => {
      const coords = f.u32(`${v}.coords`);
      return {
        words: f.u32(`${v}.words`),
        // Arrays start at 8-byte boundaries of the file, so the view is aligned when the
        // file's buffer is (a large read has its own); else a copy.
        coords:
          coords.byteOffset % 8 === 0
            ? new Float64Array(coords.buffer, coords.byteOffset, coords.length / 2)
            : new Float64Array(coords.slice().buffer),
      };
    };
    const v4 = new LocationTable(strings, columns('v4'));
    const v6 = f.has('v6.words') ? new LocationTable(strings, columns('v6')) : undefined;
    if (v4.count !== pointers4.length || (v6?.count ?? 0) !== (pointers6?.length ?? 0)) {
      throw new RangeError('record counts differ');
    }
    return { v4, v6 };
  });
}

/** Writes the location tables; failures are returned, never thrown. */
export function writeLocationTables(
  file: string,
  key: string,
  data: LocationTableData,
  pointers4: Uint32Array,
  pointers6: Uint32Array | undefined,
): Promise<Error | undefined> {
  const u32 = (a: Float64Array) => new Uint32Array(a.buffer, a.byteOffset, a.length * 2);
  const arrays: Record<string, Uint32Array | readonly string[]> = {
    strings: data.strings,
    'v4.words': data.v4.words,
    'v4.coords': u32(data.v4.coords),
  };
  if (data.v6) {
    arrays['v6.words'] = data.v6.words;
    arrays['v6.coords'] = u32(data.v6.coords);
  }
  return writeCacheFile(file, LOCATION_TABLE, key, {
    meta: { ids: idsFingerprint(pointers4, pointers6), strings: data.strings.length },
    arrays,
  });
}
