export {
  type Feed,
  type FeedDefinition,
  type FeedOptions,
  type FeedPolicy,
  startFeed,
} from './feed.js';
export { type NetdiagLogger, SILENT_LOGGER } from './logger.js';
export { TOR_EXIT_FEED } from './tor-exit-feed.js';
