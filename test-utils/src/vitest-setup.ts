/**
 * vitest setup file: installs the network guard and fails any test that tripped it; points the
 * data feeds at loopback; removes
 * the temp directories the test file made with `tempDir`.
 */
import { afterAll, afterEach } from 'vitest';
import { LOOPBACK_FEED_ENV } from './feed-env.js';
import { installNetworkGuard, takeViolations } from './guard.js';
import { removeTempDirs } from './temp-dir.js';

installNetworkGuard();

// A test that sets its own feed URLs wins.
for (const [name, url] of Object.entries(LOOPBACK_FEED_ENV)) process.env[name] ??= url;

afterEach(() => {
  const violations = takeViolations();
  if (violations.length > 0) {
    throw new Error(`This test tried to leave loopback:\n${violations.join('\n')}`);
  }
});

afterAll(() => {
  removeTempDirs();
});
