/**
 * One way for every data command to take targets, run them and print them, so the conventions
 * hold everywhere: targets as operands, `-f FILE` or `-` (stdin); bounded concurrency (`--jobs`);
 * per-target errors reported in the output without stopping the batch; `--format`, `--json`,
 * `--fields`; colour and progress on a terminal only; gates (`--fail-under`, …) as exit codes;
 * Ctrl-C aborts what is in flight and exits 130.
 * @module
 */
import type { Netdiag } from '@netdiag/core/capabilities';
import { AbortedError, InvalidInputError } from '@netdiag/core/one-shot';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { type EngineChoices, lazyEngine } from './context.js';
import { describeError } from './errors.js';
import { EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';
import { type Colors, colorEnabled, colors } from './output/color.js';
import { parseFields } from './output/fields.js';
import {
  type BatchItem,
  createWriter,
  FORMATS,
  type Format,
  loadFormat,
} from './output/formats.js';
import { type Progress, progressBar } from './output/progress.js';
import { printError } from './output/terminal.js';
import { collectTargets } from './targets.js';

/** What every data command's action receives besides its own flags. */
export interface CommonFlags {
  format?: Format;
  json?: boolean;
  fields?: string;
  file?: string;
  jobs?: number;
  timeout?: number;
  color?: boolean;
  progress?: boolean;
  allowPrivate?: boolean;
}

/** What a renderer may use: colours (no-ops when off) and the terminal width. */
export interface Ui {
  c: Colors;
  width: number | undefined;
}

export interface CallContext {
  /** The engine call's options: the run's abort signal and the `--timeout` budget. */
  call: { signal: AbortSignal; timeout?: number };
  /** The progress of this one target (a port scan); a no-op unless a bar is shown. */
  progress: Progress;
  /** True when this target is the only one (a scan may draw its own bar). */
  single: boolean;
}

export interface GateFailure {
  message: string;
  /** @default EXIT.gate */
  code?: number;
}

export interface TargetCommandSpec<T, F, A = string | undefined> {
  name: string;
  aliases?: string[];
  description: string;
  operand: {
    name: string;
    help: string;
    /** When no target is given at all, run once for this label (e.g. "this machine"). */
    whenNone?: string;
    /** Targets never contain spaces or commas: list lines may hold several. */
    words?: boolean;
  };
  /** The command's own options. */
  configure?: (command: Command) => void;
  /** This command probes targets outward: offer --allow-private. */
  probe?: boolean;
  /** Engine settings from the flags (a DNS server, TCP). */
  engine?: (flags: F & CommonFlags) => EngineChoices['overrides'];
  /** Targets → tasks (default: one task per target). */
  plan?: (
    targets: string[],
    flags: F & CommonFlags,
    source: { fromList: boolean },
  ) => { input: string; arg: A }[];
  run: (engine: Netdiag, arg: A, flags: F & CommonFlags, call: CallContext) => Promise<T>;
  /**
   * Answers without the engine (`netdiag lookup`: the IP data read by position): `open` once
   * per run, `run` per target (a throw is the target's error), `close` at the end. The engine
   * is made only for a target `run` leaves to it (`undefined`).
   */
  direct?: {
    open(): Promise<void>;
    run(arg: A, flags: F & CommonFlags): T | undefined;
    close(): void;
  };
  text: (data: T, ui: Ui, flags: F & CommonFlags) => string;
  /** Text answers of a batch follow each other without a blank line (`dig +short`). */
  compact?: (flags: F & CommonFlags) => boolean;
  /** CSV records of an answer (default: the answer as one row). */
  rows?: (data: T) => readonly object[];
  gate?: (data: T, flags: F & CommonFlags) => GateFailure | undefined;
  /** How this command names the engine's parameters (`ip` → `--ip`), for error messages. */
  words?: Record<string, string>;
  /** Targets at once by default. */
  jobs?: number;
  /** Text after the command's help (its exit codes, examples). */
  helpAfter?: string;
}

export interface CommandContext {
  io: CliIO;
  /** The exit code the run ends with; actions set it, `run()` returns it. */
  exit: { code: number };
}

export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
      throw new InvalidArgumentError(`${name} must be a whole number above 0`);
    }
    return n;
  };
}

