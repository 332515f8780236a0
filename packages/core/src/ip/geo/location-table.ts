/**
 * Every geolocation record already shaped into an `IpLocation`, in a compact columnar form made
 * by the IP data build (`ip/data/build-ip-data.ts`).
 *
 * Layout: `strings`, every distinct string once in UTF-8 (index 0 = ''), with `strings.ends`,
 * where each ends; `countries`, per distinct (code, name, continent, EU) the string ids of the
 * three and 1 for EU members; `zones`, the string id of each time zone; per database
 * `<v>.words`, five 32-bit words per record id — string ids of city, region and postal code,
 * time zone << 16 | country, and (accuracy + 1, 0: none) << 10 | flags << 4 | exponents
 * (bits 0-3 and 5-8: the powers of ten of latitude and longitude; bits 4 and 9: none) — and
 * `<v>.coords`, the two coordinates as 32-bit mantissas (`decimalOf`). Record ids are those of
 * the lookup tables (`geo-asn-table.ts`).
 * @module
 */
import type { IpLocation } from '../types.js';

/** Words per record (see the module comment). */
const WORDS = 5;
/** Accuracy radii are stored + 1 in 17 bits (mmdb stores a uint16). */
const MAX_ACCURACY = 2 ** 17 - 2;
/** Powers of ten a coordinate's mantissa is divided by (exact doubles up to 10^22). */
const POW10 = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** The shaped records of one database, by record id. */
export interface LocationColumns {
  /** `WORDS` per record (see the module comment). */
  words: Uint32Array;
  /** Latitude and longitude mantissas per record (see the module comment). */
  coords: Int32Array;
}

export interface LocationTableData {
  strings: readonly string[];
  /** Per country: string ids of its code, name and continent, then 1 for EU members. */
  countries: Uint32Array;
  /** String id of each time zone. */
  zones: Uint32Array;
  v4: LocationColumns;
}

/**
 * A coordinate as `mantissa / 10^exponent` (exponent 0-15, mantissa a 32-bit integer), which
 * division gives back exactly (IEEE division rounds correctly). Undefined when no pair does.
 */
function decimalOf(value: number): [mantissa: number, exponent: number] | undefined {
  for (let k = 0; k < POW10.length; k++) {
    const m = Math.round(value * (POW10[k] as number));
    if (Math.abs(m) >= 2 ** 31) return undefined;
    if (m / (POW10[k] as number) === value && !Object.is(value, -0)) return [m, k];
  }
  return undefined;
}

/** Encodes shaped records (by record id). Throws when one cannot be stored exactly. */
export function encodeLocations(records: readonly IpLocation[]): LocationTableData {
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
  const countries: number[] = [];
  const countryIds = new Map<string, number>();
  const zones: number[] = [];
  const zoneIds = new Map<string, number>();
  const columns = (list: readonly IpLocation[]): LocationColumns => {
    const words = new Uint32Array(list.length * WORDS);
    const coords = new Int32Array(list.length * 2);
    list.forEach((l, i) => {
      const country = `${l.country}\t${l.country_name}\t${l.continent}\t${l.is_eu}`;
      let c = countryIds.get(country);
      if (c === undefined) {
        c = countries.length / 4;
        countries.push(idOf(l.country), idOf(l.country_name), idOf(l.continent), l.is_eu ? 1 : 0);
        countryIds.set(country, c);
      }
      let z = zoneIds.get(l.timezone);
      if (z === undefined) {
        z = zones.length;
        zones.push(idOf(l.timezone));
        zoneIds.set(l.timezone, z);
      }
      if (c > 0xffff || z > 0xffff) throw new RangeError('too many countries or time zones');
      const accuracy = l.accuracy_radius_km;
      if (
        accuracy !== null &&
        !(Number.isInteger(accuracy) && accuracy >= 0 && accuracy <= MAX_ACCURACY)
      ) {
        throw new RangeError(`record ${i}: accuracy ${accuracy} does not fit the table`);
      }
      let exponents = 0;
      for (const [k, value] of [l.latitude, l.longitude].entries()) {
        if (value === null) {
          exponents |= 0x10 << (k * 5); // no coordinate
          continue;
        }
        const decimal = decimalOf(value);
        if (!decimal)
          throw new RangeError(`record ${i}: coordinate ${value} is not a short decimal`);
        coords[i * 2 + k] = decimal[0];
        exponents |= decimal[1] << (k * 5);
      }
      const w = i * WORDS;
      words[w] = idOf(l.city);
      words[w + 1] = idOf(l.region);
      words[w + 2] = idOf(l.postal_code);
      words[w + 3] = ((z << 16) | c) >>> 0;
      words[w + 4] = ((accuracy === null ? 0 : accuracy + 1) * 1024 + exponents) >>> 0;
    });
    return { words, coords };
  };
  const v4 = columns(records);
  return { strings, countries: Uint32Array.from(countries), zones: Uint32Array.from(zones), v4 };
}

