/** The CLI's exit codes (documented in `--help` and the README). No imports: `--version` loads this. */
export const EXIT = {
  ok: 0,
  /** A bug, or no command given (usage shown on stderr). */
  internal: 1,
  badInput: 2,
  network: 3,
  notFound: 4,
  /** The check ran and failed a gate the caller set (`--fail-under`, `--fail-on-listed`). */
  gate: 5,
  /** Interrupted (Ctrl-C): 128 + SIGINT, as shells report it. */
  interrupted: 130,
} as const;

/** The exit codes as `--help` and the README list them. */
export const EXIT_HELP =
  'Exit codes: 0 ok, 1 unexpected error or no command, 2 bad input (also a refused target),\n' +
  '3 network/upstream failure (timeout, SERVFAIL, site down), 4 not found,\n' +
  '5 a gate failed (--fail-under, --fail-on-listed), 130 interrupted (Ctrl-C).\n' +
  'In a batch, the first failing target decides the code.';
