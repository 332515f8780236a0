/**
 * Output and exit-code conventions shared by every command.
 *
 * Exit codes: 0 success; 1 unexpected error (a bug); 2 bad input (including a target the SSRF
 * guard refuses); 3 network or upstream failure (timeout, SERVFAIL, registry down, offline);
 * 4 not found (domain not in RDAP/WHOIS, unknown AS).
 * `--json` prints exactly the `data` object the HTTP API returns, on one line, and nothing else
 * on stdout; messages go to stderr.
 * @module
 */
import { type ErrorCode, isNetdiagError } from '@netdiag/core';

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Read all of stdin (for `netdiag bulk -`). */
  stdin?: () => Promise<string>;
}

import { EXIT } from './exit-codes.js';

export { EXIT };

const EXIT_BY_CODE: Record<ErrorCode, number> = {
  INVALID_INPUT: EXIT.badInput,
  TARGET_NOT_ALLOWED: EXIT.badInput,
  NOT_FOUND: EXIT.notFound,
  UPSTREAM_ERROR: EXIT.network,
  UPSTREAM_TIMEOUT: EXIT.network,
  UPSTREAM_THROTTLED: EXIT.network,
  ABORTED: EXIT.network,
  CONFIG_ERROR: EXIT.badInput,
};

/** Maps a thrown error to an exit code and a one-line message for stderr. */
export function exitFor(error: unknown): { code: number; message: string } {
  if (isNetdiagError(error)) return { code: EXIT_BY_CODE[error.code], message: error.message };
  const err = error as { code?: string; message?: string };
  if (err?.code === 'commander.invalidArgument' || err?.code === 'commander.missingArgument') {
    return { code: EXIT.badInput, message: err.message ?? 'bad arguments' };
  }
  return {
    code: EXIT.internal,
    message: `unexpected error: ${err?.message ?? String(error)} (please file an issue)`,
  };
}

/** Prints `data` as JSON (`--json`) or through the command's human renderer. */
export function output(
  io: CliIO,
  json: boolean,
  data: unknown,
  human: (data: never) => string,
): void {
  io.stdout(json ? `${JSON.stringify(data)}\n` : `${human(data as never).replace(/\n*$/, '')}\n`);
}
