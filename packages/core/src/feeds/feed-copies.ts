/**
 * The feeds' on-disk copies applied to IP datasets as the engine applies them (`engine.ts`),
 * for a process that answers without an engine (`openIpLookup`): each copy in the cache
 * directory is read and parsed, nothing is fetched.
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { NetdiagConfig } from '../config/config.js';
import type { IpDatasets } from '../ip/datasets.js';
import { INTEL_FEEDS, type IntelFeedDefinition, type IntelFeedValue } from './intel-feeds.js';
import { TOR_EXIT_FEED } from './tor-exit-feed.js';

type FeedUrls = Pick<NetdiagConfig, 'relayRangesUrl' | 'vpnExitsUrl' | 'cloudRangesUrl'>;

/** The patch of an IP-intel feed's value: its ranges, named by the URL they came from. */
export function intelFeedPatch(
  definition: IntelFeedDefinition,
  value: IntelFeedValue,
  urls: FeedUrls,
): { ranges: IntelFeedValue['ranges']; dataset: string; version: string } {
  const byName: Record<string, string> = {
    'relay-ranges': urls.relayRangesUrl,
    'vpn-exits': urls.vpnExitsUrl,
    'cloud-ranges': urls.cloudRangesUrl,
  };
  return {
    ranges: value.ranges,
    dataset: byName[definition.name] ?? definition.name,
    version: value.fetched_at || 'cached copy',
  };
}

/** A copy's text and its modification time (the feed's `fetched_at`), or undefined. */
function readCopy(dir: string, file: string): { text: string; when: string } | undefined {
  try {
    const path = join(dir, file);
    return { text: readFileSync(path, 'utf8'), when: statSync(path).mtime.toISOString() };
  } catch {
    return undefined; // no copy
  }
}

/** Applies every feed copy found in `dir`; an unusable copy is skipped, as a feed skips it. */
export function applyFeedCopies(datasets: IpDatasets, dir: string, urls: FeedUrls): void {
  const tor = readCopy(dir, TOR_EXIT_FEED.file);
  if (tor) {
    try {
      datasets.setTorExitList(TOR_EXIT_FEED.parse(tor.text, tor.when));
    } catch {
      // The next fetch replaces it.
    }
  }
  const sources = new Set(datasets.intelSources.map((s) => s.id));
  for (const definition of INTEL_FEEDS) {
    const copy = sources.has(definition.source) ? readCopy(dir, definition.file) : undefined;
    if (!copy) continue;
    try {
      const value = definition.parse(copy.text, copy.when);
      datasets.setIntelSource(definition.source, intelFeedPatch(definition, value, urls));
    } catch {
      // As above.
    }
  }
}
