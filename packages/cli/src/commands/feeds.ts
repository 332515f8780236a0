/**
 * `netdiag refresh-feeds`: fetches the data feeds (Tor exits, iCloud Private Relay ranges, VPN
 * exits, cloud ranges) into the cache directory
 * (NETDIAG_CACHE_DIR). Other commands never fetch a feed; they use this copy when present.
 * @module
 */
import { NetdiagError } from '@netdiag/core/capabilities';
import { type CommonFlags, outputOptions, printAnswer } from '../command.js';
import { withEngine } from '../context.js';
import type { RegisterCommand } from './types.js';

export const registerFeeds: RegisterCommand = (program, { io }) => {
  const command = program
    .command('refresh-feeds')
    .description(
      'fetch the data feeds (Tor exits, relay ranges, VPN exits, cloud ranges) into the cache directory; other commands only read the copies',
    );
  outputOptions(command).action(async (opts: CommonFlags) => {
    const data = await withEngine(io, async (engine) => {
      const updated = await engine.refreshFeeds();
      return {
        updated,
        tor_exits: engine.torExitList()?.size ?? 0,
        feeds: engine.feedStatus(),
      };
    });
    if (data.updated.length === 0) {
      throw new NetdiagError(
        'UPSTREAM_ERROR',
        'no feed could be fetched (NETDIAG_TOR_EXIT_LIST_URL, NETDIAG_RELAY_RANGES_URL, NETDIAG_VPN_EXITS_URL, NETDIAG_CLOUD_RANGES_URL); the previous copies are kept',
      );
    }
    await printAnswer(io, opts, data, () =>
      data.feeds
        .map(
          (f) =>
            `${f.name}: ${f.entries} entries${f.from === 'none' ? ' (bundled data in use)' : ''}${
              f.last_error ? ` — not refreshed: ${f.last_error}` : ''
            }`,
        )
        .join('\n'),
    );
  });
};
