/**
 * The IP datasets of a process: the IP data file (`data/ip-data-file.ts`) found and opened, and
 * the one lookup over it (`data/reader.ts`). The data comes from, in order: a copy made by
 * `netdiag data update` in the cache directory; `ipDataDir`; the installed @netdiag/ip-data.
 * MaxMind-format databases named by NETDIAG_GEOIP_DB / NETDIAG_ASN_DB are turned into that form
 * on first use and the result kept in the cache directory.
 * @module
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import type { PositionedCacheFile } from '../ip/cache-file.js';
import type { AsnIndex } from './asn/asn-index.js';
import { buildAsnIndexFromMmdb } from './asn/asn-mmdb.js';
import { buildIpData, withPrivacy } from './data/build-ip-data.js';
import {
  contentsFile,
  IP_DATA_FILE,
  IP_DATA_PACKAGE,
  ipDataPackageDir,
  missingIpData,
  openIpData,
  writeIpData,
} from './data/ip-data-file.js';
import { createIpReader, type IpReader } from './data/reader.js';
import { readDatabase } from './data/update-ip-data.js';
import type { VerifyMode } from './mmdb/database.js';
import {
  INTEL_FILE,
  type IntelData,
  type IntelSource,
  type IntelSourceMeta,
  loadIntelData,
} from './privacy/intel-pack.js';
import { readSignalListTexts, type SignalLists } from './privacy/signal-lists.js';
import type { TorExitList } from './tor-exit-list.js';
import type { IpInfo, IpNetwork, IpPlace, IpPrivacy } from './types.js';

export interface LoadIpDatasetsOptions {
  /** Folder holding the IP data file (`netdiag-ip-data.bin`). @default as the module comment says */
  ipDataDir?: string;
  /** MaxMind-format City or Country database used instead of DB-IP (NETDIAG_GEOIP_DB). */
  geoipDb?: string;
  /** MaxMind-format ASN or ISP database used instead of @ip-location-db/asn (NETDIAG_ASN_DB). */
  asnDb?: string;
  /**
   * Where `netdiag data update` and the databases above leave their built form; `false` neither
   * reads nor writes there. @default os.tmpdir()
   */
  cacheDir?: string | false;
  /**
   * Keep each array of the file once read (a server, a library's many lookups), or read a few
   * hundred bytes by position per lookup and keep nothing (a one-shot command). @default true
   */
  keep?: boolean;
  /** How much of a user-supplied database is checked before use. @default 'full' */
  verify?: VerifyMode;
  /**
   * IP-intel data (range, address and AS lists) to build the privacy part from instead of the
   * file's (an evaluation build); `false` builds it with none (curated AS lists only).
   */
  intel?: IntelData | false;
  /** Receives notes about loading (data built, not cached). */
  onNote?: (message: string) => void;
}

/** Where the datasets came from, for logs and health pages. */
export interface DatasetInfo {
  geo: string;
  asn: string;
  intel: string;
  /** The IP data file in use (`built in memory` for data built for this process only). */
  file: string;
  /** When that file was built (ISO 8601). */
  built: string;
  load_ms: number;
}