/** `5`, `5s`, `1.5s`, `1500ms`, `1m` → milliseconds; a bare number is seconds (as dig, nmap). */
export function parseDuration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  const unit = match?.[2] ?? 's';
  const ms = match ? Number(match[1]) * (unit === 'ms' ? 1 : unit === 'm' ? 60_000 : 1000) : NaN;
  if (!Number.isFinite(ms) || ms < 1 || ms > 3_600_000) {
    throw new InvalidArgumentError('give a duration such as 5, 5s, 1500ms or 1m (at most 1 h)');
  }
  return Math.round(ms);
}

/** "address" → "addresses", "domain" → "domains" (for help and the progress bar). */
export function plural(noun: string): string {
  return /(s|x|sh|ch)$/.test(noun) ? `${noun}es` : `${noun}s`;
}

/** `--format`, `--json`, `--fields`, `--color` / `--no-color`: on every data command. */
export function outputOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--format <format>', 'output format').choices(FORMATS as unknown as string[]),
    )
    .option('--json', 'same as --format json: the data object of the HTTP API')
    .option('--fields <paths>', 'only these fields, comma-separated dot paths (location.country)')
    .option('--color', 'colour even when stdout is not a terminal')
    .option('--no-color', 'no colour (also NO_COLOR=1)');
}

/** Prints one answer of a command that has no targets (`refresh-feeds`) in the chosen format. */
export async function printAnswer<T>(
  io: CliIO,
  flags: CommonFlags,
  data: T,
  text: (data: T, ui: Ui) => string,
): Promise<void> {
  const format: Format = flags.json ? 'json' : (flags.format ?? 'text');
  await loadFormat(format);
  const ui: Ui = {
    c: colors(format === 'text' && colorEnabled(io, flags.color)),
    width: io.stdoutIsTTY ? io.columns : undefined,
  };
  const writer = createWriter<T>({
    format,
    batch: false,
    fields: flags.fields !== undefined ? parseFields(flags.fields) : undefined,
    pretty: io.stdoutIsTTY === true,
    terminal: io.stdoutIsTTY === true,
    text: (d) => text(d, ui),
    textError: (input, message) => `${input}: ${message}`,
    rows: undefined,
    write: io.stdout,
  });
  writer.item({ input: '', data });
  writer.end();
}

/** Registers a data command built on the shared conventions. */
export function targetCommand<T, F, A = string | undefined>(
  program: Command,
  ctx: CommandContext,
  spec: TargetCommandSpec<T, F, A>,
): Command {
  const { io } = ctx;
  const name = spec.operand.name;
  const command = program
    .command(spec.name)
    .description(spec.description)
    .argument(
      `[${name}...]`,
      `${spec.operand.help}; several are checked in turn, "-" reads them from standard input`,
    );
  for (const alias of spec.aliases ?? []) command.alias(alias);
  spec.configure?.(command);
  command.option(
    '-f, --file <path>',
    `read ${plural(name)} from a file, one per line (# starts a comment)`,
  );
  outputOptions(command)
    .option(
      '-j, --jobs <n>',
      `${plural(name)} checked at once (default ${spec.jobs ?? 4})`,
      positiveInt('--jobs'),
    )
    .option('--timeout <duration>', `time budget per ${name}: 5s, 1500ms, 1m`, parseDuration)
    .option('--progress', 'show the progress bar even when stderr is not a terminal')
    .option('--no-progress', 'never show the progress bar');
  if (spec.probe) {
    command.option(
      '--allow-private',
      'allow loopback and private-network targets (your machine, your LAN); also NETDIAG_ALLOW_PRIVATE=1',
    );
  }
  if (spec.helpAfter) command.addHelpText('after', `\n${spec.helpAfter}`);
  command.action(async (operands: string[], flags: F & CommonFlags) => {
    ctx.exit.code = await runTargets(io, spec, operands, flags);
  });
  return command;
}

