/**
 * Builds the engine's form of the IP data (`ip-data-file.ts`) from its sources: a MaxMind-format
 * City or Country database (or DB-IP's two files), an AS index, the IP-intel pack and the
 * curated AS lists. A build step (seconds and about 1 GB for DB-IP), never a lookup.
 * @module
 */
import type { AsnIndex } from '../asn/asn-index.js';
import type { CacheContents, PositionedCacheFile } from '../cache-file.js';
import { buildGeoAsnV4, buildGeoV6, V6_WORDS } from '../geo/geo-asn-table.js';
import { shapeAllRecords } from '../geo/geo-source.js';
import { encodeLocations, packStrings } from '../geo/location-table.js';
import type { MmdbDatabase } from '../mmdb/database.js';
import { buildRangeTableData, DEEP, NO_DATA } from '../mmdb/range-table.js';
import { asCandidates } from '../privacy/classify.js';
import { type AsListing, createIpIntel, intelTableArrays } from '../privacy/intel.js';
import type { IntelData, IntelSourceMeta } from '../privacy/intel-pack.js';
import { providerAses } from '../privacy/provider-ases.js';
import { parseSignalLists, type SignalLists } from '../privacy/signal-lists.js';
import type { IpDataMeta, Listings } from './ip-data-file.js';

export interface IpDataSources {
  /** The geolocation database(s): one holding both families, or DB-IP's IPv4 and IPv6 files. */
  geo: { v4: MmdbDatabase; v6?: MmdbDatabase; description: string };
  asn: { index: AsnIndex; description: string };
  /** The IP-intel pack (range, address and AS lists); undefined: curated AS lists only. */
  intel: IntelData | undefined;
  /** The curated list files' texts by file name (`loadSignalListTexts`). */
  lists: Record<string, string>;
}

/** The arrays and facts of an IP data file (written with `writeIpData`). */
export function buildIpData(sources: IpDataSources): CacheContents {
  const { geo, asn } = sources;
  // The trees flattened (mmdb/range-table.ts) and the AS ranges merged in (geo/geo-asn-table.ts).
  const table4 = buildRangeTableData(geo.v4);
  const table6 = geo.v6 ? buildRangeTableData(geo.v6) : table4;
  const v4 = buildGeoAsnV4(table4, asn.index);
  const v6 = buildGeoV6(table6);
  // One location table: the records of the IPv4 tree, then those of a separate IPv6 tree that
  // no IPv4 record equals.
  const shaped = shapeAllRecords(geo.v4, table4.pointers);
  if (geo.v6) {
    const ids = shapeAllRecords(geo.v6, table6.pointers).map(interned(shaped));
    // Record id + 1 codes of the IPv6 tables renumbered (0, DEEP | k and ESCAPE stay).
    const renumber = (codes: Uint32Array, at: number, step: number) => {
      for (let i = at; i < codes.length; i += step) {
        const code = codes[i] as number;
        if (code !== NO_DATA && code < DEEP) codes[i] = (ids[code - 1] as number) + 1;
      }
    };
    renumber(v6.ranges, 2, V6_WORDS);
    renumber(v6.deepCodes, 0, 1);
  }
  const locations = encodeLocations(shaped);
  const arrays: CacheContents['arrays'] = { 'v4.bucket': v4.bucket, 'v4.slots': v4.slots };
  for (const [name, array] of Object.entries(v6)) arrays[`v6.${name}`] = array;
  const strings = packStrings(locations.strings);
  arrays['loc.strings'] = new Uint8Array(strings.bytes);
  arrays['loc.strings.ends'] = strings.ends;
  arrays['loc.countries'] = locations.countries;
  arrays['loc.zones'] = locations.zones;
  arrays['loc.words'] = locations.v4.words;
  arrays['loc.coords'] = asU32(locations.v4.coords);
  const d = asn.index.data;
  Object.assign(arrays, {
    ...v4RowsAsGaps(d.v4Start, d.v4End),
    'as.v4Entry': d.v4Entry,
    'as.v6Start': d.v6Start,
    'as.v6End': d.v6End,
    'as.v6Entry': d.v6Entry,
    'as.asn': d.entryAsn,
    'as.name': d.entryName,
    ...(d.entryOrg && d.entryIsp ? { 'as.org': d.entryOrg, 'as.isp': d.entryIsp } : {}),
  });

  const privacy = privacyPart(asn.index, sources.intel, sources.lists);
  Object.assign(arrays, privacy.arrays);
  const meta: IpDataMeta = {
    geo: geo.description,
    asn: asn.description,
    built: new Date().toISOString(),
    ...privacy.meta,
    counts: {
      v4Ranges: v4.slots.length / 2,
      v6Ranges: v6.ranges.length / V6_WORDS,
      locations: shaped.length,
      asEntries: asn.index.entries,
    },
  };
  return { meta: meta as unknown as Record<string, unknown>, arrays };
}

const asU32 = (a: Int32Array) => new Uint32Array(a.buffer, a.byteOffset, a.length);

