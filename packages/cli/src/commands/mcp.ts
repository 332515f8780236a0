/**
 * `netdiag mcp`: every capability as an MCP tool for AI agents, over stdin/stdout. Configured
 * from the engine's `NETDIAG_*` variables like every command; stdout carries only the protocol
 * (nothing else is printed), and the process ends when the client closes stdin. `@netdiag/mcp`
 * (the SDK) is loaded only here.
 * @module
 */
import {
  ConfigError,
  createNetdiag,
  loadNetdiagConfig,
  type NetdiagLogger,
} from '@netdiag/core/capabilities';
import type { RegisterCommand } from './types.js';

async function loadMcp(): Promise<typeof import('@netdiag/mcp')> {
  try {
    return await import('@netdiag/mcp');
  } catch (error) {
    throw new ConfigError(
      '`netdiag mcp` needs the @netdiag/mcp package: npm install @netdiag/mcp',
      error,
    );
  }
}

export const registerMcp: RegisterCommand = (program, { io }) => {
  program
    .command('mcp')
    .description(
      'serve every capability as an MCP tool over stdio, for AI agents (configuration from NETDIAG_* variables)',
    )
    .action(async () => {
      const { serveStdio } = await loadMcp();
      // Feeds as for every command: the on-disk copy, refreshed by `netdiag refresh-feeds`.
      // Warnings (a feed that could not be read, …) go to stderr, one line each: stdout is the
      // protocol's alone.
      const logger: NetdiagLogger = {
        info() {},
        warn: (_fields, message) => void process.stderr.write(`netdiag mcp: ${message}\n`),
      };
      const { dataDir: ipDataDir } = await import('@netdiag/ip-data');
      const engine = createNetdiag({
        ipDataDir,
        ...loadNetdiagConfig(io.env),
        feeds: 'manual',
        logger,
      });
      const served = await serveStdio(engine);
      await new Promise<void>((resolve) => {
        process.stdin.once('end', resolve);
        process.stdin.once('close', resolve);
      });
      await served.close();
      await engine.close();
    });
};
