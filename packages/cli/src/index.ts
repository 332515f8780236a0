/**
 * @module
 * The `netdiag` CLI: `run(argv)` parses, dispatches and returns an exit code; the one
 * try/catch that turns errors into exit codes lives here.
 */
import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import type { RegisterCommand } from './commands/types.js';
import { EXIT, EXIT_HELP } from './exit-codes.js';
import type { CliIO } from './io.js';
import { escapeLines, printError } from './output/terminal.js';

export { EXIT } from './exit-codes.js';
export type { CliIO } from './io.js';

const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** The real process: its streams (and whether they are terminals), environment and stdin. */
export function processIO(): CliIO {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    drained: () =>
      new Promise((resolve) => {
        const out = process.stdout;
        if (!out.writableNeedDrain) return resolve();
        // 'close' too: a reader that went away (EPIPE) never drains.
        const done = () => {
          out.off('drain', done);
          out.off('close', done);
          resolve();
        };
        out.on('drain', done);
        out.on('close', done);
      }),
    env: process.env,
    stdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
  };
}

/**
 * The program with every command. The command modules (and with them @netdiag/core) are
 * loaded here, on demand: `netdiag --version` needs none of them (BENCHMARKS.md, CLI start).
 */
export async function buildProgram(
  io: CliIO,
  exit: { code: number } = { code: EXIT.ok },
): Promise<Command> {
  const program = baseProgram(io);
  const [{ COMMANDS }, { registerRegistryCommands }, { CAPABILITIES }] = await Promise.all([
    import('./commands/index.js'),
    import('./commands/from-registry.js'),
    import('@netdiag/core'),
  ]);
  for (const register of COMMANDS) register(program, { io, exit });
  // Then a plain command for every registry entry no module answers (from-registry.ts).
  registerRegistryCommands(program, { io, exit }, CAPABILITIES);
  return program;
}

function baseProgram(io: CliIO): Command {
  const program = new Command('netdiag')
    .description('Public-IP, DNS and network diagnostics from the terminal')
    .version(VERSION, '-v, --version')
    .exitOverride()
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      // Commander's errors quote the argument given, which may hold escape sequences.
      outputError: (text, write) => write(escapeLines(io, text)),
    })
    .showHelpAfterError()
    .addHelpText(
      'after',
      '\nEvery data command takes targets as arguments, from a file (-f FILE) or from standard\n' +
        'input (-), and prints text, json, jsonl, csv or yaml (--format; --json = the data object\n' +
        'of the HTTP API); --fields picks fields. Logs and progress go to stderr.\n' +
        `${EXIT_HELP}\n`,
    );
  return program;
}

/** A request for the version alone is answered without loading any command. */
const VERSION_ONLY = new Set(['-v', '--version']);

/**
 * Commands that need no more of core than `@netdiag/core/one-shot`: `netdiag lookup …` and
 * `netdiag bulk …` build a program of that one command, so neither the other commands nor the
 * engine are loaded (a one-shot lookup in ~1/10 of the time and memory, ~70 ms less per bulk
 * run: BENCHMARKS.md, "One-shot CLI lookup", "Bulk").
 */
const LIGHT_COMMANDS: Record<string, () => Promise<RegisterCommand>> = {
  lookup: async () => (await import('./commands/lookup.js')).registerLookup,
  bulk: async () => (await import('./commands/bulk.js')).registerBulk,
};

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function run(argv: string[], io: CliIO = processIO()): Promise<number> {
  const exit = { code: EXIT.ok as number };
  try {
    if (argv.length === 1 && VERSION_ONLY.has(argv[0] as string)) {
      await baseProgram(io).parseAsync(argv, { from: 'user' });
      return EXIT.ok;
    }
    const light = Object.hasOwn(LIGHT_COMMANDS, argv[0] ?? '')
      ? LIGHT_COMMANDS[argv[0] as string]
      : undefined;
    const program = light ? baseProgram(io) : await buildProgram(io, exit);
    if (light) (await light())(program, { io, exit });
    if (argv.length === 0) {
      // No command: usage on stderr (stdout stays for answers) and a failing status.
      io.stderr(program.helpInformation());
      return EXIT.internal;
    }
    await program.parseAsync(argv, { from: 'user' });
    return exit.code;
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
    const { describeError } = await import('./errors.js');
    const { code, message } = describeError(error);
    printError(io, message);
    return code;
  }
}
