/**
 * Run-time feeds of the fast-changing IP-intelligence sources, each replacing one bundled source
 * (`data/ip-intel.json.gz`) with a fresh copy of its upstream list, as the Tor list does. A list
 * is accepted only when it looks like one: at most `maxBytes`, at least `minEntries` addresses
 * or blocks (an error page gives far fewer), most lines holding one; else the old copy stays.
 * @module
 */
import { UpstreamError } from '../errors.js';
import { rangeCount, rangesFromTokens, type SourceRanges } from '../ip/privacy/range-table.js';
import type { FeedDefinition } from './feed.js';

export interface IntelFeedValue {
  ranges: SourceRanges;
  entries: number;
  fetched_at: string;
}

export interface IntelFeedDefinition extends FeedDefinition<IntelFeedValue> {
  /** The bundled source this feed replaces (an id of `intel-corpus.ts`'s catalogue). */
  source: string;
  /** The built-in URL (never fetched under a test runner). */
  defaultUrl: string;
}

const V4 = /^\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2})?$/;
const V6 = /^[0-9a-f]{0,4}:[0-9a-f:.]*(?:\/\d{1,3})?$/i;
const isAddress = (token: string) => V4.test(token) || (token.includes(':') && V6.test(token));

/**
 * Addresses and CIDR blocks anywhere in the text: one a line (`# comments`), the first column
 * of a CSV (Apple's egress-ip-ranges.csv, RFC 8805 geofeeds), or JSON string values (AWS
 * ip-ranges.json). Only full dotted quads and IPv6 text count, so dates, times and version
 * numbers are never read as addresses.
 */
export function parseIntelFeed(
  text: string,
  options: { name: string; minEntries: number },
  fetchedAt: string,
): IntelFeedValue {
  const tokens: string[] = [];
  let lines = 0;
  let matched = 0;
  const json = text.trimStart().startsWith('{');
  if (json) {
    try {
      JSON.parse(text);
    } catch {
      throw new UpstreamError(options.name, 'the answer is not valid JSON');
    }
  }
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') continue;
    lines++;
    const found = line.split(/[\s,;"'[\]{}]+/).filter(isAddress);
    tokens.push(...found);
    if (found.length > 0) matched++;
  }
  const { v4, v6, invalid } = rangesFromTokens(tokens);
  const ranges = { v4, v6 };
  const entries = rangeCount(ranges);
  if (entries < options.minEntries) {
    throw new UpstreamError(
      options.name,
      `${entries} addresses or ranges in the answer, expected at least ${options.minEntries}`,
    );
  }
  if (!json && (matched < lines / 2 || invalid > tokens.length / 100)) {
    throw new UpstreamError(
      options.name,
      `${lines - matched} of ${lines} lines hold no address or range: not the expected list`,
    );
  }
  return { ranges, entries, fetched_at: fetchedAt };
}

function intelFeed({
  minEntries,
  ...feed
}: Pick<IntelFeedDefinition, 'name' | 'source' | 'defaultUrl' | 'refreshMs' | 'maxBytes'> & {
  minEntries: number;
}): IntelFeedDefinition {
  return {
    ...feed,
    file: `netdiag-${feed.name}.txt`,
    timeoutMs: 20_000,
    size: (value) => value.entries,
    parse: (text, fetchedAt) => parseIntelFeed(text, { name: feed.name, minEntries }, fetchedAt),
  };
}

const HOUR = 60 * 60 * 1000;

/**
 * Apple's iCloud Private Relay egress list (`prefix,country,region,city,`): ~14,000 ranges,
 * ~10 MB with the geo columns; Apple updates it about weekly (ip-intel README).
 */
export const RELAY_RANGES_FEED = intelFeed({
  name: 'relay-ranges',
  source: 'hroost-icloud-private-relay/egress',
  defaultUrl: 'https://mask-api.icloud.com/egress-ip-ranges.csv',
  refreshMs: 24 * HOUR,
  maxBytes: 32 * 1024 * 1024,
  minEntries: 1_000,
});

/** ProtonVPN exit addresses (tn3w/ProtonVPN-IPs, from the Proton API): ~2,400, daily. */
export const VPN_EXITS_FEED = intelFeed({
  name: 'vpn-exits',
  source: 'tn3w-protonvpn-ips/exits',
  defaultUrl: 'https://raw.githubusercontent.com/tn3w/ProtonVPN-IPs/master/protonvpn_ips.txt',
  refreshMs: 12 * HOUR,
  maxBytes: 4 * 1024 * 1024,
  minEntries: 200,
});

/** AWS's own ip-ranges.json (~1,800 IPv4 + ~2,100 IPv6 collapsed ranges; ~2 MB), daily. */
export const CLOUD_RANGES_FEED = intelFeed({
  name: 'cloud-ranges',
  source: 'lord-alfred-ipranges/amazon',
  defaultUrl: 'https://ip-ranges.amazonaws.com/ip-ranges.json',
  refreshMs: 24 * HOUR,
  maxBytes: 16 * 1024 * 1024,
  minEntries: 500,
});

export const INTEL_FEEDS: readonly IntelFeedDefinition[] = [
  RELAY_RANGES_FEED,
  VPN_EXITS_FEED,
  CLOUD_RANGES_FEED,
];
