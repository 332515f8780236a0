/**
 * One-shot IP lookups: a command's or a script's few answers from the IP data read by position
 * (nothing kept), with the feed copies of the cache directory applied: the answers an engine
 * configured from the same settings gives.
 * @module
 */
import { tmpdir } from 'node:os';
import { loadNetdiagConfig } from '../config/config.js';
import type { Env } from '../config/env.js';
import { applyFeedCopies } from '../feeds/feed-copies.js';
import { type IpDatasets, loadIpDatasets } from './datasets.js';

export interface OpenIpLookupOptions {
  /**
   * Where the settings are read (NETDIAG_GEOIP_DB, NETDIAG_ASN_DB, NETDIAG_CACHE_DIR and the
   * feed URLs, as the engine reads them). @default process.env
   */
  env?: Env;
  /** The folder of the IP data file (a face passes @netdiag/ip-data's). */
  ipDataDir?: string;
  /**
   * Keep each array of the file once read: for many lookups (`netdiag bulk`), where reading by
   * position would cost ~0.1 ms a lookup. @default false (a few lookups)
   */
  keep?: boolean;
}

/** Opens the IP data for one-shot lookups (close it when done). Throws `ConfigError`. */
export async function openIpLookup(options: OpenIpLookupOptions = {}): Promise<IpDatasets> {
  const config = loadNetdiagConfig(options.env ?? process.env);
  const cacheDir = config.cacheDir ?? tmpdir();
  const datasets = await loadIpDatasets({
    keep: options.keep ?? false,
    cacheDir,
    ...(config.geoipDb ? { geoipDb: config.geoipDb } : {}),
    ...(config.asnDb ? { asnDb: config.asnDb } : {}),
    ...(options.ipDataDir ? { ipDataDir: options.ipDataDir } : {}),
  });
  await applyFeedCopies(datasets, cacheDir, config);
  return datasets;
}