async function runTargets<T, F, A>(
  io: CliIO,
  spec: TargetCommandSpec<T, F, A>,
  operands: string[],
  flags: F & CommonFlags,
): Promise<number> {
  const { targets, fromList } = await collectTargets(io, {
    operands,
    file: flags.file,
    splitWords: spec.operand.words === true,
  });
  let tasks: { input: string; arg: A }[];
  if (spec.plan) tasks = spec.plan(targets, flags, { fromList });
  else if (targets.length > 0) tasks = targets.map((t) => ({ input: t, arg: t as A }));
  else if (spec.operand.whenNone !== undefined) {
    tasks = [{ input: spec.operand.whenNone, arg: undefined as A }];
  } else tasks = [];
  if (tasks.length === 0) {
    throw new InvalidInputError(
      `no ${spec.operand.name} given: pass it as an argument, with -f FILE, or "-" to read standard input`,
    );
  }
  const batch = fromList || tasks.length > 1;
  const format: Format = flags.json ? 'json' : (flags.format ?? 'text');
  await loadFormat(format);
  const fields = flags.fields !== undefined ? parseFields(flags.fields) : undefined;
  if (fields !== undefined && fields.length === 0) {
    throw new InvalidInputError('--fields needs at least one field name');
  }
  const ui: Ui = {
    c: colors(format === 'text' && colorEnabled(io, flags.color)),
    width: io.stdoutIsTTY ? io.columns : undefined,
  };
  const showProgress = flags.progress ?? io.stderrIsTTY === true;
  const bar = progressBar(io, plural(spec.operand.name), batch && showProgress);
  const writer = createWriter<T>({
    format,
    batch,
    fields,
    pretty: io.stdoutIsTTY === true,
    terminal: io.stdoutIsTTY === true,
    text: (data) => spec.text(data, ui, flags),
    textError: (input, message) => `${input}: ${ui.c.red('error')}: ${message}`,
    compact: spec.compact?.(flags) === true,
    rows: spec.rows,
    write: (text) => {
      bar.clear();
      io.stdout(text);
    },
  });
  const controller = new AbortController();
  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
    controller.abort(new AbortedError());
  };
  process.once('SIGINT', onInterrupt);

  let firstFailure: number | undefined;
  let singleFailure: { code: number; message: string } | undefined;
  let gateFailed: GateFailure | undefined;
  const results: (BatchItem<T> | undefined)[] = new Array(tasks.length);
  let emitted = 0;
  let finished = 0;
  const emit = () => {
    while (emitted < tasks.length && results[emitted] !== undefined) {
      const item = results[emitted] as BatchItem<T>;
      // One target's failure goes to stderr as the run's error, not into the answer.
      if (!interrupted && (batch || 'data' in item)) writer.item(item);
      results[emitted] = undefined; // free it: a 100,000-line batch streams
      emitted++;
    }
  };

  const engines = lazyEngine(io, {
    allowPrivate: flags.allowPrivate,
    overrides: spec.engine?.(flags),
  });
  const direct = spec.direct;
  try {
    await direct?.open();
    let next = 0;
    const worker = async () => {
      while (next < tasks.length && !interrupted) {
        const index = next++;
        const task = tasks[index] as { input: string; arg: A };
        const single = !batch;
        const call: CallContext = {
          call: {
            signal: controller.signal,
            ...(flags.timeout !== undefined ? { timeout: flags.timeout } : {}),
          },
          progress: progressBar(io, 'ports', single && showProgress),
          single,
        };
        let item: BatchItem<T>;
        try {
          const data =
            direct?.run(task.arg, flags) ??
            (await spec.run(await engines.get(), task.arg, flags, call));
          item = { input: task.input, data };
          const gate = spec.gate?.(data, flags);
          if (gate) {
            gateFailed ??= gate;
            if (batch) printError(io, `${task.input}: ${gate.message}`);
          }
        } catch (error) {
          const failure = describeError(error, spec.words);
          firstFailure ??= failure.code;
          if (!batch) singleFailure = failure;
          const code = (error as { code?: unknown }).code;
          item = {
            input: task.input,
            error: {
              code: typeof code === 'string' && !code.startsWith('commander') ? code : 'ERROR',
              message: failure.message,
            },
          };
        } finally {
          call.progress.done();
        }
        results[index] = item;
        finished++;
        bar.update(finished, tasks.length);
        emit();
      }
    };
    const jobs = Math.min(flags.jobs ?? spec.jobs ?? 4, tasks.length);
    await Promise.all(Array.from({ length: jobs }, worker));
  } finally {
    direct?.close();
    await engines.close();
    process.off('SIGINT', onInterrupt);
    bar.done();
  }
  if (interrupted) return EXIT.interrupted;
  if (singleFailure !== undefined) {
    printError(io, singleFailure.message);
    return singleFailure.code;
  }
  writer.end();
  if (firstFailure !== undefined) return firstFailure;
  if (gateFailed) {
    if (!batch) printError(io, gateFailed.message);
    return gateFailed.code ?? EXIT.gate;
  }
  return EXIT.ok;
}