export interface IpDatasets {
  /**
   * Everything known about one address, synchronously. Throws `InvalidIpError` (the SPEC §7
   * message) when `ip` is not an IPv4 or IPv6 address. Nested objects are shared and frozen.
   */
  lookup(ip: string): IpInfo;
  /**
   * `lookup` without the privacy signals (`bulkLookup`: its items do not carry them, and
   * deciding them was a third of a cold lookup's time: BENCHMARKS.md, "Bulk").
   */
  locate(ip: string): IpPlace;
  /** The whole AS index (read on first use). */
  readonly asn: AsnIndex;
  readonly lists: SignalLists;
  readonly info: DatasetInfo;
  /** Network fields of an AS index entry (shared, frozen). */
  networkOf(entry: number): Readonly<IpNetwork>;
  /** Privacy of an AS index entry from AS-level data only (shared, frozen). */
  privacyOf(entry: number): Readonly<IpPrivacy>;
  /** The IP-intel range sources of the data (each one a feed can replace). */
  readonly intelSources: readonly IntelSourceMeta[];
  /**
   * Replaces one source's ranges (a run-time feed): its own small table is built and swapped in
   * with one assignment, so concurrent lookups see the old ranges or the new, never a mix.
   */
  setIntelSource(id: string, patch: Pick<IntelSource, 'ranges' | 'dataset' | 'version'>): void;
  /**
   * The same from a feed table netdiag wrote beside a feed's copy (`path`, checked against
   * `key`), read as the IP data is: by position in a one-shot lookup, whole in a server. False
   * when the file is absent or not that table.
   */
  setIntelTable(
    id: string,
    path: string,
    key: string,
    label: Pick<IntelSource, 'dataset' | 'version'>,
  ): boolean;
  /** Installs (or clears) the Tor exit list used by `lookup`. */
  setTorExitList(list: TorExitList | undefined): void;
  readonly torExitList: TorExitList | undefined;
  close(): void;
}

/** The IP data file to read, in the order of the module comment; undefined when there is none. */
export function findIpDataFile(
  options: Pick<LoadIpDatasetsOptions, 'ipDataDir' | 'cacheDir'> = {},
): string | undefined {
  const cache = options.cacheDir ?? tmpdir();
  if (cache !== false && existsSync(join(cache, IP_DATA_FILE))) return join(cache, IP_DATA_FILE);
  if (options.ipDataDir !== undefined) return join(options.ipDataDir, IP_DATA_FILE);
  const dir = ipDataPackageDir();
  return dir === undefined ? undefined : join(dir, IP_DATA_FILE);
}

/** The IP-intel pack of @netdiag/ip-data (in `dir`, else where it is installed), if any. */
export function installedIntel(dir = ipDataPackageDir()): IntelData | undefined {
  if (dir === undefined || !existsSync(join(dir, INTEL_FILE))) return undefined;
  return loadIntelData(dir);
}

/**
 * The IP data built from the databases of NETDIAG_GEOIP_DB / NETDIAG_ASN_DB (a City database
 * alone takes its AS data from the installed file), cached under their trees' fingerprints.
 */
async function fromUserDatabases(
  options: LoadIpDatasetsOptions,
): Promise<{ file: PositionedCacheFile; path: string }> {
  const verify = options.verify ?? 'full';
  const geo = options.geoipDb
    ? readDatabase(options.geoipDb, 'NETDIAG_GEOIP_DB', verify)
    : undefined;
  if (geo && !/city|country|enterprise/i.test(geo.metadata.database_type)) {
    throw new ConfigError(
      `NETDIAG_GEOIP_DB: "${options.geoipDb}" is a ${geo.metadata.database_type} database; a City or Country database is needed`,
    );
  }
  const asnDb = options.asnDb ? readDatabase(options.asnDb, 'NETDIAG_ASN_DB', verify) : undefined;
  if (asnDb && !/asn|isp/i.test(asnDb.metadata.database_type)) {
    throw new ConfigError(
      `NETDIAG_ASN_DB: "${options.asnDb}" is a ${asnDb.metadata.database_type} database; an ASN or ISP database is needed`,
    );
  }
  if (!geo) {
    throw new ConfigError(
      'NETDIAG_ASN_DB needs NETDIAG_GEOIP_DB: the lookup tables join geolocation and AS ranges, so an AS database is built together with a City or Country database',
    );
  }
  const dir = options.cacheDir ?? tmpdir();
  const name = `netdiag-ip-data-${geo.treeFingerprint().slice(0, 16)}-${asnDb ? asnDb.treeFingerprint().slice(0, 16) : 'bundled'}.bin`;
  const path = dir === false ? 'built in memory' : join(dir, name);
  const cached = dir === false ? undefined : openIpData(path, options.keep ?? true);
  if (cached) return { file: cached, path };
  const started = performance.now();
  let asn: { index: AsnIndex; description: string };
  if (asnDb) {
    const description = `${asnDb.metadata.database_type} (${options.asnDb})`;
    asn = { index: buildAsnIndexFromMmdb(asnDb, description), description };
  } else {
    const bundled = findIpDataFile({ ...options, cacheDir: false });
    const file = bundled === undefined ? undefined : openIpData(bundled, true);
    if (!file) throw missingIpData();
    const reader = createIpReader(file, true);
    asn = { index: reader.asnIndex(), description: reader.meta.asn };
  }
  const contents = buildIpData({
    geo: {
      v4: geo,
      description: `${geo.metadata.database_type} (${options.geoipDb}, built ${geo.metadata.build_date || 'unknown'})`,
    },
    asn,
    intel: installedIntel(options.ipDataDir),
    lists: readSignalListTexts(),
  });
  const ms = Math.round(performance.now() - started);
  if (dir !== false) {
    const failure = await writeIpData(path, contents);
    options.onNote?.(
      failure
        ? `IP data built in ${ms} ms; not cached (${failure.message})`
        : `IP data built in ${ms} ms; cached in ${path}`,
    );
    const written = failure ? undefined : openIpData(path, options.keep ?? true);
    if (written) return { file: written, path };
  }
  return { file: contentsFile(contents), path: 'built in memory' };
}

