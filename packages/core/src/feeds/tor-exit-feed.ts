/**
 * The Tor exit-list feed: the Tor Project's bulk exit list, parsed by `parseTorExitList`.
 * @module
 */
import { UpstreamError } from '../errors.js';
import { parseTorExitList, type TorExitList } from '../ip/tor-exit-list.js';
import type { FeedDefinition } from './feed.js';

export const TOR_EXIT_FEED: FeedDefinition<TorExitList> = {
  name: 'tor-exit-list',
  file: 'netdiag-tor-exit-list.txt',
  // The Tor Project regenerates the bulk exit list about every 30 minutes.
  refreshMs: 30 * 60 * 1000,
  // The list is ~20 KB (about 1,500 addresses); anything far larger is not it.
  maxBytes: 2 * 1024 * 1024,
  timeoutMs: 10_000,
  size: (list) => list.size,
  parse(text, fetchedAt) {
    const list = parseTorExitList(text, fetchedAt);
    if (list.size === 0) {
      throw new UpstreamError(
        'tor-exit-list',
        `no address in the answer (${list.invalid_lines} other lines)`,
      );
    }
    return list;
  },
};
