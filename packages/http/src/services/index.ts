/** Shared per-app services (one resolver, one dataset, …), used by routes and by the CLI. */
export * from './breach.js';
export * from './cache.js';
export * from './caller.js';
export * from './email-auth.js';
export * from './ip-data.js';
export * from './probes.js';
export * from './redis.js';
export * from './resolver.js';
export * from './whois.js';
