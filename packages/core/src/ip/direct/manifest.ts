/**
 * What a direct lookup (`direct-lookup.ts`) needs besides the prebuilt tables, written by the
 * package build beside them (`prebuildIpTables`): which four files belong together, what
 * privacy data they were made from (a digest of the IP-intel pack and of the curated lists,
 * compared with the files in use before any answer), and the few facts a lookup otherwise
 * gets only by loading that data whole — the range sources' names and tiers, the bundled AS
 * lists, and the ASes learnt from provider ranges (`provider-ases.ts`, which needs the whole
 * AS index: 59-70 ms and 11 MB to load). Kept in the shared cache format (`ip/cache-file.ts`),
 * all of it in the header's `meta`; keyed by the data packages' versions, like the tables.
 * @module
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CacheKind, cacheFilePath, writeCacheFile } from '../cache-file.js';
import type { AsListing } from '../privacy/intel.js';
import { INTEL_FILE, type IntelSourceMeta } from '../privacy/intel-pack.js';
import { isStandardKeyword, type SignalLists } from '../privacy/signal-lists.js';

export const DIRECT_MANIFEST: CacheKind = { name: 'ip-direct', format: 1 };

/** AS number → (index into `sources`, the name the list gives) per list naming it. */
export type AsListings = [asn: number, listings: [source: number, name: string][]][];

export interface DirectManifest {
  /** File names, in the manifest's folder. */
  files: { tables: string; asnIndex: string; locations: string; intelTable: string };
  /** The keys of the AS index (the AS data) and of the range table (`intelFingerprint`). */
  keys: { asn: string; intel: string };
  /** The location table's record-id fingerprint (its `ids` meta), tying it to the tables. */
  locationIds: string;
  /** SHA-256 of the IP-intel pack file (`data/ip-intel.json.gz`) the privacy facts come from. */
  pack: string;
  /** `signalListsFingerprint` of the curated lists the learnt ASes were worked out with. */
  lists: string;
  /** Every source named below, once. */
  sources: IntelSourceMeta[];
  /** The range table's sources (its combinations index into this), as indexes into `sources`. */
  tableSources: number[];
  /**
   * The ASes learnt from provider ranges (74 on the bundled data). The bundled AS lists (7,351
   * entries) are arrays of the file instead, read by position (`AS_LISTS`): parsing them all
   * as JSON was a third of a direct lookup's start.
   */
  learnt: AsListings;
}

/**
 * The arrays of the bundled AS lists: the AS numbers in order (`as.asn`), and for each, where
 * its listings end (`as.ends`) in `as.text`, the UTF-8 JSON `[source, name][]` of each AS.
 */
export const AS_LISTS = { asn: 'as.asn', ends: 'as.ends', text: 'as.text' } as const;

export function directManifestFile(dir: string, key: string): string {
  return cacheFilePath(dir, DIRECT_MANIFEST, key);
}

/** SHA-256 (hex) of the IP-intel pack in `dataDir`; undefined when it cannot be read. */
export function packDigest(dataDir: string): string | undefined {
  try {
    return createHash('sha256')
      .update(readFileSync(join(dataDir, INTEL_FILE)))
      .digest('hex');
  } catch {
    return undefined;
  }
}

/** A digest of the curated lists' entries (what classification reads from them). */
export function signalListsFingerprint(lists: SignalLists): string {
  const hash = createHash('sha256');
  for (const [signal, map] of Object.entries(lists.lists)) {
    for (const [asn, entry] of map) {
      hash.update(JSON.stringify([signal, asn, entry.holder, entry.reason, entry.file]));
    }
  }
  for (const k of lists.keywords) {
    // A standard keyword's pattern follows from the keyword (and is not built to be hashed).
    const pattern = isStandardKeyword(k) ? [] : [k.pattern.source, k.pattern.flags];
    hash.update(JSON.stringify([k.signal, k.keyword, k.reason, ...pattern]));
  }
  return hash.digest('hex');
}

export interface DirectManifestInput {
  files: DirectManifest['files'];
  keys: DirectManifest['keys'];
  locationIds: string;
  pack: string;
  lists: SignalLists;
  tableSources: readonly IntelSourceMeta[];
  asLists: ReadonlyMap<number, readonly AsListing[]>;
  learnt: ReadonlyMap<number, readonly AsListing[]>;
}

/** Writes the manifest of `key` into `dir`; failures are returned, never thrown. */
export function writeDirectManifest(
  dir: string,
  key: string,
  input: DirectManifestInput,
): Promise<Error | undefined> {
  const sources: IntelSourceMeta[] = [];
  const index = new Map<string, number>();
  const indexOf = (meta: IntelSourceMeta): number => {
    const text = JSON.stringify(meta);
    let i = index.get(text);
    if (i === undefined) {
      i = sources.length;
      sources.push(meta);
      index.set(text, i);
    }
    return i;
  };
  const listings = (map: ReadonlyMap<number, readonly AsListing[]>): AsListings =>
    [...map].map(([asn, list]) => [asn, list.map((l) => [indexOf(l.source), l.name])]);
  const asLists = listings(input.asLists).sort((a, b) => a[0] - b[0]);
  const texts = asLists.map(([, list]) => Buffer.from(JSON.stringify(list), 'utf8'));
  let end = 0;
  const manifest: DirectManifest = {
    files: input.files,
    keys: input.keys,
    locationIds: input.locationIds,
    pack: input.pack,
    lists: signalListsFingerprint(input.lists),
    tableSources: input.tableSources.map(indexOf),
    learnt: listings(input.learnt),
    sources,
  };
  return writeCacheFile(directManifestFile(dir, key), DIRECT_MANIFEST, key, {
    meta: manifest as unknown as Record<string, unknown>,
    arrays: {
      [AS_LISTS.asn]: Uint32Array.from(asLists, ([asn]) => asn),
      [AS_LISTS.ends]: Uint32Array.from(texts, (text) => (end += text.length)),
      [AS_LISTS.text]: new Uint8Array(Buffer.concat(texts)),
    },
  });
}
