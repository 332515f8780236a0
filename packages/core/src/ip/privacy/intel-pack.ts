/**
 * The prebuilt IP-intelligence data (`ip-intel.json.gz`): every source's ranges (base64 typed
 * arrays), exact addresses and AS numbers, each with its provenance. Built by
 * `scripts/build-ip-intel.ts` from `../shared/corpora/ip-intel/`.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ConfigError } from '../../errors.js';
import type { PrivacySignalName } from '../types.js';
import type { SourceRanges } from './range-table.js';

export const INTEL_FILE = 'ip-intel.json.gz';
export const INTEL_FORMAT = 1;

/** What a source's entries are and which signal they give. */
export interface IntelSourceMeta {
  /** Unique id, `<corpus folder>/<list>` (e.g. `lord-alfred-ipranges/amazon`). */
  id: string;
  /** Upstream repository (`lord-alfred/ipranges`) or feed name. */
  dataset: string;
  /** `range-list` (CIDRs), `address-list` (exact addresses) or `asn-list`. */
  kind: 'range-list' | 'address-list' | 'asn-list';
  signal: Exclude<PrivacySignalName, 'residential'> | 'isp';
  /** Who runs the addresses (`AWS`, `iCloud Private Relay`), '' for mixed lists. */
  provider: string;
  /** Precedence: lower wins (see classify.ts). */
  tier: number;
  /** Data version: upstream commit and date, or a feed's fetch time. */
  version: string;
  licence: string;
}

export interface IntelSource extends IntelSourceMeta {
  ranges?: SourceRanges;
  /** Exact addresses (canonical text) for address lists that are not ranges (Tor). */
  addresses?: string[];
  /** AS number → holder name as the list writes it. */
  asns?: Map<number, string>;
}

export interface IntelData {
  built: string;
  sources: IntelSource[];
}

interface PackedSource extends IntelSourceMeta {
  v4?: string;
  v6?: string;
  addresses?: string[];
  asns?: [number, string][];
}

const b64 = (a: Uint32Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
function u32(text: string | undefined): Uint32Array {
  if (!text) return new Uint32Array(0);
  const bytes = Buffer.from(text, 'base64');
  // Copy into an aligned buffer (a Buffer may share an unaligned pool slice).
  const out = new Uint32Array(bytes.byteLength / 4);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

export function packIntel(data: IntelData): Buffer {
  const sources: PackedSource[] = data.sources.map(({ ranges, addresses, asns, ...meta }) => ({
    ...meta,
    ...(ranges ? { v4: b64(ranges.v4), v6: b64(ranges.v6) } : {}),
    ...(addresses ? { addresses } : {}),
    ...(asns ? { asns: [...asns] } : {}),
  }));
  return gzipSync(JSON.stringify({ format: INTEL_FORMAT, built: data.built, sources }), {
    level: 9,
  });
}

export function unpackIntel(bytes: Buffer): IntelData {
  const json = JSON.parse(gunzipSync(bytes).toString('utf8')) as {
    format: number;
    built: string;
    sources: PackedSource[];
  };
  if (json.format !== INTEL_FORMAT) {
    throw new Error(`format ${json.format}, expected ${INTEL_FORMAT}`);
  }
  return {
    built: json.built,
    sources: json.sources.map(({ v4, v6, addresses, asns, ...meta }) => ({
      ...meta,
      ...(v4 !== undefined || v6 !== undefined ? { ranges: { v4: u32(v4), v6: u32(v6) } } : {}),
      ...(addresses ? { addresses } : {}),
      ...(asns ? { asns: new Map(asns) } : {}),
    })),
  };
}

/** Reads the shipped file from the package's `data/` folder. */
export function loadIntelData(dataDir: string): IntelData {
  const path = join(dataDir, INTEL_FILE);
  try {
    return unpackIntel(readFileSync(path));
  } catch (error) {
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`, error);
  }
}
