/** The app context a CLI command runs in: built from the environment, always closed after. */
import { type AppContext, closeContext, createContext, loadConfig } from '@netdiag/http';
import type { CliIO } from './io.js';

/**
 * Builds the same context the server uses (configuration from `NETDIAG_*`, one resolver, one
 * cache per namespace), runs `task`, and closes sockets and timers afterwards so the process
 * can exit.
 */
export async function withContext<T>(io: CliIO, task: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = createContext(loadConfig(io.env));
  try {
    return await task(ctx);
  } finally {
    await closeContext(ctx);
  }
}
