/**
 * The shaped-record tables (location-table.ts): the encoding keeps every field exactly and
 * refuses what it cannot store; inconsistent columns are rejected. (That the IP data file's
 * records equal the databases' is `fast-path.test.ts` and `updateIpData`'s own check.)
 */
import { describe, expect, test } from 'vitest';
import type { IpLocation } from '../types.js';
import { encodeLocations, LocationTable, StringList } from './location-table.js';

const place = (over: Partial<IpLocation>): IpLocation => ({
  city: 'Zürich',
  region: 'Zurich',
  country: 'CH',
  country_name: 'Switzerland',
  continent: 'EU',
  latitude: 47.3769,
  longitude: 8.5417,
  timezone: 'Europe/Zurich',
  postal_code: '8000',
  is_eu: false,
  accuracy_radius_km: 20,
  ...over,
});

const SAMPLES: IpLocation[] = [
  place({}),
  place({ latitude: null, longitude: null, accuracy_radius_km: null, postal_code: '' }),
  place({ latitude: -89.5, longitude: -179.99999, accuracy_radius_km: 0, is_eu: true }),
  place({ latitude: 0.000123, longitude: 180, accuracy_radius_km: 131_070, country: 'DE' }),
  place({ city: '', region: '', country: '', country_name: '', continent: '', timezone: '' }),
  place({ city: 'São Paulo', latitude: 37.422, longitude: -122.084058, accuracy_radius_km: 1000 }),
  place({ city: 'line\nbreak, tab\t and ☃', region: 'Zürich' }),
];

describe('encoding', () => {
  test('every field comes back exactly, strings stored once', () => {
    const data = encodeLocations(SAMPLES);
    const strings = StringList.from(data.strings);
    const v4 = new LocationTable(strings, data.countries, data.zones, data.v4);
    expect(v4.count).toBe(SAMPLES.length);
    SAMPLES.forEach((want, id) => {
      const got = v4.location(id);
      expect(got).toEqual(want);
      expect(Object.is(got.latitude, want.latitude)).toBe(true);
      expect(Object.isFrozen(got)).toBe(true);
    });
    expect(new Set(data.strings).size).toBe(data.strings.length);
    expect(data.strings[0]).toBe('');
    // Country facts once per distinct (code, name, continent, EU).
    const facts = new Set(
      SAMPLES.map((l) => `${l.country}|${l.country_name}|${l.continent}|${l.is_eu}`),
    );
    expect(data.countries.length).toBe(facts.size * 4);
  });

  test('what cannot be stored exactly is refused', () => {
    expect(() => encodeLocations([place({ accuracy_radius_km: 2.5 })])).toThrow(RangeError);
    expect(() => encodeLocations([place({ accuracy_radius_km: -1 })])).toThrow(RangeError);
    expect(() => encodeLocations([place({ accuracy_radius_km: 131_071 })])).toThrow(RangeError);
    // Not a short decimal: -0, a double with 17 significant digits, one of 1e-20.
    for (const latitude of [-0, 37.42200088500977, 1e-20]) {
      expect(() => encodeLocations([place({ latitude })])).toThrow(/coordinate/);
    }
  });

  test('inconsistent columns are rejected', () => {
    const data = encodeLocations(SAMPLES);
    const { countries, zones, v4 } = data;
    const strings = StringList.from(data.strings);
    const fewer = StringList.from(data.strings.slice(0, 3));
    expect(() => new LocationTable(fewer, countries, zones, v4)).toThrow(/range/);
    expect(() => new LocationTable(strings, countries.subarray(4), zones, v4)).toThrow(/range/);
    expect(() => new LocationTable(strings, countries, zones.subarray(1), v4)).toThrow(/range/);
    expect(
      () =>
        new LocationTable(strings, countries, zones, {
          words: v4.words,
          coords: v4.coords.subarray(2),
        }),
    ).toThrow(/sizes/);
  });
});
