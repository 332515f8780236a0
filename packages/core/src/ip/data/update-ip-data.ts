/**
 * `updateIpData`: MaxMind-format databases turned into an IP data file, checked, then put in
 * place in one rename, so that a reader never sees half a file.
 * @module
 */
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { ConfigError } from '../../errors.js';
import { buildAsnIndexFromCsv } from '../asn/asn-csv.js';
import type { AsnIndex } from '../asn/asn-index.js';
import { buildAsnIndexFromMmdb } from '../asn/asn-mmdb.js';
import { shapeLocation } from '../geo/geo-source.js';
import { MmdbDatabase, MmdbFormatError, type VerifyMode } from '../mmdb/database.js';
import type { IntelData } from '../privacy/intel-pack.js';
import { readSignalListTexts } from '../privacy/signal-lists.js';
import { buildIpData } from './build-ip-data.js';
import { checkIpData, type IpDataMeta, openIpData, writeIpData } from './ip-data-file.js';
import { createIpReader } from './reader.js';

export interface UpdateIpDataOptions {
  /** A MaxMind-format City or Country database, or DB-IP's IPv4 and IPv6 files. */
  geo: string | readonly [v4: string, v6: string];
  /** What the geolocation data is. @default its database type, path and build date */
  geoDescription?: string;
  /**
   * A MaxMind-format ASN or ISP database, or @ip-location-db/asn's `asn-ipv4-num.csv` and
   * `asn-ipv6.csv`; or an AS index already read (the AS data of the file in use).
   */
  asn: string | readonly [v4Csv: string, v6Csv: string] | { index: AsnIndex; description: string };
  asnDescription?: string;
  /** The IP-intel pack to build the privacy part from; undefined: curated AS lists only. */
  intel: IntelData | undefined;
  /** The file to write (replaced in one rename). */
  out: string;
  /** Addresses looked up in both the sources and the new file before it is put in place. @default 2000 */
  sample?: number;
}

export interface IpDataUpdate {
  file: string;
  counts: IpDataMeta['counts'];
  /** Sample lookups that agreed with the sources (all of them, or the update fails). */
  checked: number;
  ms: number;
}

/** A MaxMind-format database read and checked (`verify`); `ConfigError`s name `what` and the file. */
export function readDatabase(
  path: string,
  what: string,
  verify: VerifyMode = 'full',
): MmdbDatabase {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ConfigError(`${what}: cannot read "${path}": ${(error as Error).message}`, error);
  }
  try {
    return new MmdbDatabase(bytes, verify);
  } catch (error) {
    const reason = error instanceof MmdbFormatError ? error.message : String(error);
    throw new ConfigError(`${what}: "${path}" is not a usable MaxMind DB: ${reason}`, error);
  }
}