type PrivacyMeta = Pick<IpDataMeta, 'intel' | 'sources' | 'tableSources' | 'learnt' | 'lists'>;

/**
 * The privacy arrays and facts: the IP-intel range table, the sources it names, the AS lists
 * by AS, the ASes learnt from provider ranges and the AS entries with no AS-level evidence.
 */
function privacyPart(
  asnIndex: AsnIndex,
  data: IntelData | undefined,
  listTexts: Record<string, string>,
): { arrays: CacheContents['arrays']; meta: PrivacyMeta } {
  const arrays: CacheContents['arrays'] = {};
  const lists = parseSignalLists(listTexts);
  const intel = data ? createIpIntel(data) : undefined;
  const learnt = intel ? providerAses(intel, asnIndex, lists) : new Map<number, AsListing[]>();
  arrays['as.quiet'] = quietAsEntries(asnIndex, lists, intel?.asLists, learnt);
  const sources: IntelSourceMeta[] = [];
  const indexOf = interned(sources);
  const listings = (map: ReadonlyMap<number, readonly AsListing[]>): Listings =>
    [...map]
      .map(([n, list]): Listings[number] => [n, list.map((l) => [indexOf(l.source), l.name])])
      .sort((a, b) => a[0] - b[0]);
  let tableSources: number[] = [];
  if (intel) {
    Object.assign(arrays, intelTableArrays(intel));
    tableSources = intel.tableSources.map(indexOf);
    // The AS lists by AS number, each AS's listings as JSON text: read one AS at a time.
    const asLists = listings(intel.asLists);
    const texts = asLists.map(([, list]) => Buffer.from(JSON.stringify(list), 'utf8'));
    let end = 0;
    arrays['aslists.asn'] = Uint32Array.from(asLists, ([n]) => n);
    arrays['aslists.ends'] = Uint32Array.from(texts, (text) => (end += text.length));
    arrays['aslists.text'] = new Uint8Array(Buffer.concat(texts));
  }
  return {
    arrays,
    meta: {
      intel: data ? `IP-intel pack built ${data.built}` : '',
      sources,
      tableSources,
      learnt: listings(learnt),
      lists: listTexts,
    },
  };
}

/** Names of the privacy arrays (replaced by `withPrivacy`). */
const PRIVACY_ARRAY = /^(intel\.|aslists\.|as\.quiet$)/;

/**
 * The contents of `base` with its privacy part built again from other IP-intel data or lists
 * (an evaluation build, a caller's own lists); geolocation and AS arrays are kept as they are.
 */
export function withPrivacy(
  base: PositionedCacheFile,
  asnIndex: AsnIndex,
  intel: IntelData | undefined,
  lists: Record<string, string>,
): CacheContents {
  const arrays: CacheContents['arrays'] = {};
  for (const [name, type] of base.entries()) {
    if (PRIVACY_ARRAY.test(name) || name.endsWith(':line-starts')) continue;
    arrays[name] = type === 'lines' ? base.lines(name) : base[type](name);
  }
  const privacy = privacyPart(asnIndex, intel, lists);
  Object.assign(arrays, privacy.arrays);
  return { meta: { ...base.meta, ...privacy.meta }, arrays };
}

/** 1 for each AS entry with no AS-level evidence: the reader then answers it without looking. */
function quietAsEntries(
  asn: AsnIndex,
  lists: SignalLists,
  asLists: ReadonlyMap<number, readonly AsListing[]> | undefined,
  learnt: ReadonlyMap<number, readonly AsListing[]>,
): Uint8Array {
  const quiet = new Uint8Array(asn.entries);
  for (let entry = 0; entry < asn.entries; entry++) {
    const found = asCandidates(asn.asnOf(entry), asn.nameOf(entry), lists, asLists, learnt);
    if (found.length === 0) quiet[entry] = 1;
  }
  return quiet;
}

/** The position of a value in `list` by its JSON text, the value appended when it is new. */
function interned<T>(list: T[]): (value: T) => number {
  const index = new Map(list.map((value, i) => [JSON.stringify(value), i]));
  return (value) => {
    const key = JSON.stringify(value);
    let i = index.get(key);
    if (i === undefined) {
      i = list.length;
      list.push(value);
      index.set(key, i);
    }
    return i;
  };
}

/**
 * The IPv4 AS rows as the gap before each row and its size less one: most rows start where the
 * previous one ends, so these compress well. The reader adds them up (`rowsFromGaps`).
 */
function v4RowsAsGaps(start: Uint32Array, end: Uint32Array): Record<string, Uint32Array> {
  const gap = new Uint32Array(start.length);
  const size = new Uint32Array(start.length);
  let next = 0;
  for (let i = 0; i < start.length; i++) {
    gap[i] = (start[i] as number) - next; // stored modulo 2^32: a row may overlap the last
    size[i] = (end[i] as number) - (start[i] as number);
    next = (end[i] as number) + 1;
  }
  return { 'as.v4Gap': gap, 'as.v4Size': size };
}
