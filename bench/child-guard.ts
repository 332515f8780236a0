/**
 * Preloaded into every benchmark child process (`startChild`): the same network guard as the
 * tests (CONTRACT §7), so a server under load can never reach past loopback, even through a
 * default upstream it was not told about.
 */
import { installNetworkGuard } from '@netdiag/test-utils/guard';

installNetworkGuard();
