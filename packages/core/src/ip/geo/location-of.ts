/**
 * The one place an `IpLocation` is made from a record's fields, whichever reader decoded them
 * (`shapeLocation` for any layout, `flat-record.ts` for DB-IP's): derived fields (country
 * name, continent, EU membership, time zone from the coordinates) are filled in here, and every
 * string is shared.
 * @module
 */
import type { IpLocation } from '../types.js';
import { continentOf, countryName, isEuCountry, tidyCoordinate, timezoneAt } from './derive.js';

/** An `IpLocation` from a record's fields as stored (coordinates are tidied here). */
export function locationOf(
  city: string,
  region: string,
  storedCountry: string,
  storedContinent: string,
  storedLatitude: unknown,
  storedLongitude: unknown,
  storedTimezone: string,
  postal: string,
  accuracy: number | null,
): IpLocation {
  const country = factsOf(storedCountry);
  const latitude = tidy(storedLatitude);
  const longitude = tidy(storedLongitude);
  return Object.freeze({
    city: intern(city),
    region: intern(region),
    country: country.code,
    country_name: country.name,
    continent: storedContinent === '' ? country.continent : intern(storedContinent),
    latitude,
    longitude,
    timezone: intern(storedTimezone || timezoneAt(latitude, longitude)),
    postal_code: intern(postal),
    is_eu: country.eu,
    accuracy_radius_km: accuracy,
  });
}

export interface CountryFacts {
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

/**
 * `tidyCoordinate`, remembered per stored value: records of one place repeat its coordinates,
 * and tidying costs several `toPrecision` calls.
 */
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

/**
 * One shared copy of each distinct string of the shaped records: hundreds of thousands of
 * records repeat a few hundred countries and time zones, so sharing saves memory.
 */
const strings = new Map<string, string>();
function intern(value: string): string {
  if (value === '') return '';
  const known = strings.get(value);
  if (known !== undefined) return known;
  strings.set(value, value);
  return value;
}
