/**
 * The engine a CLI command runs on: configured from the engine's `NETDIAG_*` variables only
 * (a server-only variable never stops a command), feeds used from the on-disk copy and never
 * fetched unless asked (`netdiag refresh-feeds`), and closed after the command so the process
 * can exit. `--allow-private` / `NETDIAG_ALLOW_PRIVATE` add the local networks to the targets
 * the SSRF guard lets through: a person probing their own machine or LAN from their terminal.
 * @module
 */
import {
  type CreateNetdiagOptions,
  createNetdiag,
  LOCAL_NETWORK_RANGES,
  loadNetdiagConfig,
  type Netdiag,
  type NetdiagConfig,
} from '@netdiag/core';
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

export async function withEngine<T>(
  io: CliIO,
  task: (engine: Netdiag) => Promise<T>,
  choices: EngineChoices = {},
): Promise<T> {
  const config = loadNetdiagConfig(io.env);
  const allowPrivate = choices.allowPrivate ?? allowPrivateFromEnv(io);
  const engine = createNetdiag({
    ...config,
    ...(allowPrivate
      ? { allowedTargets: [...config.allowedTargets, ...LOCAL_NETWORK_RANGES] }
      : {}),
    feeds: 'manual',
    ...choices.overrides?.(config),
  });
  try {
    return await task(engine);
  } finally {
    await engine.close();
  }
}
