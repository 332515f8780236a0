/**
 * The engine a CLI command runs on: configured from the engine's `NETDIAG_*` variables only
 * (a server-only variable never stops a command), feeds used from the on-disk copy and never
 * fetched unless asked (`netdiag refresh-feeds`), and closed after the command so the process
 * can exit.
 * @module
 */
import { createNetdiag, loadNetdiagConfig, type Netdiag } from '@netdiag/core';
import type { CliIO } from './io.js';

export async function withEngine<T>(io: CliIO, task: (engine: Netdiag) => Promise<T>): Promise<T> {
  const engine = createNetdiag({ ...loadNetdiagConfig(io.env), feeds: 'manual' });
  try {
    return await task(engine);
  } finally {
    await engine.close();
  }
}
