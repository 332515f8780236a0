export {
  type Feed,
  type FeedDefinition,
  type FeedOptions,
  type FeedPolicy,
  type FeedStatus,
  startFeed,
} from './feed.js';
export {
  INTEL_FEEDS,
  type IntelFeedDefinition,
  type IntelFeedValue,
  parseIntelFeed,
} from './intel-feeds.js';
export { type NetdiagLogger, SILENT_LOGGER } from './logger.js';
export { TOR_EXIT_FEED } from './tor-exit-feed.js';