/** Loads the datasets. Errors are `ConfigError`s that name the variable and the problem. */
export async function loadIpDatasets(options: LoadIpDatasetsOptions = {}): Promise<IpDatasets> {
  const started = performance.now();
  const keep = options.keep ?? true;
  let file: PositionedCacheFile;
  let path: string;
  if (options.geoipDb || options.asnDb) {
    ({ file, path } = await fromUserDatabases(options));
  } else {
    const found = findIpDataFile(options);
    const opened = found === undefined ? undefined : openIpData(found, keep);
    const cache = options.cacheDir ?? tmpdir();
    if (opened === undefined && cache !== false && found === join(cache, IP_DATA_FILE)) {
      // A copy from `netdiag data update` by another version (IP_DATA's format differs): using
      // the installed data instead would silently drop the operator's own databases.
      throw new ConfigError(
        `the IP data in the cache directory (${IP_DATA_FILE}, written by "netdiag data update") was built by another netdiag version or is damaged: run "netdiag data update" again, or delete the file to use ${IP_DATA_PACKAGE}`,
      );
    }
    if (found === undefined || opened === undefined) {
      throw options.ipDataDir === undefined
        ? missingIpData()
        : new ConfigError(`no readable IP data file in ${options.ipDataDir}`);
    }
    file = opened;
    path = found;
  }
  if (options.intel !== undefined) {
    // Another privacy part over the same geolocation and AS arrays (built in memory).
    const base = createIpReader(file, true);
    const contents = withPrivacy(
      file,
      base.asnIndex(),
      options.intel || undefined,
      base.meta.lists,
    );
    file.close();
    file = contentsFile(contents);
    path = 'built in memory';
  }
  const reader = createIpReader(file, keep);
  return datasetsOf(reader, {
    geo: reader.meta.geo,
    asn: reader.meta.asn,
    intel: reader.meta.intel,
    file: path,
    built: reader.meta.built,
    load_ms: Math.round(performance.now() - started),
  });
}

function datasetsOf(reader: IpReader, info: DatasetInfo): IpDatasets {
  const { meta: _, asnIndex, ...rest } = reader;
  return {
    ...rest,
    info,
    get asn() {
      return asnIndex();
    },
    get torExitList() {
      return reader.torExitList;
    },
  };
}

let defaultDatasets: Promise<IpDatasets> | undefined;

/**
 * The installed data, loaded once per process on first use. A failed load is not remembered,
 * so a later call retries.
 */
export function getDefaultIpDatasets(): Promise<IpDatasets> {
  defaultDatasets ??= loadIpDatasets().catch((error: unknown) => {
    defaultDatasets = undefined;
    throw error;
  });
  return defaultDatasets;
}
