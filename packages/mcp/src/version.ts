import { createRequire } from 'node:module';

/** The package version, read once at start-up. */
export const VERSION: string = (
  createRequire(import.meta.url)('../package.json') as { version: string }
).version;
