/**
 * Which AS entries have no AS-level privacy evidence at all under the bundled lists, made by the
 * package build (`prebuildIpTables`) beside the other prebuilt tables. 83,490 of the 91,065 AS
 * entries have none (2026-11-29): the curated lists, the IP-intel pack's AS listings, the AS
 * listings learnt from provider ranges and the AS-name keywords all pass them by, and their
 * answer is the no-signal rule's. Working that out is a third of the lookup of an address
 * whose AS is seen for the first time (four map lookups and the keyword search of the AS name,
 * BENCHMARKS.md); with these flags read at start it is one array read. The other entries are
 * classified as before, on first use.
 *
 * Only the package's prebuilt folder holds the file, written afresh by every build (so it is
 * always what this version's classification gives), and it is keyed by everything the answer
 * depends on besides the code: the AS data's key, the IP-intel pack's fingerprint and a digest
 * of the curated lists and keywords. Other lists (a caller's `signalLists`), other intel or
 * another AS database never read it.
 * @module
 */
import { createHash } from 'node:crypto';
import type { AsnIndex } from '../asn/asn-index.js';
import { type CacheKind, cacheFilePath, readCacheFile, writeCacheFile } from '../cache-file.js';
import { asCandidates } from './classify.js';
import type { AsListing } from './intel.js';
import type { SignalLists } from './signal-lists.js';

export const AS_EVIDENCE: CacheKind = { name: 'as-evidence', format: 1 };

/** A digest of the curated AS lists and the AS-name keywords. */
export function listsDigest(lists: SignalLists): string {
  const hash = createHash('sha256');
  for (const [signal, listed] of Object.entries(lists.lists).sort(([a], [b]) => (a < b ? -1 : 1))) {
    hash.update(`${signal}\n`);
    for (const [asn, entry] of [...listed].sort(([a], [b]) => a - b)) {
      hash.update(`${asn}\t${JSON.stringify(entry)}\n`);
    }
  }
  hash.update(JSON.stringify(lists.keywords));
  return hash.digest('hex').slice(0, 32);
}

/** The key of the flags of this AS data, IP-intel pack and lists. */
export function asEvidenceKey(asnKey: string, intelKey: string, lists: SignalLists): string {
  return `${asnKey}+intel-${intelKey}+lists-${listsDigest(lists)}`;
}

export function asEvidenceFile(dir: string, key: string): string {
  return cacheFilePath(dir, AS_EVIDENCE, key);
}

/**
 * One byte per AS entry: 1 when `asCandidates` finds nothing for it (no AS-level evidence), 0
 * when it has some and is classified on first use.
 */
export function quietAsEntries(
  asn: AsnIndex,
  lists: SignalLists,
  asLists: ReadonlyMap<number, readonly AsListing[]> | undefined,
  learnt: ReadonlyMap<number, readonly AsListing[]> | undefined,
): Uint8Array {
  const quiet = new Uint8Array(asn.entries);
  for (let entry = 0; entry < asn.entries; entry++) {
    const found = asCandidates(asn.asnOf(entry), asn.nameOf(entry), lists, asLists, learnt);
    if (found.length === 0) quiet[entry] = 1;
  }
  return quiet;
}

export function writeAsEvidence(
  file: string,
  key: string,
  quiet: Uint8Array,
): Promise<Error | undefined> {
  return writeCacheFile(file, AS_EVIDENCE, key, {
    meta: { entries: quiet.length },
    arrays: { quiet },
  });
}

/**
 * The flags of `key` in `file` for an AS index of `entries` entries, or undefined (absent,
 * other data, damaged, another size, a byte other than 0 or 1). Never throws.
 */
export async function readAsEvidence(
  file: string,
  key: string,
  entries: number,
): Promise<Uint8Array | undefined> {
  return readCacheFile(file, AS_EVIDENCE, key, (f) => {
    const quiet = f.u8('quiet');
    if (quiet.length !== entries || f.meta['entries'] !== entries) {
      throw new RangeError('entries');
    }
    for (const flag of quiet) if (flag > 1) throw new RangeError('flag');
    return quiet;
  });
}