/** Strings as one UTF-8 buffer and where each ends in it. */
export function packStrings(list: readonly string[]): { bytes: Buffer; ends: Uint32Array } {
  const parts = list.map((text) => Buffer.from(text, 'utf8'));
  let end = 0;
  return { bytes: Buffer.concat(parts), ends: Uint32Array.from(parts, (p) => (end += p.length)) };
}

/** The table's strings, each decoded from UTF-8 on first use and kept. */
export class StringList {
  readonly size: number;
  private readonly decoded: (string | undefined)[];

  /** `ends[i]`: where string i ends in `bytes` (it starts where i - 1 ends, or at 0). */
  constructor(
    private readonly bytes: Buffer,
    private readonly ends: Uint32Array,
  ) {
    let previous = 0;
    for (const end of ends) {
      if (end < previous) throw new RangeError('location table: string offsets out of order');
      previous = end;
    }
    if (previous !== bytes.length) throw new RangeError('location table: string sizes disagree');
    this.size = ends.length;
    this.decoded = new Array<string | undefined>(ends.length).fill(undefined);
  }

  static from(list: readonly string[]): StringList {
    const { bytes, ends } = packStrings(list);
    return new StringList(bytes, ends);
  }

  /** String `i` (< `size`). */
  get(i: number): string {
    this.decoded[i] ??= this.bytes.toString('utf8', this.ends[i - 1] ?? 0, this.ends[i]);
    return this.decoded[i];
  }
}

/** Strings by index: a `StringList`, or the same strings read by position. */
export interface TableStrings {
  readonly size: number;
  get(i: number): string;
}

/** Reads shaped records of one database by record id. */
export class LocationTable {
  readonly count: number;
  private readonly words: Uint32Array;
  private readonly coords: Int32Array;

  /** Throws a `RangeError` when the columns are inconsistent with each other or `strings`. */
  constructor(
    private readonly strings: TableStrings,
    private readonly countryIds: Uint32Array,
    private readonly zoneIds: Uint32Array,
    columns: LocationColumns,
  ) {
    const { words, coords } = columns;
    this.count = words.length / WORDS;
    if (!Number.isInteger(this.count) || coords.length !== this.count * 2) {
      throw new RangeError('location table: column sizes disagree');
    }
    if (countryIds.length % 4 !== 0) throw new RangeError('location table: country ids');
    // Every index in range, checked once here (a column at a time: a few milliseconds).
    let most = -1;
    for (let i = 0; i < countryIds.length; i++) {
      if (i % 4 !== 3) most = Math.max(most, countryIds[i] as number);
    }
    for (const id of zoneIds) most = Math.max(most, id);
    let country = 0;
    let zone = 0;
    for (let w = 0; w < words.length; w += WORDS) {
      most = Math.max(most, words[w] as number, words[w + 1] as number, words[w + 2] as number);
      const cz = words[w + 3] as number;
      country = Math.max(country, cz & 0xffff);
      zone = Math.max(zone, cz >>> 16);
    }
    if (
      most >= strings.size ||
      (this.count > 0 && (country >= countryIds.length / 4 || zone >= zoneIds.length))
    ) {
      throw new RangeError('location table: index out of range');
    }
    this.words = words;
    this.coords = coords;
  }

  /** The location of record `id` (< `count`): a new frozen object sharing the table's strings. */
  location(id: number): IpLocation {
    const w = this.words;
    const s = this.strings;
    const at = id * WORDS;
    const cz = w[at + 3] as number;
    const country = (cz & 0xffff) * 4;
    const ids = this.countryIds;
    const last = w[at + 4] as number;
    const accuracy = last >>> 10;
    return Object.freeze({
      city: s.get(w[at] as number),
      region: s.get(w[at + 1] as number),
      country: s.get(ids[country] as number),
      country_name: s.get(ids[country + 1] as number),
      continent: s.get(ids[country + 2] as number),
      latitude:
        last & 0x10 ? null : (this.coords[id * 2] as number) / (POW10[last & 0xf] as number),
      longitude:
        last & 0x200
          ? null
          : (this.coords[id * 2 + 1] as number) / (POW10[(last >>> 5) & 0xf] as number),
      timezone: s.get(this.zoneIds[cz >>> 16] as number),
      postal_code: s.get(w[at + 2] as number),
      is_eu: ids[country + 3] === 1,
      accuracy_radius_km: accuracy === 0 ? null : accuracy - 1,
    });
  }
}
