/**
 * The engine a CLI command runs on: configured from the engine's `NETDIAG_*` variables only
 * (a server-only variable never stops a command), feeds used from the on-disk copy and never
 * fetched unless asked (`netdiag refresh-feeds`), and closed after the command so the process
 * can exit. `--allow-private` / `NETDIAG_ALLOW_PRIVATE` add the local networks to the targets
 * the SSRF guard lets through: a person probing their own machine or LAN from their terminal.
 * @module
 */
import type { CreateNetdiagOptions, Netdiag, NetdiagConfig } from '@netdiag/core/capabilities';
import type { CliIO } from './io.js';

export interface EngineChoices {
  allowPrivate?: boolean | undefined;
  /** Settings a command's flags add (a DNS server, TCP), from the loaded configuration. */
  overrides?: ((config: NetdiagConfig) => Partial<CreateNetdiagOptions>) | undefined;
}

export function allowPrivateFromEnv(io: CliIO): boolean {
  const value = io.env['NETDIAG_ALLOW_PRIVATE'];
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

/**
 * An engine made on first use: the engine's entry (`@netdiag/core/capabilities`, everything
 * but the zod schemas; ~90 ms to import against ~170–230 ms for the root entry) is loaded only
 * then, so a command that answers without it (`netdiag lookup` from the prebuilt files) never
 * pays it.
 */
export function lazyEngine(
  io: CliIO,
  choices: EngineChoices = {},
): { get(): Promise<Netdiag>; close(): Promise<void> } {
  let engine: Promise<Netdiag> | undefined;
  return {
    get() {
      const made = io.engine;
      if (made) engine ??= Promise.resolve(made());
      engine ??= import('@netdiag/core/capabilities').then(async (core) => {
        const config = core.loadNetdiagConfig(io.env);
        const { dataDir: ipDataDir } = await import('@netdiag/ip-data');
        const allowPrivate = choices.allowPrivate ?? allowPrivateFromEnv(io);
        return core.createNetdiag({
          ipDataDir,
          ...config,
          ...(allowPrivate
            ? { allowedTargets: [...config.allowedTargets, ...core.LOCAL_NETWORK_RANGES] }
            : {}),
          feeds: 'manual',
          ...choices.overrides?.(config),
        });
      });
      return engine;
    },
    async close() {
      if (engine === undefined) return;
      const made = await engine.catch(() => undefined);
      await made?.close();
    },
  };
}

export async function withEngine<T>(
  io: CliIO,
  task: (engine: Netdiag) => Promise<T>,
  choices: EngineChoices = {},
): Promise<T> {
  const engines = lazyEngine(io, choices);
  try {
    return await task(await engines.get());
  } finally {
    await engines.close();
  }
}
