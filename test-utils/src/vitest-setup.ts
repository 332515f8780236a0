/**
 * vitest setup file: installs the network guard and fails any test that tripped it; points the
 * data feeds at loopback; removes
 * the temp directories the test file made with `tempDir`.
 */
import { afterAll, afterEach } from 'vitest';
import { installNetworkGuard, takeViolations } from './guard.js';
import { removeTempDirs } from './temp-dir.js';

installNetworkGuard();

// A server made by a test without feed URLs refreshes its feeds on schedule: point them at a
// closed loopback port so that it never asks the real ones (a test that sets its own wins).
for (const name of [
  'NETDIAG_TOR_EXIT_LIST_URL',
  'NETDIAG_RELAY_RANGES_URL',
  'NETDIAG_VPN_EXITS_URL',
  'NETDIAG_CLOUD_RANGES_URL',
]) {
  process.env[name] ??= `http://127.0.0.1:9/${name.toLowerCase()}`;
}

afterEach(() => {
  const violations = takeViolations();
  if (violations.length > 0) {
    throw new Error(`This test tried to leave loopback:\n${violations.join('\n')}`);
  }
});

afterAll(() => {
  removeTempDirs();
});
