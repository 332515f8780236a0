/**
 * vitest setup file: installs the network guard and fails any test that tripped it; removes
 * the temp directories the test file made with `tempDir`.
 */
import { afterAll, afterEach } from 'vitest';
import { installNetworkGuard, takeViolations } from './guard.js';
import { removeTempDirs } from './temp-dir.js';

installNetworkGuard();

afterEach(() => {
  const violations = takeViolations();
  if (violations.length > 0) {
    throw new Error(`This test tried to leave loopback:\n${violations.join('\n')}`);
  }
});

afterAll(() => {
  removeTempDirs();
});
