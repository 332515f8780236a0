/**
 * @module
 * The `netdiag` CLI: `run(argv)` parses, dispatches and returns an exit code; the one
 * try/catch that turns errors into exit codes lives here.
 */
import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';

export { EXIT } from './exit-codes.js';
export type { CliIO } from './io.js';

const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

const defaultIO: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

/**
 * The program with every command. The command modules (and with them @netdiag/core) are
 * loaded here, on demand: `netdiag --version` needs none of them (BENCHMARKS.md, CLI start).
 */
export async function buildProgram(io: CliIO): Promise<Command> {
  const program = baseProgram(io);
  const { COMMANDS } = await import('./commands/index.js');
  for (const register of COMMANDS) register(program, { io });
  return program;
}

function baseProgram(io: CliIO): Command {
  const program = new Command('netdiag')
    .description('Public-IP, DNS and network diagnostics from the terminal')
    .version(VERSION, '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError()
    .addHelpText(
      'after',
      '\nEvery command takes --json to print the same data object as the HTTP API.\n' +
        'Exit codes: 0 ok, 1 unexpected error, 2 bad input, 3 network/upstream failure, 4 not found.\n',
    );
  return program;
}

/** A request for the version alone is answered without loading any command. */
const VERSION_ONLY = new Set(['-v', '--version']);

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function run(argv: string[], io: CliIO = defaultIO): Promise<number> {
  try {
    const program =
      argv.length === 1 && VERSION_ONLY.has(argv[0] as string)
        ? baseProgram(io)
        : await buildProgram(io);
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return EXIT.ok;
      }
      return EXIT.badInput;
    }
    const { exitFor } = await import('./io.js');
    const { code, message } = exitFor(error);
    io.stderr(`netdiag: ${message}\n`);
    return code;
  }
}
