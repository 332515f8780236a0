/**
 * `netdiag refresh-feeds`: fetches the data feeds (the Tor exit list) into the cache directory
 * (NETDIAG_CACHE_DIR). Other commands never fetch a feed; they use this copy when present.
 * @module
 */
import { NetdiagError } from '@netdiag/core';
import { type CommonFlags, outputOptions, printAnswer } from '../command.js';
import { withEngine } from '../context.js';
import type { RegisterCommand } from './types.js';

export const registerFeeds: RegisterCommand = (program, { io }) => {
  const command = program
    .command('refresh-feeds')
    .description(
      'fetch the data feeds (Tor exit list) into the cache directory; other commands only read the copy',
    );
  outputOptions(command).action(async (opts: CommonFlags) => {
    const data = await withEngine(io, async (engine) => {
      const updated = await engine.refreshFeeds();
      return { updated, tor_exits: engine.torExitList()?.size ?? 0 };
    });
    if (data.updated.length === 0) {
      throw new NetdiagError(
        'UPSTREAM_ERROR',
        'no feed could be fetched (NETDIAG_TOR_EXIT_LIST_URL); the previous copy is kept',
      );
    }
    await printAnswer(io, opts, data, () => `Tor exit list: ${data.tor_exits} addresses`);
  });
};
