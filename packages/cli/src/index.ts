/**
 * @module
 * The `netdiag` CLI: `run(argv)` parses, dispatches and returns an exit code; the one
 * try/catch that turns errors into exit codes lives here.
 */
import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import { COMMANDS } from './commands/index.js';
import { type CliIO, EXIT, exitFor } from './io.js';

export { type CliIO, EXIT } from './io.js';

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

export function buildProgram(io: CliIO): Command {
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
  for (const register of COMMANDS) register(program, { io });
  return program;
}

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function run(argv: string[], io: CliIO = defaultIO): Promise<number> {
  const program = buildProgram(io);
  try {
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
    const { code, message } = exitFor(error);
    io.stderr(`netdiag: ${message}\n`);
    return code;
  }
}
