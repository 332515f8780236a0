/** The CLI's exit codes (documented in `--help` and the README). No imports: `--version` loads this. */
export const EXIT = { ok: 0, internal: 1, badInput: 2, network: 3, notFound: 4 } as const;
