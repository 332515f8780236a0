import type { Command } from 'commander';
import type { CliIO } from '../io.js';

/** A command module registers itself on the program; actions report through `io`. */
export interface CommandContext {
  io: CliIO;
}

export type RegisterCommand = (program: Command, ctx: CommandContext) => void;
