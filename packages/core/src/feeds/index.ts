export type { FeedPolicy, FeedStatus } from './feed.js';
export { INTEL_FEEDS, type IntelFeedDefinition } from './intel-feeds.js';
export type { NetdiagLogger } from './logger.js';
export { TOR_EXIT_FEED } from './tor-exit-feed.js';