/** Builds, checks and installs an IP data file; throws `ConfigError` naming what is wrong. */
export async function updateIpData(options: UpdateIpDataOptions): Promise<IpDataUpdate> {
  const started = performance.now();
  const paths = typeof options.geo === 'string' ? [options.geo] : [...options.geo];
  const [v4, v6] = paths.map((p) => readDatabase(p, 'geolocation database')) as [
    MmdbDatabase,
    MmdbDatabase?,
  ];
  for (const db of [v4, v6]) {
    if (db && !/city|country|enterprise/i.test(db.metadata.database_type)) {
      throw new ConfigError(
        `geolocation database: a ${db.metadata.database_type} database; a City or Country database is needed`,
      );
    }
  }
  let asn: { index: AsnIndex; description: string };
  if (typeof options.asn === 'string') {
    const db = readDatabase(options.asn, 'AS database');
    if (!/asn|isp/i.test(db.metadata.database_type)) {
      throw new ConfigError(
        `AS database: a ${db.metadata.database_type} database; an ASN or ISP database is needed`,
      );
    }
    const description = options.asnDescription ?? `${db.metadata.database_type} (${options.asn})`;
    asn = { index: buildAsnIndexFromMmdb(db, description), description };
  } else if (Array.isArray(options.asn)) {
    const [v4Csv, v6Csv] = options.asn as [string, string];
    const description = options.asnDescription ?? `AS ranges (${v4Csv}, ${v6Csv})`;
    asn = {
      index: buildAsnIndexFromCsv(
        readFileSync(v4Csv, 'utf8'),
        readFileSync(v6Csv, 'utf8'),
        description,
      ),
      description,
    };
  } else {
    asn = options.asn as { index: AsnIndex; description: string };
  }
  const contents = buildIpData({
    geo: {
      v4,
      ...(v6 ? { v6 } : {}),
      description:
        options.geoDescription ??
        `${v4.metadata.database_type} (${paths.join(', ')}, built ${v4.metadata.build_date || 'unknown'})`,
    },
    asn,
    intel: options.intel,
    lists: readSignalListTexts(),
  });
  const next = `${options.out}.new`;
  const failure = await writeIpData(next, contents);
  if (failure) throw new ConfigError(`cannot write ${next}: ${failure.message}`, failure);
  let checked = 0;
  try {
    if (!(await checkIpData(next)))
      throw new ConfigError(`${next}: the file just written does not check`);
    checked = checkSample(next, v4, v6 ?? v4, asn.index, options.sample ?? 2000);
    renameSync(next, options.out);
  } finally {
    rmSync(next, { force: true });
  }
  const meta = contents.meta as unknown as IpDataMeta;
  return {
    file: options.out,
    counts: meta.counts,
    checked,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * Looks up `count` seeded addresses (3 IPv4 to 1 IPv6) in the new file and in the sources, and
 * throws on the first that differs in location or AS; returns how many were compared.
 */
function checkSample(
  file: string,
  geo4: MmdbDatabase,
  geo6: MmdbDatabase,
  asn: AsnIndex,
  count: number,
): number {
  const opened = openIpData(file, true);
  if (!opened) throw new ConfigError(`${file}: the file just written cannot be read back`);
  const reader = createIpReader(opened, true);
  let seed = 0x9e3779b9;
  const next = () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return seed;
  };
  let compared = 0;
  try {
    for (let i = 0; i < count; i++) {
      const v4 = i % 4 !== 3;
      const w = [v4 ? next() : 0x20000000 | (next() & 0x1fffffff), next(), next(), next()] as const;
      const ip = v4
        ? `${w[0] >>> 24}.${(w[0] >>> 16) & 255}.${(w[0] >>> 8) & 255}.${w[0] & 255}`
        : Array.from({ length: 8 }, (_, k) => ((w[k >> 1] as number) >>> (k % 2 ? 0 : 16)) & 0xffff)
            .map((x) => x.toString(16))
            .join(':');
      const got = reader.lookup(ip);
      if (got.bogon || (!v4 && w[0] >>> 16 === 0x2002)) continue;
      const pointer = v4 ? geo4.findV4(w[0]) : geo6.findV6(w[0], w[1], w[2], w[3]);
      const record = pointer === 0 ? null : (v4 ? geo4 : geo6).record(pointer);
      const want = record === null ? '' : JSON.stringify(shapeLocation(record));
      const row = v4 ? asn.findV4(w[0]) : asn.findV6(w[0], w[1], w[2], w[3]);
      const wantAsn =
        row < 0 ? null : asn.asnOf(v4 ? asn.entryOfV4Row(row) : asn.entryOfV6Row(row));
      const gotLocation =
        got.location.country === '' && record === null ? '' : JSON.stringify(got.location);
      if (gotLocation !== want || got.network.asn !== wantAsn) {
        throw new ConfigError(
          `${file}: ${ip} reads ${gotLocation || 'no location'} AS ${got.network.asn} from the new file but ${want || 'no location'} AS ${wantAsn} from the sources`,
        );
      }
      compared++;
    }
  } finally {
    reader.close();
  }
  return compared;
}
