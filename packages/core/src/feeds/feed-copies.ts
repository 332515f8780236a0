/**
 * The feeds' on-disk copies applied to IP datasets as the engine applies them (`engine.ts`),
 * for a process that answers without an engine (`openIpLookup`): each copy in the cache
 * directory is read (an IP-intel copy from the table written for it), nothing is fetched.
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { NetdiagConfig } from '../config/config.js';
import type { IpDatasets } from '../ip/datasets.js';
import {
  feedTableKey,
  feedTablePath,
  openFeedTable,
  writeFeedTable,
} from '../ip/privacy/feed-table.js';
import { feedIntel } from '../ip/privacy/intel.js';
import type { IntelSourceMeta } from '../ip/privacy/intel-pack.js';
import { INTEL_FEEDS, type IntelFeedDefinition, type IntelFeedValue } from './intel-feeds.js';
import { TOR_EXIT_FEED } from './tor-exit-feed.js';

type FeedUrls = Pick<NetdiagConfig, 'relayRangesUrl' | 'vpnExitsUrl' | 'cloudRangesUrl'>;

/** The patch of an IP-intel feed's value: its ranges, named by the URL they came from. */
export function intelFeedPatch(
  definition: IntelFeedDefinition,
  value: IntelFeedValue,
  urls: FeedUrls,
): { ranges: IntelFeedValue['ranges']; dataset: string; version: string } {
  return {
    ranges: value.ranges,
    dataset: datasetOf(definition, urls),
    version: value.fetched_at || 'cached copy',
  };
}

/** A feed's dataset name in answers: the URL its copy came from. */
function datasetOf(definition: IntelFeedDefinition, urls: FeedUrls): string {
  const byName: Record<string, string> = {
    'relay-ranges': urls.relayRangesUrl,
    'vpn-exits': urls.vpnExitsUrl,
    'cloud-ranges': urls.cloudRangesUrl,
  };
  return byName[definition.name] ?? definition.name;
}

/** A copy's bytes and its modification time (the feed's `fetched_at`), or undefined. */
function readCopy(dir: string, file: string): { bytes: Buffer; when: string } | undefined {
  try {
    const path = join(dir, file);
    return { bytes: readFileSync(path), when: statSync(path).mtime.toISOString() };
  } catch {
    return undefined; // no copy
  }
}

/**
 * Writes the table of an IP-intel feed's copy (its text as on disk) for the one-shot lookups
 * that follow, unless it is there already; true when it is in place.
 */
export async function saveFeedTable(
  dir: string,
  definition: IntelFeedDefinition,
  copy: Buffer | string,
  source: IntelSourceMeta,
  value: IntelFeedValue,
): Promise<boolean> {
  const path = feedTablePath(dir, definition.name);
  const key = feedTableKey(copy);
  const existing = openFeedTable(path, key, false);
  existing?.close();
  if (existing) return true;
  const intel = feedIntel(source, { ranges: value.ranges, dataset: '', version: '' });
  return (await writeFeedTable(path, key, intel)) === undefined;
}

/**
 * Applies every usable feed copy in `dir`. An IP-intel copy is read from its table, written
 * first when missing; where it cannot be written (a read-only disk), the ranges go in memory.
 */
export async function applyFeedCopies(
  datasets: IpDatasets,
  dir: string,
  urls: FeedUrls,
): Promise<void> {
  const tor = readCopy(dir, TOR_EXIT_FEED.file);
  if (tor) {
    try {
      datasets.setTorExitList(TOR_EXIT_FEED.parse(tor.bytes.toString('utf8'), tor.when));
    } catch {
      // The next fetch replaces it.
    }
  }
  for (const definition of INTEL_FEEDS) {
    const source = datasets.intelSources.find((s) => s.id === definition.source);
    const copy = source ? readCopy(dir, definition.file) : undefined;
    if (!source || !copy) continue;
    const label = { dataset: datasetOf(definition, urls), version: copy.when };
    const path = feedTablePath(dir, definition.name);
    const key = feedTableKey(copy.bytes);
    if (datasets.setIntelTable(definition.source, path, key, label)) continue;
    try {
      const value = definition.parse(copy.bytes.toString('utf8'), copy.when);
      const saved = await saveFeedTable(dir, definition, copy.bytes, source, value);
      if (saved && datasets.setIntelTable(definition.source, path, key, label)) continue;
      datasets.setIntelSource(definition.source, intelFeedPatch(definition, value, urls));
    } catch {
      // As above.
    }
  }
}
