import { LOOPBACK_FEED_ENV } from '@netdiag/test-utils';
import type { CliIO } from '../src/io.js';

/** Captures what a CLI run prints. */
export function captureIO(env: Record<string, string | undefined> = {}, stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    env: { NETDIAG_LOG_LEVEL: 'silent', ...LOOPBACK_FEED_ENV, ...env },
    stdin: async () => stdin,
  };
  return {
    io,
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}
